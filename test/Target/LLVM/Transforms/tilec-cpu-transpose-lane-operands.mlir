// RUN: tilec-opt %s -split-input-file -tilec-cpu-transpose-lane-operands | FileCheck %s
//
// A convolution's input gradient reads its filter with the lane (ci) in a
// middle dimension: the filter gets a copy with ci last, made by a kernel
// of its own before the kernel, whose load now reads the copy; the results
// are the same values, read from elsewhere.

// CHECK-LABEL: func.func @input_gradient
// CHECK: %[[COPY:.*]] = memref.alloc() : memref<3x3x8x16xf32>
// CHECK: affine.for %[[A:.*]] = 0 to 3 {
// CHECK:   affine.for %[[B:.*]] = 0 to 3 {
// CHECK:     affine.for %[[C:.*]] = 0 to 8 {
// CHECK:       affine.for %[[D:.*]] = 0 to 16 {
// CHECK:         %[[V:.*]] = affine.load %arg1[%[[A]], %[[B]], %[[D]], %[[C]]] : memref<3x3x16x8xf32>
// CHECK:         affine.store %[[V]], %[[COPY]][%[[A]], %[[B]], %[[C]], %[[D]]]
// CHECK: } {tilec.fingerprint = "{{[0-9a-f]+}}", tilec.kernel = "dI.lanes_0"}
// CHECK: affine.for
// CHECK: affine.load %arg0
// CHECK: affine.load %[[COPY]][%{{.*}}, %{{.*}}, %{{.*}}, %[[CI:arg[0-9]+]]] : memref<3x3x8x16xf32>
// CHECK: } {tilec.fingerprint = "k", tilec.kernel = "dI"}
// CHECK-NEXT: memref.dealloc %[[COPY]]
#set = affine_set<(d0, d1, d2, d3) : (d0 - d2 >= 0, -(d0 - d2) + 5 >= 0, d1 - d3 >= 0, -(d1 - d3) + 5 >= 0)>
func.func @input_gradient(%D: memref<6x6x8xf32>, %F: memref<3x3x16x8xf32>, %G: memref<8x8x16xf32>) {
  affine.for %y = 0 to 8 {
    affine.for %x = 0 to 8 {
      affine.for %ci = 0 to 16 {
        %zero = arith.constant 0.0 : f32
        %s = affine.for %ky = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
          %t = affine.for %kx = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
            %u = affine.for %co = 0 to 8 iter_args(%a2 = %a1) -> (f32) {
              %v = affine.if #set(%y, %x, %ky, %kx) -> f32 {
                %d = affine.load %D[%y - %ky, %x - %kx, %co] : memref<6x6x8xf32>
                %f = affine.load %F[%ky, %kx, %ci, %co] : memref<3x3x16x8xf32>
                %p = arith.mulf %d, %f : f32
                %q = arith.addf %a2, %p : f32
                affine.yield %q : f32
              } else {
                affine.yield %a2 : f32
              }
              affine.yield %v : f32
            }
            affine.yield %u : f32
          }
          affine.yield %t : f32
        }
        affine.store %s, %G[%y, %x, %ci] : memref<8x8x16xf32>
      }
    }
  } {tilec.fingerprint = "k", tilec.kernel = "dI"}
  return
}

// -----

// Left alone: a kernel already vectorisable (the forward convolution, lane
// co last in the filter), one whose copy would cost more than an eighth of
// its work, one that writes the operand, and one that reads an operand
// with the lane in two different dimensions (no one copy serves both).

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: memref.alloc
// CHECK-NOT: lanes_
func.func @left_alone(%I: memref<8x16xf32>, %F: memref<16x16xf32>, %O: memref<8x16xf32>, %W: memref<16x16xf32>, %T: memref<16x16x2xf32>) {
  affine.for %y = 0 to 8 {
    affine.for %co = 0 to 16 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %ci = 0 to 16 iter_args(%a = %zero) -> (f32) {
        %i = affine.load %I[%y, %ci] : memref<8x16xf32>
        %f = affine.load %F[%ci, %co] : memref<16x16xf32>
        %p = arith.mulf %i, %f : f32
        %q = arith.addf %a, %p : f32
        affine.yield %q : f32
      }
      affine.store %s, %O[%y, %co] : memref<8x16xf32>
    }
  } {tilec.fingerprint = "forward", tilec.kernel = "forward"}
  affine.for %y = 0 to 8 {
    affine.for %ci = 0 to 16 {
      %f = affine.load %F[%ci, %y] : memref<16x16xf32>
      affine.store %f, %O[%y, %ci] : memref<8x16xf32>
    }
  } {tilec.fingerprint = "cheap", tilec.kernel = "cheap"}
  affine.for %y = 0 to 16 {
    affine.for %ci = 0 to 16 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 16 iter_args(%a = %zero) -> (f32) {
        %w = affine.load %W[%ci, %k] : memref<16x16xf32>
        %q = arith.addf %a, %w : f32
        affine.yield %q : f32
      }
      affine.store %s, %W[%y, %ci] : memref<16x16xf32>
    }
  } {tilec.fingerprint = "writes", tilec.kernel = "writes"}
  affine.for %y = 0 to 16 {
    affine.for %ci = 0 to 16 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 16 iter_args(%a = %zero) -> (f32) {
        %f = affine.load %T[%ci, %k, 0] : memref<16x16x2xf32>
        %g = affine.load %T[%k, %ci, 1] : memref<16x16x2xf32>
        %p = arith.mulf %f, %g : f32
        %q = arith.addf %a, %p : f32
        affine.yield %q : f32
      }
      affine.store %s, %W[%y, %ci] : memref<16x16xf32>
    }
  } {tilec.fingerprint = "both", tilec.kernel = "both"}
  return
}
