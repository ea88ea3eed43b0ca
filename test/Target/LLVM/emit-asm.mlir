// Assembly for the host and for a named CPU; an unknown CPU is an error.
// RUN: tilec-cpu %S/Inputs/matmul-loops.mlir --emit=asm -o - | FileCheck %s
// RUN: tilec-cpu %S/Inputs/matmul-loops.mlir --emit=asm --cpu=skylake-avx512 \
// RUN:   --symbol=mm -o - | FileCheck %s --check-prefix=NAMED
// RUN: not tilec-cpu %S/Inputs/matmul-loops.mlir --emit=asm --cpu=nosuchcpu \
// RUN:   -o - 2>&1 | FileCheck %s --check-prefix=BAD

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
