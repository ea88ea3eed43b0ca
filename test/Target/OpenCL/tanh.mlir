// Float tanh is exactly +-1 where it rounds to +-1 (OpenCL's builtin may be
// an ulp short, which asin and acos magnify); double keeps the builtin.
// RUN: tilec-translate --tilec-to-opencl %s | FileCheck %s

// CHECK:      float tilec_tanh_float(float x) {
// CHECK-NEXT:   return fabs(x) >= 9.011f ? copysign(1.0f, x) : tanh(x);
// CHECK-LABEL: void tanhs(
// CHECK:      float v1 = tilec_tanh_float(v0);
// CHECK-NEXT: float v2 = acos(v1);
// CHECK-NEXT: double v3 = (double)v2;
// CHECK-NEXT: double v4 = tanh(v3);

module attributes {gpu.container_module} {
  func.func @main(%X: memref<4xf32>, %Y: memref<4xf64>)
      attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["Y"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@tanhs blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%X : memref<4xf32>, %Y : memref<4xf64>)
    return
  }
  gpu.module @k {
    gpu.func @tanhs(%x: memref<4xf32>, %y: memref<4xf64>) kernel
        attributes {tilec.fingerprint = "0123456789abcdef"} {
      %t = gpu.thread_id x
      %0 = memref.load %x[%t] : memref<4xf32>
      %1 = math.tanh %0 : f32
      %2 = math.acos %1 : f32
      %3 = arith.extf %2 : f32 to f64
      %4 = math.tanh %3 : f64
      memref.store %4, %y[%t] : memref<4xf64>
      gpu.return
    }
  }
}
