// RUN: tilec-opt %s -tilec-gpu-map-kernels | FileCheck %s

// stage = [true, true] on a 6x10x8 matmul with 4x4 work-group tiles (y has
// 2 elements per work-item) and reduction blocks of 3: per block each
// operand's tile (A: 4 rows x 3, B: 3 x 4 columns) is copied into a
// workgroup buffer by all 8 work-items together, with zeros past the
// operand's edge, between two barriers; the reduction reads the tiles.
// The tiles do not divide 6 and 10, so the positions are clamped for the
// reduction and only the store is guarded: every work-item reaches every
// barrier. The two full blocks run in a loop and the last 2 iterations
// after it, so every loop has a constant trip count.
// CHECK-LABEL: gpu.func @matmul
// CHECK-SAME: workgroup(%[[TA:.+]] : memref<4x3xf32, #gpu.address_space<workgroup>>, %[[TB:.+]] : memref<3x4xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 4, 2, 1>, known_grid_size = array<i32: 3, 2, 1>
// CHECK: arith.cmpi ult
// CHECK: arith.minui
// CHECK: arith.cmpi ult
// CHECK: %[[IN:.+]] = arith.andi
// CHECK: %[[CLAMPED:.+]] = arith.minui
// CHECK: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[FULL:.+]] = scf.for %[[BLOCK:.+]] = %{{.+}} to %[[C2]] step %{{.+}} iter_args
// CHECK: scf.for
// CHECK: scf.if %{{.+}} -> (f32)
// CHECK: memref.load %arg0
// CHECK: memref.store %{{.+}}, %[[TA]]
// CHECK: scf.for
// CHECK: memref.load %arg1
// CHECK: memref.store %{{.+}}, %[[TB]]
// CHECK: gpu.barrier
// CHECK: %[[C3:.+]] = arith.constant 3 : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[C3]] step %{{.+}} iter_args
// CHECK: memref.load %[[TA]]
// CHECK: memref.load %[[TB]]
// CHECK: arith.mulf
// CHECK: gpu.barrier
// The last partial block: the same copies, then 2 iterations.
// CHECK: memref.store %{{.+}}, %[[TA]]
// CHECK: memref.store %{{.+}}, %[[TB]]
// CHECK: gpu.barrier
// CHECK: %[[TWO:.+]] = arith.constant 2 : index
// CHECK: %[[SUM:.+]] = scf.for %{{.+}} = %{{.+}} to %[[TWO]] step %{{.+}} iter_args(%{{.+}} = %[[FULL]])
// CHECK: arith.mulf
// CHECK: gpu.barrier
// CHECK: scf.if %[[IN]] {
// CHECK-NEXT: memref.store %[[SUM]], %arg2[%{{.+}}, %[[CLAMPED]]]
func.func @matmul(%a: memref<6x8xf32>, %b: memref<8x10xf32>, %c: memref<6x10xf32>) {
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 10 {
      %zero = arith.constant 0.0 : f32
      %sum = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<6x8xf32>
        %y = affine.load %b[%k, %j] : memref<8x10xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %c[%i, %j] : memref<6x10xf32>
    }
  } {tilec.kernel = "matmul",
     tilec.schedule = #tilec.schedule<block = [4, 4, 3], thread = [2, 1],
                                      stage = [true, true]>}
  return
}
