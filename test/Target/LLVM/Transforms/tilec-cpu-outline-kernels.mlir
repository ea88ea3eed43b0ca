// RUN: tilec-opt %s --tilec-cpu-outline-kernels | FileCheck %s

// Kernels 0 and 1 are the same up to their buffers: one function serves
// both. Kernel 2 claims the same fingerprint but scales by another
// constant: a collision of the hash, which must not merge it. Kernel 3 has
// no fingerprint at all and is outlined on its own.

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>, %[[C:.*]]: memref<8xf32>, %[[D:.*]]: memref<8xf32>)
// CHECK:         %[[T:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT:    call @tilec_kernel_scale_0(%[[A]], %[[T]]) {tilec.kernel = "scale_0"}
// CHECK-NEXT:    call @tilec_kernel_scale_0(%[[T]], %[[B]]) {tilec.kernel = "scale_1"}
// CHECK-NEXT:    call @tilec_kernel_scale_2(%[[B]], %[[C]]) {tilec.kernel = "scale_2"}
// CHECK-NEXT:    call @tilec_kernel_copy_3(%[[C]], %[[D]]) {tilec.kernel = "copy_3"}
// CHECK-NEXT:    memref.dealloc %[[T]]
// CHECK-NEXT:    return

// CHECK:       func.func private @tilec_kernel_scale_0(%[[IN:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-SAME:    attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// The constant is copied in, not passed.
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2.0
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:      %[[X:.*]] = affine.load %[[IN]][%[[I]]]
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[TWO]]
// CHECK-NEXT:      affine.store %[[Y]], %[[OUT]][%[[I]]]
// CHECK-NEXT:    } {tilec.fingerprint = "f1"}
// CHECK-NEXT:    return
// CHECK:       func.func private @tilec_kernel_scale_2(
// CHECK:         arith.constant 3.0
// CHECK:       func.func private @tilec_kernel_copy_3(
// CHECK-NOT:   func.func
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>,
                %d: memref<8xf32>) attributes {tilec.entry} {
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %t = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %t[%i] : memref<8xf32>
  } {tilec.kernel = "scale_0", tilec.fingerprint = "f1"}
  affine.for %i = 0 to 8 {
    %x = affine.load %t[%i] : memref<8xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %b[%i] : memref<8xf32>
  } {tilec.kernel = "scale_1", tilec.fingerprint = "f1"}
  affine.for %i = 0 to 8 {
    %x = affine.load %b[%i] : memref<8xf32>
    %y = arith.mulf %x, %three : f32
    affine.store %y, %c[%i] : memref<8xf32>
  } {tilec.kernel = "scale_2", tilec.fingerprint = "f1"}
  affine.for %i = 0 to 8 {
    %x = affine.load %c[%i] : memref<8xf32>
    affine.store %x, %d[%i] : memref<8xf32>
  } {tilec.kernel = "copy_3"}
  memref.dealloc %t : memref<8xf32>
  return
}
