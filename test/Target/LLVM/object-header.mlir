// -o model.o: an ELF object whose symbol is the file's stem, and model.h
// declaring it with inputs then outputs as plain pointers.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tilec-cpu %S/Inputs/matmul-loops.mlir --emit=obj -o %t/model.o
// RUN: llvm-nm %t/model.o | FileCheck %s --check-prefix=SYM
// RUN: tilec-cpu %S/Inputs/matmul-loops.mlir --emit=header -o %t/model.h
// RUN: FileCheck %s --input-file=%t/model.h
// RUN: tilec-cpu %S/Inputs/matmul-loops.mlir --emit=header -o %t/main.h
// RUN: FileCheck %s --input-file=%t/main.h --check-prefix=MAIN

// SYM-DAG: T model{{$}}
// SYM-DAG: t tilec_kernel_C{{$}}

// CHECK: #ifndef TILEC_MODEL_H
// CHECK-NEXT: #define TILEC_MODEL_H
// CHECK: #include <stdint.h>
// CHECK: void model(
// CHECK-NEXT: /* input A: f32[2, 3] */
// CHECK-NEXT: const float *A,
// CHECK-NEXT: /* input B: f32[3, 2] */
// CHECK-NEXT: const float *B,
// CHECK-NEXT: /* output C: f32[2, 2] */
// CHECK-NEXT: float *C);
// CHECK: #endif /* TILEC_MODEL_H */

// `main` cannot be a C function's name: the symbol gets a prefix.
// MAIN: void tile_main(
