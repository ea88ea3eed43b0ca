// RUN: tilec-opt %s -tilec-gpu-map-kernels | FileCheck %s

// A staged reduction honours the schedule's unroll, as an unstaged one does:
// a 4x20 by 20x8 matmul staged in reduction blocks of 8 runs two full blocks
// and a last block of 4, and unroll = 2 unrolls the loop of each block by 2.
// Every trip count is constant, so no epilogue loop is left that could run
// zero times (MLIR's SPIR-V lowering returns undefined values from such a
// loop with iter_args).
// CHECK-LABEL: gpu.func @matmul
// CHECK-SAME: workgroup(%[[TA:.+]] : memref<4x8xf32, #gpu.address_space<workgroup>>, %[[TB:.+]] : memref<8x4xf32, #gpu.address_space<workgroup>>)
// CHECK: gpu.barrier
// CHECK: %[[EIGHT:.+]] = arith.constant 8 : index
// CHECK: %[[TWO:.+]] = arith.constant 2 : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[EIGHT]] step %[[TWO]] iter_args
// CHECK-COUNT-2: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: gpu.barrier
// The last block of 4: the copies, then 2 iterations of 2.
// CHECK: memref.store %{{.+}}, %[[TA]]
// CHECK: memref.store %{{.+}}, %[[TB]]
// CHECK: gpu.barrier
// CHECK: %[[FOUR:.+]] = arith.constant 4 : index
// CHECK: %[[STEP:.+]] = arith.constant 2 : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[FOUR]] step %[[STEP]] iter_args
// CHECK-COUNT-2: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: gpu.barrier
// CHECK: memref.store %{{.+}}, %arg2
func.func @matmul(%a: memref<4x20xf32>, %b: memref<20x8xf32>, %c: memref<4x8xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %zero = arith.constant 0.0 : f32
      %sum = affine.for %k = 0 to 20 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<4x20xf32>
        %y = affine.load %b[%k, %j] : memref<20x8xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %c[%i, %j] : memref<4x8xf32>
    }
  } {tilec.kernel = "matmul",
     tilec.schedule = #tilec.schedule<block = [4, 4, 8], thread = [1, 1],
                                      unroll = 2, stage = [true, true]>}
  return
}
