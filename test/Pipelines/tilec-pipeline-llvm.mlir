// tilec-pipeline-llvm takes the loop level to the LLVM dialect: bare
// pointers for memrefs, the outer parallel loop of a nest large enough to pay
// for threads as an OpenMP loop (or plain
// loops with parallel=false), exp of f32 as arithmetic (fma), the other
// math as intrinsics or libm calls.
// RUN: tilec-opt %s --tilec-pipeline-llvm | FileCheck %s
// RUN: tilec-opt %s '--tilec-pipeline-llvm=parallel=false' \
// RUN:   | FileCheck %s --check-prefix=SERIAL

// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: !llvm.ptr {llvm.noalias}
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK-NOT: llvm.intr.exp
// CHECK: llvm.intr.fma
// CHECK-NOT: llvm.intr.exp
// CHECK: llvm.call @atanhf

// SERIAL-LABEL: llvm.func @f(
// SERIAL-NOT: omp.
// SERIAL: llvm.intr.fma
func.func @f(%X: memref<64x1024xf32> {llvm.noalias}, %Y: memref<64x1024xf32> {llvm.noalias}) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 1024 {
      %x = affine.load %X[%i, %j] : memref<64x1024xf32>
      %e = math.exp %x : f32
      %t = math.atanh %e : f32
      affine.store %t, %Y[%i, %j] : memref<64x1024xf32>
    }
  }
  return
}
