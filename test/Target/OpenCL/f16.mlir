// f16 needs no cl_khr_fp16: it is stored and carried as ushort bits, and
// every operation computes in float and rounds to nearest even (subnormals,
// infinity and NaN included), through helpers emitted once.
// RUN: tilec-translate --tilec-to-opencl %s | FileCheck %s

// CHECK-NOT:  cl_khr_fp16
// CHECK-NOT:  half
// CHECK:      float tilec_f16_to_float(ushort h) {
// CHECK:        if (exponent == 0x1Fu) /* infinity or NaN */
// CHECK:          float m = (float)fraction * 0x1p-24f;
// CHECK:        return as_float(sign | ((exponent + 112u) << 23) | (fraction << 13));
// CHECK:      ushort tilec_float_to_f16(float f) {
// CHECK:          return (ushort)(sign | 0x7E00u);
// CHECK:        if (a >= 65520.0f)
// CHECK:          return (ushort)(sign | (uint)rint(a * 0x1p24f));
// CHECK:        bits += 0xFFFu + ((bits >> 13) & 1u);
// CHECK:      ushort tilec_long_to_f16(long x) {
// CHECK:      ushort tilec_double_to_f16(double d) {
// CHECK-NOT:  ushort tilec_float_to_f16(float f) {
// CHECK-LABEL: void half_exp(__global const ushort *restrict in_X,
// CHECK-NEXT:     __global const int *restrict in_I,
// CHECK-NEXT:     __global const double *restrict in_D,
// CHECK-NEXT:     __global ushort *restrict out_Y) {
// CHECK:      ushort v0 = in_X[tid_x];
// CHECK-NEXT: float v1 = tilec_f16_to_float(v0);
// CHECK-NEXT: float v2 = exp(v1);
// CHECK-NEXT: ushort v3 = tilec_float_to_f16((float)v2);
// CHECK-NEXT: ushort v4 = tilec_float_to_f16(tilec_f16_to_float(v3) / tilec_f16_to_float(v0));
// CHECK-NEXT: ushort v5 = tilec_float_to_f16(tilec_f16_to_float(v4) + tilec_f16_to_float((ushort)0x3E00 /* 1.5 */));
// CHECK-NEXT: ushort v6 = tilec_float_to_f16(fmax(tilec_f16_to_float(v5), tilec_f16_to_float(v0)));
// CHECK-NEXT: ushort v7 = (ushort)(v6 ^ 0x8000);
// CHECK-NEXT: int v8 = in_I[tid_x];
// CHECK-NEXT: ushort v9 = tilec_long_to_f16((long)v8);
// CHECK-NEXT: double v10 = in_D[tid_x];
// CHECK-NEXT: ushort v11 = tilec_double_to_f16(v10);
// CHECK-NEXT: double v12 = (double)tilec_f16_to_float(v11);
// CHECK-NEXT: float v13 = tilec_f16_to_float(v9);
// CHECK-NEXT: bool v14 = tilec_f16_to_float(v7) < tilec_f16_to_float(v9);
// CHECK-NEXT: ushort v15 = v14 ? v7 : v9;
// CHECK-NEXT: out_Y[tid_x] = v15;

module attributes {gpu.container_module} {
  func.func @main(%X: memref<4xf16>, %I: memref<4xi32>, %D: memref<4xf64>, %Y: memref<4xf16>)
      attributes {tilec.entry, tilec.input_names = ["X", "I", "D"], tilec.output_names = ["Y"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@half_exp blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%X : memref<4xf16>, %I : memref<4xi32>, %D : memref<4xf64>, %Y : memref<4xf16>)
    return
  }
  gpu.module @k {
    gpu.func @half_exp(%x: memref<4xf16>, %i: memref<4xi32>, %d: memref<4xf64>, %y: memref<4xf16>) kernel
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
      %7 = arith.negf %6 : f16
      %8 = memref.load %i[%t] : memref<4xi32>
      %9 = arith.sitofp %8 : i32 to f16
      %10 = memref.load %d[%t] : memref<4xf64>
      %11 = arith.truncf %10 : f64 to f16
      %12 = arith.extf %11 : f16 to f64
      %13 = arith.extf %9 : f16 to f32
      %14 = arith.cmpf olt, %7, %9 : f16
      %15 = arith.select %14, %7, %9 : f16
      memref.store %15, %y[%t] : memref<4xf16>
      gpu.return
    }
  }
}
