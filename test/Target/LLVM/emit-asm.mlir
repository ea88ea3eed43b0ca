// Assembly for the host and for a named CPU; an unknown CPU is an error.
// RUN: tilec-cpu %S/Inputs/matmul-loops.mlir --emit=asm -o - | FileCheck %s
// RUN: tilec-cpu %S/Inputs/matmul-loops.mlir --emit=asm --cpu=skylake-avx512 \
// RUN:   --symbol=mm -o - | FileCheck %s --check-prefix=NAMED
// RUN: not tilec-cpu %S/Inputs/matmul-loops.mlir --emit=asm --cpu=nosuchcpu \
// RUN:   -o - 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: .globl main
// CHECK: main:
// CHECK: __kmpc_fork_call

// NAMED: .globl mm
// NAMED: mm:

// BAD: error: unknown CPU 'nosuchcpu'
