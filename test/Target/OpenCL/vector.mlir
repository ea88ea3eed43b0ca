// A vectorised kernel: vload4/vstore4, element-wise ops on float4, a splat
// constant, broadcast, extract/insert, fma and an ordered reduction.
// RUN: tilec-translate --tilec-to-opencl %s | FileCheck %s

// CHECK-LABEL: void axpy4(
// CHECK:      long v0 = tid_x * 4;
// CHECK-NEXT: float4 v1 = vload4(0, &in_X[v0]);
// CHECK-NEXT: float v2 = in_A[0];
// CHECK-NEXT: float4 v3 = (float4)(v2);
// CHECK-NEXT: float4 v4 = v1 * v3;
// CHECK-NEXT: float4 v5 = v4 + (float4)(1.0f);
// CHECK-NEXT: float4 v6 = fma(v5, v3, v1);
// CHECK-NEXT: float v7 = v6.s3;
// CHECK-NEXT: float4 v8 = v6;
// CHECK-NEXT: v8.s0 = v7;
// CHECK-NEXT: float v9 = v8.s0 + v8.s1 + v8.s2 + v8.s3;
// CHECK-NEXT: vstore4(v8, 0, &out_Y[v0]);
// CHECK-NEXT: out_S[tid_x] = v9;

module attributes {gpu.container_module} {
  func.func @main(%A: memref<1xf32>, %X: memref<64xf32>, %Y: memref<64xf32>, %S: memref<16xf32>)
      attributes {tilec.entry, tilec.input_names = ["A", "X"], tilec.output_names = ["Y", "S"]} {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @k::@axpy4 blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%A : memref<1xf32>, %X : memref<64xf32>, %Y : memref<64xf32>, %S : memref<16xf32>)
    return
  }
  gpu.module @k {
    gpu.func @axpy4(%a: memref<1xf32>, %x: memref<64xf32>, %y: memref<64xf32>, %s: memref<16xf32>) kernel
        attributes {tilec.fingerprint = "9f8738f380d30d66"} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %one = arith.constant dense<1.0> : vector<4xf32>
      %t = gpu.thread_id x
      %i = arith.muli %t, %c4 : index
      %v = vector.load %x[%i] : memref<64xf32>, vector<4xf32>
      %alpha = memref.load %a[%c0] : memref<1xf32>
      %b = vector.broadcast %alpha : f32 to vector<4xf32>
      %p = arith.mulf %v, %b : vector<4xf32>
      %q = arith.addf %p, %one : vector<4xf32>
      %r = vector.fma %q, %b, %v : vector<4xf32>
      %e = vector.extract %r[3] : f32 from vector<4xf32>
      %w = vector.insert %e, %r[0] : f32 into vector<4xf32>
      %sum = vector.reduction <add>, %w : vector<4xf32> into f32
      vector.store %w, %y[%i] : memref<64xf32>, vector<4xf32>
      memref.store %sum, %s[%t] : memref<16xf32>
      gpu.return
    }
  }
}
