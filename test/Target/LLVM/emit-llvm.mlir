// The LLVM IR of a loop-level module: the entry takes bare noalias pointers
// (the C ABI of model.h), the outer parallel loop forks OpenMP threads, and
// --no-parallel keeps it serial. The kernel is vectorised by its default
// CPU schedule (the loop vectoriser is off: lib/Target/LLVM/Translate.cpp
// says why), with a multiply LLVM may fuse and exp computed on whole
// vectors (tilec-cpu-inline-vector-math: no call, fma and roundeven).
// RUN: tilec-translate --tilec-to-llvmir -O2 %s | FileCheck %s
// RUN: tilec-translate --tilec-to-llvmir -O3 --no-parallel --cpu=x86-64-v3 %s \
// RUN:   | FileCheck %s --check-prefix=SERIAL
// RUN: tilec-translate --tilec-to-llvmir -O0 %s | FileCheck %s --check-prefix=O0

// CHECK-LABEL: define void @main(ptr noalias {{.*}}, ptr noalias
// CHECK: call {{.*}} @__kmpc_fork_call
// CHECK: define internal void @main..omp_par

// SERIAL-LABEL: define void @main(
// SERIAL-NOT: __kmpc
// SERIAL: fmul contract <{{[0-9]+}} x float>
// SERIAL-NOT: @llvm.exp
// SERIAL: @llvm.roundeven.v{{[0-9]+}}f32
// SERIAL: @llvm.fma.v{{[0-9]+}}f32
// SERIAL-NOT: @llvm.exp

// -O0 runs no LLVM optimisation: no attributes inferred on the arguments
// (-O2 adds readonly, writeonly and captures(none)).
// O0: define void @main(ptr noalias %0, ptr noalias %1) {
func.func @main(%X: memref<64x256xf32>, %Y: memref<64x256xf32>)
    attributes {tilec.entry} {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 256 {
      %x = affine.load %X[%i, %j] : memref<64x256xf32>
      %two = arith.constant 2.0 : f32
      %m = arith.mulf %x, %two : f32
      %e = math.exp %m : f32
      affine.store %e, %Y[%i, %j] : memref<64x256xf32>
    }
  }
  return
}
