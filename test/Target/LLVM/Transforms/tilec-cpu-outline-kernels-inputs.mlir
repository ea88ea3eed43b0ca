// RUN: tilec-opt %s --tilec-cpu-outline-kernels | FileCheck %s
// RUN: tilec-opt %s --tilec-cpu-outline-kernels --tilec-cpu-keep-packed-inputs | FileCheck %s --check-prefix=KEPT

// A kernel function's argument is marked tilec.program_input where every
// call passes one of the entry's inputs there (its panels are then worth
// keeping packed, TiledKernel.cpp). Kernels 0 and 1 share a function: its
// second argument is the input W at both calls and stays marked; its first
// is the input X at the first call and a temporary at the second, so it
// loses the mark. An output passed in is no input either.
// tilec-cpu-keep-packed-inputs removes the marks once the tiling has used
// them (LLVM warns about parameter attributes it does not know).
// KEPT-NOT: tilec.program_input

// CHECK-LABEL: func.func @main(
// CHECK:         call @tilec_kernel_mul_0(%arg0, %arg1, %[[T:.*]]) {tilec.kernel = "mul_0"}
// CHECK-NEXT:    call @tilec_kernel_mul_0(%[[T]], %arg1, %arg2) {tilec.kernel = "mul_1"}
// CHECK-NEXT:    call @tilec_kernel_add_2(%arg2, %arg1, %[[T]]) {tilec.kernel = "add_2"}
// CHECK:       func.func private @tilec_kernel_mul_0(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32> {tilec.program_input}, %{{.*}}: memref<8xf32>)
// The output Y, read by add_2, is no input.
// CHECK:       func.func private @tilec_kernel_add_2(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32> {tilec.program_input}, %{{.*}}: memref<8xf32>)
func.func @main(%x: memref<8xf32>, %w: memref<8xf32>, %y: memref<8xf32>)
    attributes {tilec.entry, tilec.input_names = ["X", "W"],
                tilec.output_names = ["Y"]} {
  %t = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %a = affine.load %x[%i] : memref<8xf32>
    %b = affine.load %w[%i] : memref<8xf32>
    %p = arith.mulf %a, %b : f32
    affine.store %p, %t[%i] : memref<8xf32>
  } {tilec.kernel = "mul_0", tilec.fingerprint = "f1"}
  affine.for %i = 0 to 8 {
    %a = affine.load %t[%i] : memref<8xf32>
    %b = affine.load %w[%i] : memref<8xf32>
    %p = arith.mulf %a, %b : f32
    affine.store %p, %y[%i] : memref<8xf32>
  } {tilec.kernel = "mul_1", tilec.fingerprint = "f1"}
  affine.for %i = 0 to 8 {
    %a = affine.load %y[%i] : memref<8xf32>
    %b = affine.load %w[%i] : memref<8xf32>
    %p = arith.addf %a, %b : f32
    affine.store %p, %t[%i] : memref<8xf32>
  } {tilec.kernel = "add_2", tilec.fingerprint = "f2"}
  memref.dealloc %t : memref<8xf32>
  return
}
