// i1 min/max are logical: as an unsigned i1 true is 1 (min is and, max or),
// as a signed one true is -1 (min is or, max and). Division, remainder and
// right shift of i1 have one defined case each (x / 1, x % 1, x >> 0); the
// undefined rest gives x instead of failing.
// RUN: tilec-translate --tilec-to-opencl %s | FileCheck %s

// CHECK-LABEL: void bools(__global const uchar *restrict in_A,
// CHECK-NEXT:     __global const uchar *restrict in_B,
// CHECK-NEXT:     __global uchar *restrict out_C) {
// CHECK:      bool v0 = in_A[tid_x] != 0;
// CHECK-NEXT: bool v1 = in_B[tid_x] != 0;
// CHECK-NEXT: bool v2 = v0 && v1;
// CHECK-NEXT: bool v3 = v0 || v1;
// CHECK-NEXT: bool v4 = v2 || v3;
// CHECK-NEXT: bool v5 = v4 && v1;
// CHECK-NEXT: bool v6 = v5;
// CHECK-NEXT: bool v7 = v6 && !v1;
// CHECK-NEXT: bool v8 = v7;
// CHECK-NEXT: bool v9 = v8 && !v0;
// CHECK-NEXT: bool v10 = v9;
// CHECK-NEXT: bool v11 = v10;
// CHECK-NEXT: out_C[tid_x] = (uchar)v11;

module attributes {gpu.container_module} {
  func.func @main(%A: memref<4xi1>, %B: memref<4xi1>, %C: memref<4xi1>)
      attributes {tilec.entry, tilec.input_names = ["A", "B"], tilec.output_names = ["C"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@bools blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%A : memref<4xi1>, %B : memref<4xi1>, %C : memref<4xi1>)
    return
  }
  gpu.module @k {
    gpu.func @bools(%a: memref<4xi1>, %b: memref<4xi1>, %c: memref<4xi1>) kernel
        attributes {tilec.fingerprint = "0123456789abcdef"} {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<4xi1>
      %y = memref.load %b[%t] : memref<4xi1>
      %0 = arith.minui %x, %y : i1
      %1 = arith.maxui %x, %y : i1
      %2 = arith.minsi %0, %1 : i1
      %3 = arith.maxsi %2, %y : i1
      %4 = arith.divui %3, %y : i1
      %5 = arith.remui %4, %y : i1
      %6 = arith.divsi %5, %x : i1
      %7 = arith.remsi %6, %x : i1
      %8 = arith.shrui %7, %y : i1
      %9 = arith.shrsi %8, %y : i1
      memref.store %9, %c[%t] : memref<4xi1>
      gpu.return
    }
  }
}
