// Lanes gathered one by one become an OpenCL vector literal.
// RUN: tilec-translate --tilec-to-opencl %s | FileCheck %s

// CHECK-LABEL: void gather2(
// CHECK:      float v1 = in_X[tid_x];
// CHECK-NEXT: float v2 = in_X[v0];
// CHECK-NEXT: float2 v3 = (float2)(v1, v2);
// CHECK-NEXT: long v4 = tid_x * 2;
// CHECK-NEXT: vstore2(v3, 0, &out_Y[v4]);

module attributes {gpu.container_module} {
  func.func @main(%X: memref<8xf32>, %Y: memref<8xf32>)
      attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["Y"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@gather2 blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%X : memref<8xf32>, %Y : memref<8xf32>)
    return
  }
  gpu.module @k {
    gpu.func @gather2(%x: memref<8xf32>, %y: memref<8xf32>) kernel
        attributes {tilec.fingerprint = "0123456789abcdef"} {
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %t = gpu.thread_id x
      %i = arith.addi %t, %c4 : index
      %a = memref.load %x[%t] : memref<8xf32>
      %b = memref.load %x[%i] : memref<8xf32>
      %v = vector.from_elements %a, %b : vector<2xf32>
      %o = arith.muli %t, %c2 : index
      vector.store %v, %y[%o] : memref<8xf32>, vector<2xf32>
      gpu.return
    }
  }
}
