// examples/embed/main.c links an object and header written by the CPU back
// end from the loop level, and prints the product it checks itself.
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: tilec-translate --tilec-to-object --symbol=model %S/Inputs/embed-matmul.mlir -o %t/model.o
// RUN: tilec-translate --tilec-to-c-header --symbol=model %S/Inputs/embed-matmul.mlir -o %t/model.h
// RUN: %cc -I%t %examples/embed/main.c %t/model.o -L%llvm_lib_dir -lomp -lm \
// RUN:   -Wl,-rpath,%llvm_lib_dir -o %t/embed
// RUN: %t/embed | FileCheck %s

// CHECK: C: 2.5 -0.5 0.5 -2.5 2.5
// CHECK: C: -6 -4 2 8 -6
// CHECK: C: -7.5 -0.5 10.5 -2.5 -7.5
// CHECK: C: -2 10 -2 -6 -2
// CHECK: ok
