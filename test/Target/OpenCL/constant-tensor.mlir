// A constant tensor (memref.global constant) becomes a __constant array of
// the program: the kernel reads it by name and the manifest, which passes
// no data, does not list it as an argument.
// RUN: tilec-translate --tilec-to-opencl %s | FileCheck %s
// RUN: tilec-translate --tilec-to-opencl-manifest %s | FileCheck %s --check-prefix=MANIFEST

// CHECK:      __constant int const_0[3] = {2, 3, 4};
// CHECK-LABEL: void constant_0_O(__global int *restrict out_O) {
// CHECK:        int v0 = const_0[tid_x];
// CHECK-NEXT:   out_O[tid_x] = v0;

// MANIFEST:      "args": [
// MANIFEST-NEXT:   {
// MANIFEST-NEXT:     "access": "write",
// MANIFEST-NEXT:     "buffer": 1
// MANIFEST-NEXT:   }
// MANIFEST-NEXT: ],

module attributes {gpu.container_module} {
  memref.global "private" constant @__tilec_constant_0 : memref<3xi32> = dense<[2, 3, 4]>
  func.func @main(%I: memref<2x3x4xf32>, %O: memref<3xi32>)
      attributes {tilec.entry, tilec.input_names = ["I"], tilec.output_names = ["O"]} {
    %shape = memref.get_global @__tilec_constant_0 : memref<3xi32>
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    gpu.launch_func @k::@constant_0_O blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1)
        args(%shape : memref<3xi32>, %O : memref<3xi32>)
    return
  }
  gpu.module @k {
    gpu.func @constant_0_O(%s: memref<3xi32>, %o: memref<3xi32>) kernel
        attributes {tilec.fingerprint = "f1273d5a6d23e8e6"} {
      %t = gpu.thread_id x
      %v = memref.load %s[%t] : memref<3xi32>
      memref.store %v, %o[%t] : memref<3xi32>
      gpu.return
    }
  }
}
