// Code compiled ahead of time can keep the panels it packs from an input
// (tilec-cpu-keep-packed-inputs): the header declares the flags, one byte
// per input, 1 at load (pack into the call's own memory); 2 packs into the
// kept panels, 0 reuses them.
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: tilec-translate --tilec-to-object --symbol=model %S/Inputs/kept-panels.mlir -o %t/model.o
// RUN: tilec-translate --tilec-to-c-header --symbol=model %S/Inputs/kept-panels.mlir -o %t/model.h
// RUN: FileCheck %s --check-prefix=HEADER --input-file=%t/model.h
// RUN: %cc -I%t %S/Inputs/kept-panels.c %t/model.o -L%llvm_lib_dir -lomp -lm \
// RUN:   -Wl,-rpath,%llvm_lib_dir -o %t/kept
// RUN: %t/kept | FileCheck %s

// HEADER: void model(
// HEADER: extern uint8_t model_changed_inputs[2];

// CHECK: flags at load: 1 1
// CHECK-NEXT: 1: this B
// CHECK-NEXT: 2: this B
// CHECK-NEXT: 0 after a change: the first B
// CHECK-NEXT: 1: this B
// CHECK-NEXT: 0: the first B
