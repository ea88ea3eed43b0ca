// RUN: tilec-opt %s -split-input-file -tilec-cpu-fuse-rows="vector-bytes=64" | FileCheck %s
//
// Row chains become one nest marked tilec.row_kernel while every step over
// the columns can run on vectors; the rest is left to the CPU schedules.

// A softmax at the loop level: the row maximum, exp(L - max), the row sum
// and the division become one nest over the rows, each kernel's row body
// inside in order.
// CHECK-LABEL: func.func @softmax
// CHECK:         %[[MAX:.*]] = memref.alloc() : memref<8x1xf32>
// CHECK:         affine.for %[[R:.*]] = 0 to 8 {
// CHECK:           affine.for {{.*}} = 0 to 100 iter_args
// CHECK:             arith.maxnumf
// CHECK:           affine.store {{.*}}, %[[MAX]][%[[R]], 0]
// CHECK:           affine.for {{.*}} = 0 to 100 {
// CHECK:             math.exp
// CHECK:           affine.for {{.*}} = 0 to 100 iter_args
// CHECK:             arith.addf
// CHECK:           affine.for {{.*}} = 0 to 100 {
// CHECK:             arith.divf
// CHECK:         } {tilec.fingerprint = "{{[0-9a-f]+}}", tilec.kernel = "max..div", tilec.row_kernel}
// CHECK-NOT:     tilec.kernel
// CHECK:         return
func.func @softmax(%L: memref<8x100xf32>, %P: memref<8x100xf32>) {
  %M = memref.alloc() : memref<8x1xf32>
  %E = memref.alloc() : memref<8x100xf32>
  affine.for %r = 0 to 8 {
    affine.for %u = 0 to 1 {
      %init = arith.constant 0xFF800000 : f32
      %m = affine.for %c = 0 to 100 iter_args(%acc = %init) -> (f32) {
        %x = affine.load %L[%r, %c] : memref<8x100xf32>
        %y = arith.maxnumf %acc, %x : f32
        affine.yield %y : f32
      }
      affine.store %m, %M[%r, %u] : memref<8x1xf32>
    }
  } {tilec.kernel = "max"}
  affine.for %r = 0 to 8 {
    affine.for %c = 0 to 100 {
      %x = affine.load %L[%r, %c] : memref<8x100xf32>
      %m = affine.load %M[%r, 0] : memref<8x1xf32>
      %d = arith.subf %x, %m : f32
      %e = math.exp %d : f32
      affine.store %e, %E[%r, %c] : memref<8x100xf32>
    }
  } {tilec.kernel = "exp"}
  affine.for %r = 0 to 8 {
    affine.for %u = 0 to 1 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %c = 0 to 100 iter_args(%acc = %zero) -> (f32) {
        %e = affine.load %E[%r, %c] : memref<8x100xf32>
        %y = arith.addf %acc, %e : f32
        affine.yield %y : f32
      }
      affine.store %s, %M[%r, %u] : memref<8x1xf32>
    }
  } {tilec.kernel = "sum"}
  affine.for %r = 0 to 8 {
    affine.for %c = 0 to 100 {
      %e = affine.load %E[%r, %c] : memref<8x100xf32>
      %s = affine.load %M[%r, 0] : memref<8x1xf32>
      %p = arith.divf %e, %s : f32
      affine.store %p, %P[%r, %c] : memref<8x100xf32>
    }
  } {tilec.kernel = "div"}
  memref.dealloc %M : memref<8x1xf32>
  memref.dealloc %E : memref<8x100xf32>
  return
}

// -----

// A sum over the rows of a row-major matrix (each "row" of the reduction is
// a column in memory) has no contiguous lanes along its reduction: the CPU
// schedule vectorises it across the outputs instead, so it is not fused.
// CHECK-LABEL: func.func @column_sum
// CHECK-NOT:     tilec.row_kernel
// CHECK:         tilec.kernel = "colsum"
// CHECK-NOT:     tilec.row_kernel
func.func @column_sum(%X: memref<100x8xf32>, %S: memref<8x1xf32>) {
  affine.for %j = 0 to 8 {
    affine.for %u = 0 to 1 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %i = 0 to 100 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %X[%i, %j] : memref<100x8xf32>
        %y = arith.addf %acc, %x : f32
        affine.yield %y : f32
      }
      affine.store %s, %S[%j, %u] : memref<8x1xf32>
    }
  } {tilec.kernel = "colsum"}
  return
}

// -----

// The chain stops at the first kernel whose columns step has no vector
// form (an index computed from the column): the row sum alone is fused.
// CHECK-LABEL: func.func @stops_at_scalar_step
// CHECK:         } {tilec.fingerprint = "{{[0-9a-f]+}}", tilec.kernel = "sum", tilec.row_kernel}
// CHECK:         } {tilec.kernel = "iota"}
func.func @stops_at_scalar_step(%X: memref<4x64xf32>, %S: memref<4x1xf32>, %Y: memref<4x64xf32>) {
  affine.for %r = 0 to 4 {
    affine.for %u = 0 to 1 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %c = 0 to 64 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %X[%r, %c] : memref<4x64xf32>
        %y = arith.addf %acc, %x : f32
        affine.yield %y : f32
      }
      affine.store %s, %S[%r, %u] : memref<4x1xf32>
    }
  } {tilec.kernel = "sum"}
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 64 {
      %i = arith.index_cast %c : index to i32
      %f = arith.sitofp %i : i32 to f32
      %s = affine.load %S[%r, 0] : memref<4x1xf32>
      %y = arith.mulf %f, %s : f32
      affine.store %y, %Y[%r, %c] : memref<4x64xf32>
    }
  } {tilec.kernel = "iota"}
  return
}

// -----

// A kernel with a schedule (from a schedule file) is left as it is.
// CHECK-LABEL: func.func @scheduled
// CHECK-NOT:     tilec.row_kernel
func.func @scheduled(%X: memref<4x64xf32>, %S: memref<4x1xf32>) {
  affine.for %r = 0 to 4 {
    affine.for %u = 0 to 1 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %c = 0 to 64 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %X[%r, %c] : memref<4x64xf32>
        %y = arith.addf %acc, %x : f32
        affine.yield %y : f32
      }
      affine.store %s, %S[%r, %u] : memref<4x1xf32>
    }
  } {tilec.kernel = "sum", tilec.schedule = #tilec.schedule<block = [0, 0], thread = [4, 1], vector = 1>}
  return
}
