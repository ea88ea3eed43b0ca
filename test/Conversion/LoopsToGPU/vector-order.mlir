// RUN: tilec-opt %s -split-input-file -tilec-gpu-map-kernels | FileCheck %s

// vector = 4 along x with thread[x] = 8: each work-item takes 2 vectors of
// 4 neighbouring iterations, the first at (thread_id * 4), the next a
// work-group's width (4 work-items * 4) further on. The contiguous load
// and store become vector.load and vector.store; the load invariant along
// x stays scalar and is broadcast.
// CHECK-LABEL: gpu.func @scale(
// CHECK-SAME: known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 2, 8, 1>
// CHECK: %[[Y:.+]] = gpu.block_id y
// CHECK: %[[START:.+]] = arith.muli %{{.+}}, %c32
// CHECK: %[[ITEM:.+]] = gpu.thread_id x
// CHECK: %[[ITEM4:.+]] = arith.muli %[[ITEM]], %c4
// CHECK: %[[FIRST:.+]] = arith.addi %[[START]], %[[ITEM4]]
// CHECK: scf.for %[[J:.+]] = %c0 to %c2 step %c1 {
// CHECK: %[[OFF:.+]] = arith.muli %[[J]], %c16
// CHECK: %[[X:.+]] = arith.addi %[[FIRST]], %[[OFF]]
// CHECK: %[[A:.+]] = vector.load %arg0[%[[Y]], %[[X]]] : memref<8x64xf32>, vector<4xf32>
// CHECK: %[[S:.+]] = memref.load %arg1
// CHECK: %[[SV:.+]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK: %[[P:.+]] = arith.mulf %[[A]], %[[SV]] : vector<4xf32>
// CHECK: vector.store %[[P]], %arg2[%[[Y]], %[[X]]] : memref<8x64xf32>, vector<4xf32>
func.func @scale(%a: memref<8x64xf32>, %s: memref<1xf32>, %b: memref<8x64xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 64 {
      %x = affine.load %a[%i, %j] : memref<8x64xf32>
      %f = affine.load %s[0] : memref<1xf32>
      %y = arith.mulf %x, %f : f32
      affine.store %y, %b[%i, %j] : memref<8x64xf32>
    }
  } {tilec.kernel = "scale", tilec.schedule = #tilec.schedule<block = [1, 32], thread = [1, 8], vector = 4>}
  return
}

// -----

// A reduction accumulates in a vector: A[m, k] is the same for the 4
// columns (broadcast), B[k, n] a row of 4 (vector.load).
// CHECK-LABEL: gpu.func @matmul(
// CHECK: %[[ZERO:.+]] = vector.broadcast %{{.+}} : f32 to vector<4xf32>
// CHECK: %[[SUM:.+]] = scf.for %{{.+}} iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (vector<4xf32>) {
// CHECK: %[[A:.+]] = memref.load %arg0
// CHECK: %[[B:.+]] = vector.load %arg1{{.+}} : memref<6x16xf32>, vector<4xf32>
// CHECK: %[[AV:.+]] = vector.broadcast %[[A]] : f32 to vector<4xf32>
// CHECK: %[[P:.+]] = arith.mulf %[[AV]], %[[B]] : vector<4xf32>
// CHECK: %[[N:.+]] = arith.addf %[[ACC]], %[[P]] : vector<4xf32>
// CHECK: scf.yield %[[N]] : vector<4xf32>
// CHECK: vector.store %[[SUM]], %arg2
func.func @matmul(%a: memref<4x6xf32>, %b: memref<6x16xf32>, %c: memref<4x16xf32>) {
  affine.for %m = 0 to 4 {
    affine.for %n = 0 to 16 {
      %cst = arith.constant 0.000000e+00 : f32
      %0 = affine.for %k = 0 to 6 iter_args(%acc = %cst) -> (f32) {
        %1 = affine.load %a[%m, %k] : memref<4x6xf32>
        %2 = affine.load %b[%k, %n] : memref<6x16xf32>
        %3 = arith.mulf %1, %2 : f32
        %4 = arith.addf %acc, %3 : f32
        affine.yield %4 : f32
      }
      affine.store %0, %c[%m, %n] : memref<4x16xf32>
    }
  } {tilec.kernel = "matmul", tilec.schedule = #tilec.schedule<block = [4, 16], thread = [1, 4], vector = 4>}
  return
}

// -----

// A transpose along x: the load strides through A, so it is gathered lane
// by lane (x + 1 for the second lane) into a vector the store writes whole.
// CHECK-LABEL: gpu.func @transpose(
// CHECK: %[[X1:.+]] = arith.addi %[[X0:.+]], %c1
// CHECK: %[[E0:.+]] = memref.load %arg0[%[[X0]], %[[I:.+]]] : memref<8x4xf32>
// CHECK: %[[E1:.+]] = memref.load %arg0[%[[X1]], %[[I]]] : memref<8x4xf32>
// CHECK: %[[V:.+]] = vector.from_elements %[[E0]], %[[E1]] : vector<2xf32>
// CHECK: vector.store %[[V]], %arg1[%[[I]], %[[X0]]] : memref<4x8xf32>, vector<2xf32>
func.func @transpose(%a: memref<8x4xf32>, %b: memref<4x8xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %x = affine.load %a[%j, %i] : memref<8x4xf32>
      affine.store %x, %b[%i, %j] : memref<4x8xf32>
    }
  } {tilec.kernel = "transpose", tilec.schedule = #tilec.schedule<thread = [1, 2], vector = 2>}
  return
}

// -----

// order = [1, 0]: loop 1 (j, 8 iterations) goes to y and loop 0 (i) to x,
// where one work-item takes all 4 iterations as one vector: it reads a row
// of A whole and scatters it into a column of B, one store per lane.
// CHECK-LABEL: gpu.func @ordered(
// CHECK-SAME: known_block_size = array<i32: 1, 8, 1>, known_grid_size = array<i32: 1, 1, 1>
// CHECK: %[[J:.+]] = arith.addi %{{.+}}, %thread_id_y
// CHECK: %[[I0:.+]] = arith.muli %block_id_x, %c4
// CHECK: %[[I1:.+]] = arith.addi %[[I0]], %c1
// CHECK: %[[I2:.+]] = arith.addi %[[I0]], %c2
// CHECK: %[[I3:.+]] = arith.addi %[[I0]], %c3
// CHECK: %[[ROW:.+]] = vector.load %arg0[%[[J]], %[[I0]]] : memref<8x4xf32>, vector<4xf32>
// CHECK: %[[E0:.+]] = vector.extract %[[ROW]][0]
// CHECK: %[[E3:.+]] = vector.extract %[[ROW]][3]
// CHECK: memref.store %[[E0]], %arg1[%[[I0]], %[[J]]]
// CHECK: memref.store %[[E3]], %arg1[%[[I3]], %[[J]]]
func.func @ordered(%a: memref<8x4xf32>, %b: memref<4x8xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %x = affine.load %a[%j, %i] : memref<8x4xf32>
      affine.store %x, %b[%i, %j] : memref<4x8xf32>
    }
  } {tilec.kernel = "ordered", tilec.schedule = #tilec.schedule<thread = [4, 1], vector = 4, order = [1, 0]>}
  return
}
