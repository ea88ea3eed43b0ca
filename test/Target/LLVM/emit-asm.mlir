// Assembly for the host and for a named CPU; an unknown CPU is an error.
// RUN: tilec-translate --tilec-to-asm %S/Inputs/matmul-loops.mlir | FileCheck %s
// RUN: tilec-translate --tilec-to-asm --cpu=skylake-avx512 --symbol=mm \
// RUN:   %S/Inputs/matmul-loops.mlir | FileCheck %s --check-prefix=NAMED
// RUN: not tilec-translate --tilec-to-asm --cpu=nosuchcpu \
// RUN:   %S/Inputs/matmul-loops.mlir 2>&1 | FileCheck %s --check-prefix=BAD

// The kernel is a function of its own (tilec-cpu-outline-kernels), local to the
// object: only the entry is global. At 2x2 it is one register tile, with no
// loop left to run on threads.
// CHECK: .globl main
// CHECK: main:
// CHECK: {{call|jmp}}{{.*}}tilec_kernel_C
// CHECK-NOT: .globl
// CHECK: tilec_kernel_C:

// NAMED: .globl mm
// NAMED: mm:

// BAD: error: unknown CPU 'nosuchcpu'
