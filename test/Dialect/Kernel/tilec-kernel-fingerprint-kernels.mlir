// RUN: tilec-opt %s -tilec-kernel-fingerprint-kernels | FileCheck %s

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

// Which operands are one buffer is part of the form: A * A and A * B
// differ. Renaming the buffers, moving the kernel in the source or giving
// it a schedule changes nothing.
// CHECK-LABEL: func.func @operands
// CHECK: tilec.fingerprint = "[[SQUARE:[0-9a-f]+]]", tilec.kernel = "square"
// CHECK-NOT: tilec.fingerprint = "[[SQUARE]]"
// CHECK: tilec.fingerprint = "[[PRODUCT:[0-9a-f]+]]", tilec.kernel = "product"
// CHECK: tilec.fingerprint = "[[PRODUCT]]"
// CHECK-SAME: tilec.kernel = "product_renamed"
// CHECK: tilec.fingerprint = "[[SQUARE]]", tilec.kernel = "square_renamed"
func.func @operands(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    %x = affine.load %a[%i] : memref<4xf32>
    %y = affine.load %a[%i] : memref<4xf32>
    %p = arith.mulf %x, %y : f32
    affine.store %p, %c[%i] : memref<4xf32>
  } {tilec.kernel = "square"}
  affine.for %i = 0 to 4 {
    %x = affine.load %a[%i] : memref<4xf32>
    %y = affine.load %b[%i] : memref<4xf32>
    %p = arith.mulf %x, %y : f32
    affine.store %p, %c[%i] : memref<4xf32>
  } {tilec.kernel = "product"}
  affine.for %k = 0 to 4 {
    %u = affine.load %c[%k] : memref<4xf32> loc("model.tile":7:1)
    %v = affine.load %a[%k] : memref<4xf32>
    %w = arith.mulf %u, %v : f32
    affine.store %w, %b[%k] : memref<4xf32>
  } {tilec.kernel = "product_renamed", tilec.schedule = #tilec.schedule<block = [2]>}
  affine.for %k = 0 to 4 {
    %u = affine.load %b[%k] : memref<4xf32>
    %v = affine.load %b[%k] : memref<4xf32>
    %w = arith.mulf %u, %v : f32
    affine.store %w, %a[%k] : memref<4xf32>
  } {tilec.kernel = "square_renamed"}
  return
}
