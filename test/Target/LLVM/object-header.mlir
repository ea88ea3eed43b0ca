// An ELF object whose global symbol is the entry's C name, and the header
// declaring it with inputs then outputs as plain pointers. (The name's rule
// for `tilec -o FILE`, the file's stem, is cSymbolForOutput's; JITTest.cpp
// tests it.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: tilec-translate --tilec-to-object --symbol=model %S/Inputs/matmul-loops.mlir -o %t/model.o
// RUN: llvm-nm %t/model.o | FileCheck %s --check-prefix=SYM
// RUN: tilec-translate --tilec-to-c-header --symbol=model %S/Inputs/matmul-loops.mlir \
// RUN:   | FileCheck %s
// Without --symbol, both use the name `tilec -o -` gives its object.
// RUN: tilec-translate --tilec-to-object %S/Inputs/matmul-loops.mlir -o %t/default.o
// RUN: llvm-nm %t/default.o | FileCheck %s --check-prefix=DEFAULT
// RUN: tilec-translate --tilec-to-c-header %S/Inputs/matmul-loops.mlir \
// RUN:   | FileCheck %s --check-prefix=DEFAULT

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

// DEFAULT: tile_model{{$|\(}}
