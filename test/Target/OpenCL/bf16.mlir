// bf16 is stored and carried as ushort bits; every operation computes in
// float and rounds to nearest even, through helpers emitted once.
// RUN: tilec-translate --tilec-to-opencl %s | FileCheck %s

// CHECK-NOT:  #pragma
// CHECK:      float tilec_bf16_to_float(ushort b) {
// CHECK-NEXT:   return as_float((uint)b << 16);
// CHECK:      ushort tilec_float_to_bf16(float f) {
// CHECK:        return (ushort)((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
// CHECK:      ushort tilec_long_to_bf16(long x) {
// CHECK-NOT:  ushort tilec_float_to_bf16(float f) {
// CHECK-LABEL: void bf16_ops(__global const ushort *restrict in_A,
// CHECK-NEXT:     __global const int *restrict in_I,
// CHECK-NEXT:     __global ushort *restrict out_C,
// CHECK-NEXT:     __global float *restrict out_F) {
// CHECK:      ushort v0 = in_A[tid_x];
// CHECK-NEXT: ushort v1 = tilec_float_to_bf16(tilec_bf16_to_float(v0) * tilec_bf16_to_float(v0));
// CHECK-NEXT: ushort v2 = tilec_float_to_bf16(tilec_bf16_to_float(v1) + tilec_bf16_to_float((ushort)0x3FC0 /* 1.5 */));
// CHECK-NEXT: ushort v3 = (ushort)(v2 ^ 0x8000);
// CHECK-NEXT: ushort v4 = tilec_float_to_bf16(exp(tilec_bf16_to_float(v3)));
// CHECK-NEXT: float v5 = tilec_bf16_to_float(v4);
// CHECK-NEXT: bool v6 = tilec_bf16_to_float(v4) < tilec_bf16_to_float(v0);
// CHECK-NEXT: int v7 = in_I[tid_x];
// CHECK-NEXT: ushort v8 = tilec_long_to_bf16((long)v7);
// CHECK-NEXT: ushort v9 = v6 ? v8 : v4;
// CHECK-NEXT: ushort v10 = tilec_float_to_bf16((float)v5);
// CHECK-NEXT: short v11 = as_short(v10);
// CHECK-NEXT: ushort v12 = as_ushort(v11);
// CHECK-NEXT: ushort v13 = tilec_float_to_bf16(tilec_maximum_float(tilec_bf16_to_float(v9), tilec_bf16_to_float(v12)));
// CHECK-NEXT: out_C[tid_x] = v13;
// CHECK-NEXT: out_F[tid_x] = v5;

module attributes {gpu.container_module} {
  func.func @main(%A: memref<4xbf16>, %I: memref<4xi32>, %C: memref<4xbf16>, %F: memref<4xf32>)
      attributes {tilec.entry, tilec.input_names = ["A", "I"], tilec.output_names = ["C", "F"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@bf16_ops blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%A : memref<4xbf16>, %I : memref<4xi32>, %C : memref<4xbf16>, %F : memref<4xf32>)
    return
  }
  gpu.module @k {
    gpu.func @bf16_ops(%a: memref<4xbf16>, %i: memref<4xi32>, %c: memref<4xbf16>, %f: memref<4xf32>) kernel
        attributes {tilec.fingerprint = "0b9cc4c9415f3923"} {
      %t = gpu.thread_id x
      %k = arith.constant 1.5 : bf16
      %0 = memref.load %a[%t] : memref<4xbf16>
      %1 = arith.mulf %0, %0 : bf16
      %2 = arith.addf %1, %k : bf16
      %3 = arith.negf %2 : bf16
      %4 = math.exp %3 : bf16
      %5 = arith.extf %4 : bf16 to f32
      %6 = arith.cmpf olt, %4, %0 : bf16
      %7 = memref.load %i[%t] : memref<4xi32>
      %8 = arith.sitofp %7 : i32 to bf16
      %9 = arith.select %6, %8, %4 : bf16
      %10 = arith.truncf %5 : f32 to bf16
      %11 = arith.bitcast %10 : bf16 to i16
      %12 = arith.bitcast %11 : i16 to bf16
      %13 = arith.maximumf %9, %12 : bf16
      memref.store %13, %c[%t] : memref<4xbf16>
      memref.store %5, %f[%t] : memref<4xf32>
      gpu.return
    }
  }
}
