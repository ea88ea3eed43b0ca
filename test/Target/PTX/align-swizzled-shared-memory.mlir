// RUN: tilec-opt %s '--pass-pipeline=builtin.module(gpu.module(tilec-ptx-align-swizzled-shared-memory))' -split-input-file | FileCheck %s

// A module whose kernel reads its tiles with wgmma: every shared-memory
// global starts at a multiple of 1024 bytes (the 128-byte swizzle's
// period), the dynamic shared memory included; a global elsewhere keeps its
// alignment.
// CHECK-LABEL: gpu.module @wgmma
// CHECK: llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16384 x i8>
// CHECK: llvm.mlir.global internal constant @table(dense<1.000000e+00> : tensor<4xf32>) {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<4 x f32>
gpu.module @wgmma {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16384 x i8>
  llvm.mlir.global internal constant @table(dense<1.0> : tensor<4xf32>) {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<4 x f32>
  llvm.func @k(%a: i64, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>) attributes {nvvm.kernel} {
    %d = nvvm.wgmma.mma_async %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    llvm.return
  }
}

// -----

// Without wgmma the alignments stay as they are.
// CHECK-LABEL: gpu.module @mma
// CHECK: llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
gpu.module @mma {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @k() attributes {nvvm.kernel} {
    llvm.return
  }
}
