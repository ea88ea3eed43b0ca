// f16 computes in `half`: the program enables cl_khr_fp16, and a device
// without it stops the build with an error naming the extension.
// RUN: tilec %s --emit=cl | FileCheck %s

// CHECK:      #ifndef cl_khr_fp16
// CHECK-NEXT: #error "this program computes in f16, which needs the OpenCL extension cl_khr_fp16; the device lacks it"
// CHECK-NEXT: #endif
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_fp16 : enable
// CHECK-NOT:  cl_khr_fp64
// CHECK-LABEL: void half_exp(__global const half *restrict in_X,
// CHECK-NEXT:     __global half *restrict out_Y) {
// CHECK:      half v0 = in_X[tid_x];
// CHECK-NEXT: float v1 = (float)v0;
// CHECK-NEXT: float v2 = exp(v1);
// CHECK-NEXT: half v3 = (half)v2;
// CHECK-NEXT: half v4 = v3 / v0;
// CHECK-NEXT: half v5 = v4 + (half)1.5f;
// CHECK-NEXT: half v6 = fmax(v5, v0);
// CHECK-NEXT: out_Y[tid_x] = v6;

module attributes {gpu.container_module} {
  func.func @main(%X: memref<4xf16>, %Y: memref<4xf16>)
      attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["Y"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@half_exp blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%X : memref<4xf16>, %Y : memref<4xf16>)
    return
  }
  gpu.module @k {
    gpu.func @half_exp(%x: memref<4xf16>, %y: memref<4xf16>) kernel
        attributes {tilec.fingerprint = "5dde59dc9ad1ce5e"} {
      %t = gpu.thread_id x
      %c = arith.constant 1.5 : f16
      %0 = memref.load %x[%t] : memref<4xf16>
      %1 = arith.extf %0 : f16 to f32
      %2 = math.exp %1 : f32
      %3 = arith.truncf %2 : f32 to f16
      %4 = arith.divf %3, %0 : f16
      %5 = arith.addf %4, %c : f16
      %6 = arith.maxnumf %5, %0 : f16
      memref.store %6, %y[%t] : memref<4xf16>
      gpu.return
    }
  }
}
