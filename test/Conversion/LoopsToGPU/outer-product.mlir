// RUN: tilec-opt %s -split-input-file -tilec-gpu-map-kernels -canonicalize -cse | FileCheck %s

// The outer-product tiling of a 64x32x64 matmul: 32x32 blocks of 8x8
// work-items, each with 4x4 results in registers (four vector<4xf32>
// accumulators, rows broadcast from A's fragment, B's fragment a vector),
// 8x16 subgroup tiles (lanes 2x4), chunks of 8 staged in two buffers of
// vector tiles. A is read along its rows (gathered into vectors, stored
// transposed), B along its columns (one aligned vector load). The first
// chunk is staged before the loop; the loop loads chunk c + 1 into
// registers, computes chunk c from buffer c % 2, stores the next chunk into
// the other buffer and waits at one barrier; the last chunk follows it.
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: workgroup(%[[TA:.+]] : memref<2x8x8xvector<4xf32>, #gpu.address_space<workgroup>>, %[[TB:.+]] : memref<2x8x8xvector<4xf32>, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 8, 8, 1>, known_grid_size = array<i32: 2, 2, 1>
// CHECK: vector.from_elements {{.+}} : vector<4xf32>
// CHECK: vector.load %arg1{{.+}} {alignment = 16 : i64} : memref<32x64xf32>, vector<4xf32>
// CHECK: memref.store %{{.+}}, %[[TA]][%c0
// CHECK: memref.store %{{.+}}, %[[TB]][%c0
// CHECK: gpu.barrier
// CHECK: %[[LOOP:.+]]:4 = scf.for %{{.+}} = %c0 to %c24 step %c8 iter_args(%[[ACC0:.+]] = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-NOT: gpu.barrier
// CHECK: vector.load %arg1
// CHECK-NOT: gpu.barrier
// CHECK: %[[FRAG_A:.+]] = memref.load %[[TA]][%[[CUR:[0-9]+]], %c0, %{{.+}}]
// CHECK: %[[FRAG_B:.+]] = memref.load %[[TB]][%[[CUR]], %c0, %{{.+}}]
// CHECK: %[[ROW:.+]] = vector.extract %[[FRAG_A]][0]
// CHECK: %[[BCAST:.+]] = vector.broadcast %[[ROW]]
// CHECK: vector.fma %[[BCAST]], %[[FRAG_B]], %[[ACC0]] : vector<4xf32>
// CHECK-COUNT-31: vector.fma
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %{{.+}}, %[[TA]][%[[NEXT:[0-9]+]], %
// CHECK: memref.store %{{.+}}, %[[TB]][%[[NEXT]], %
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK: memref.load %[[TA]][%c1, %c0,
// CHECK-COUNT-32: vector.fma
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-16: memref.store %{{.+}}, %arg2
// CHECK-NOT: memref.store
// CHECK: gpu.return
func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 32 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<64x32xf32>
        %y = affine.load %b[%k, %j] : memref<32x64xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<64x64xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 8], thread = [4, 4], vector = 4, warp = [8, 16], buffers = 2>}
  return
}

// -----

// Sizes the tiling does not divide: 30 rows (the last block's rows past
// them are clamped when loaded and their cells not stored), 42 columns
// (not a multiple of the vector: B is gathered too, each element
// clamped) and 12 reduction iterations in chunks of 8 (one full chunk,
// then a partial one of 4 whose loads repeat its last iteration and whose
// compute takes 4 steps). One buffer: a barrier after the copy and one
// after the compute, per chunk. A max-plus product is no fma: the
// aggregation's maximumf widened (the first step's, with -inf, folds).
// CHECK-LABEL: gpu.func @mp(
// CHECK-SAME: workgroup(%[[TA:.+]] : memref<1x8x8xvector<4xf32>, #gpu.address_space<workgroup>>, %[[TB:.+]] : memref<1x8x8xvector<4xf32>, #gpu.address_space<workgroup>>)
// CHECK-NOT: vector.load
// CHECK: arith.minui %{{.+}}, %c29
// CHECK: arith.minui %{{.+}}, %c41
// CHECK: gpu.barrier
// CHECK-COUNT-28: arith.maximumf %{{.+}} : vector<4xf32>
// CHECK: gpu.barrier
// CHECK: arith.minui %{{.+}}, %c3
// CHECK: gpu.barrier
// CHECK-COUNT-16: arith.maximumf %{{.+}} : vector<4xf32>
// CHECK-NOT: arith.maximumf
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult, %{{.+}}, %c30
// CHECK: arith.cmpi ult, %{{.+}}, %c42
// CHECK: scf.if
// CHECK-NOT: vector.fma
// CHECK: gpu.return
func.func @maxplus(%a: memref<30x12xf32>, %b: memref<12x42xf32>, %c: memref<30x42xf32>) {
  affine.for %i = 0 to 30 {
    affine.for %j = 0 to 42 {
      %init = arith.constant 0xFF800000 : f32
      %s = affine.for %k = 0 to 12 iter_args(%acc = %init) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<30x12xf32>
        %y = affine.load %b[%k, %j] : memref<12x42xf32>
        %p = arith.addf %x, %y : f32
        %n = arith.maximumf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<30x42xf32>
    }
  } {tilec.kernel = "mp", tilec.schedule = #tilec.schedule<block = [32, 32, 8], thread = [4, 4], vector = 4, warp = [8, 16]>}
  return
}
