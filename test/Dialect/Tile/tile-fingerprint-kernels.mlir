// RUN: tilec-opt %s -tile-fingerprint-kernels | FileCheck %s

// Kernels that differ only in name and location have one fingerprint; a
// different shape gives another. Loops without tilec.kernel get none.
// CHECK-LABEL: func.func @kernels
// CHECK: tilec.fingerprint = "[[FP:[0-9a-f]+]]", tilec.kernel = "first"
// CHECK: tilec.fingerprint = "[[FP]]", tilec.kernel = "second"
// CHECK-NOT: tilec.fingerprint = "[[FP]]"
// CHECK: tilec.fingerprint = "{{[0-9a-f]+}}", tilec.kernel = "third"
// CHECK: affine.for
// CHECK-NOT: tilec.fingerprint
// CHECK: return
func.func @kernels(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<5xf32>) {
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xf32>
    affine.store %v, %b[%i] : memref<4xf32>
  } {tilec.kernel = "first"}
  affine.for %j = 0 to 4 {
    %w = affine.load %b[%j] : memref<4xf32> loc("x.tile":3:4)
    affine.store %w, %a[%j] : memref<4xf32>
  } {tilec.kernel = "second"}
  affine.for %i = 0 to 5 {
    %v = affine.load %c[%i] : memref<5xf32>
    affine.store %v, %c[%i] : memref<5xf32>
  } {tilec.kernel = "third"}
  affine.for %i = 0 to 5 {
    %v = affine.load %c[%i] : memref<5xf32>
    affine.store %v, %c[%i] : memref<5xf32>
  }
  return
}
