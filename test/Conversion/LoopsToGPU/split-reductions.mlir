// RUN: tilec-opt %s -split-input-file -tilec-gpu-split-reductions | FileCheck %s

// A 16x64x8 matmul with a ReLU epilogue in 4 slices: a 4x16x8 temporary;
// the first kernel computes slice s of the reduction, 16 steps at
// s * 16 + k (the loads read s and k in their maps), from the nest's 0.0;
// the second sums the 4 slices from the nest's start and runs the
// epilogue. The slice loop is prepended to the schedule (block 1, thread
// 1, warp 1; the order shifted), split dropped; the aggregating kernel has
// none. Both keep the fingerprint.
// CHECK-LABEL: func.func @matmul(
// CHECK: %[[P:.+]] = memref.alloc() : memref<4x16x8xf32>
// CHECK: affine.for %[[S:.+]] = 0 to 4 {
// CHECK:   affine.for %[[I:.+]] = 0 to 16 {
// CHECK:     affine.for %[[J:.+]] = 0 to 8 {
// CHECK:       %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[PART:.+]] = affine.for %[[K:.+]] = 0 to 16 iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (f32) {
// CHECK:         affine.load %arg0[%[[I]], %[[S]] * 16 + %[[K]]]
// CHECK:         affine.load %arg1[%[[S]] * 16 + %[[K]], %[[J]]]
// CHECK:         arith.mulf
// CHECK:         arith.addf %[[ACC]]
// CHECK:       affine.store %[[PART]], %[[P]][%[[S]], %[[I]], %[[J]]]
// CHECK-NOT:   arith.maximumf
// CHECK: } {tilec.fingerprint = "0123456789abcdef", tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [1, 8, 8, 4], thread = [1, 2, 2], vector = 2, order = [0, 2, 1], warp = [1, 4, 8], buffers = 2>}
// CHECK: affine.for %[[I2:.+]] = 0 to 16 {
// CHECK:   affine.for %[[J2:.+]] = 0 to 8 {
// CHECK:     %[[START:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:     %[[SUM:.+]] = affine.for %[[T:.+]] = 0 to 4 iter_args(%[[A:.+]] = %[[START]]) -> (f32) {
// CHECK:       %[[V:.+]] = affine.load %[[P]][%[[T]], %[[I2]], %[[J2]]]
// CHECK:       %[[N:.+]] = arith.addf %[[A]], %[[V]] : f32
// CHECK:       affine.yield %[[N]] : f32
// CHECK:     %[[R:.+]] = arith.maximumf %[[SUM]]
// CHECK:     affine.store %[[R]], %arg2[%[[I2]], %[[J2]]]
// CHECK: } {tilec.fingerprint = "0123456789abcdef", tilec.kernel = "k.combine"}
// CHECK-NOT: affine.for
func.func @matmul(%a: memref<16x64xf32>, %b: memref<64x8xf32>, %c: memref<16x8xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 8 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<16x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x8xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      %r = arith.maximumf %s, %zero : f32
      affine.store %r, %c[%i, %j] : memref<16x8xf32>
    }
  } {tilec.fingerprint = "0123456789abcdef", tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [8, 8, 4], thread = [2, 2], vector = 2, order = [1, 0], warp = [4, 8], buffers = 2, split = 4>}
  return
}

// -----

// A kernel without split is left as it is.
// CHECK-LABEL: func.func @unsplit(
// CHECK-NOT: memref.alloc
// CHECK: tilec.kernel = "u", tilec.schedule = #tilec.schedule<block = [8]>
// CHECK-NOT: combine
func.func @unsplit(%a: memref<16x4xf32>, %c: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %zero = arith.constant 0.0 : f32
    %s = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<16x4xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %s, %c[%i] : memref<16xf32>
  } {tilec.kernel = "u", tilec.schedule = #tilec.schedule<block = [8]>}
  return
}
