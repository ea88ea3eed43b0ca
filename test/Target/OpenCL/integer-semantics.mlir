// Signless integers: wrapping arithmetic through the unsigned type, the
// signedness an op needs as a cast, MLIR's division flavours, i1, and every
// integer cast.
// RUN: tilec-translate --tilec-to-opencl %s | FileCheck %s

// CHECK: int tilec_floordiv_int(int a, int b) {
// CHECK: uint tilec_ceildiv_uint(uint a, uint b) {
// CHECK-LABEL: void ints(__global const int *restrict in_I,
// CHECK-NEXT:     __global const short *restrict in_S,
// CHECK-NEXT:     __global long *restrict out_L,
// CHECK-NEXT:     __global uchar *restrict out_B) {
// CHECK:      int v0 = in_I[tid_x];
// CHECK-NEXT: short v1 = in_S[tid_x];
// CHECK-NEXT: int v2 = (int)((uint)v0 + (uint)v0);
// CHECK-NEXT: int v3 = (int)((uint)v2 * (uint)(-7));
// CHECK-NEXT: short v4 = (short)((uint)v1 - (uint)v1);
// CHECK-NEXT: int v5 = v3 / v0;
// CHECK-NEXT: int v6 = (int)((uint)v3 % (uint)v0);
// CHECK-NEXT: int v7 = tilec_floordiv_int(v5, v6);
// CHECK-NEXT: int v8 = (int)(tilec_ceildiv_uint((uint)v7, (uint)v0));
// CHECK-NEXT: int v9 = (int)((uint)v8 >> (uint)v0);
// CHECK-NEXT: int v10 = v8 >> v0;
// CHECK-NEXT: int v11 = (int)((uint)v8 << (uint)v0);
// CHECK-NEXT: int v12 = max(v9, v10);
// CHECK-NEXT: int v13 = (int)(min((uint)v11, (uint)v12));
// CHECK-NEXT: bool v14 = (uint)v12 < (uint)v13;
// CHECK-NEXT: bool v15 = v12 <= v13;
// CHECK-NEXT: bool v16 = v14 ^ v15;
// CHECK-NEXT: long v17 = (long)v13;
// CHECK-NEXT: long v18 = (long)(uint)v13;
// CHECK-NEXT: long v19 = (long)(ushort)v1;
// CHECK-NEXT: char v20 = (char)v17;
// CHECK-NEXT: bool v21 = (v20 & 1) != 0;
// CHECK-NEXT: int v22 = -(int)v21;
// CHECK-NEXT: float v23 = (float)(uint)v22;
// CHECK-NEXT: int v24 = (int)v23;
// CHECK-NEXT: int v25 = v16 ? v24 : (-2147483647 - 1);
// CHECK-NEXT: long v26 = (long)((ulong)v18 + (ulong)v19);
// CHECK-NEXT: long v27 = (long)((ulong)v26 + (ulong)v17);
// CHECK-NEXT: long v28 = (long)v25;
// CHECK-NEXT: long v29 = (long)v28;
// CHECK-NEXT: long v30 = (long)((ulong)v27 * (ulong)v29);
// CHECK-NEXT: out_L[tid_x] = v30;
// CHECK-NEXT: out_B[tid_x] = (uchar)v16;

module attributes {gpu.container_module} {
  func.func @main(%I: memref<8xi32>, %S: memref<8xi16>, %L: memref<8xi64>, %B: memref<8xi1>)
      attributes {tilec.entry, tilec.input_names = ["I", "S"], tilec.output_names = ["L", "B"]} {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @k::@ints blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%I : memref<8xi32>, %S : memref<8xi16>, %L : memref<8xi64>, %B : memref<8xi1>)
    return
  }
  gpu.module @k {
    gpu.func @ints(%i: memref<8xi32>, %s: memref<8xi16>, %l: memref<8xi64>, %b: memref<8xi1>) kernel
        attributes {tilec.fingerprint = "0123456789abcdef"} {
      %t = gpu.thread_id x
      %m7 = arith.constant -7 : i32
      %min = arith.constant -2147483648 : i32
      %x = memref.load %i[%t] : memref<8xi32>
      %y = memref.load %s[%t] : memref<8xi16>
      %0 = arith.addi %x, %x : i32
      %1 = arith.muli %0, %m7 : i32
      %2 = arith.subi %y, %y : i16
      %3 = arith.divsi %1, %x : i32
      %4 = arith.remui %1, %x : i32
      %5 = arith.floordivsi %3, %4 : i32
      %6 = arith.ceildivui %5, %x : i32
      %7 = arith.shrui %6, %x : i32
      %8 = arith.shrsi %6, %x : i32
      %9 = arith.shli %6, %x : i32
      %10 = arith.maxsi %7, %8 : i32
      %11 = arith.minui %9, %10 : i32
      %12 = arith.cmpi ult, %10, %11 : i32
      %13 = arith.cmpi sle, %10, %11 : i32
      %14 = arith.addi %12, %13 : i1
      %15 = arith.extsi %11 : i32 to i64
      %16 = arith.extui %11 : i32 to i64
      %17 = arith.extui %y : i16 to i64
      %18 = arith.trunci %15 : i64 to i8
      %19 = arith.trunci %18 : i8 to i1
      %20 = arith.extsi %19 : i1 to i32
      %21 = arith.uitofp %20 : i32 to f32
      %22 = arith.fptosi %21 : f32 to i32
      %23 = arith.select %14, %22, %min : i32
      %24 = arith.addi %16, %17 : i64
      %25 = arith.addi %24, %15 : i64
      %26 = arith.index_cast %23 : i32 to index
      %27 = arith.index_cast %26 : index to i64
      %28 = arith.muli %25, %27 : i64
      memref.store %28, %l[%t] : memref<8xi64>
      memref.store %14, %b[%t] : memref<8xi1>
      gpu.return
    }
  }
}
