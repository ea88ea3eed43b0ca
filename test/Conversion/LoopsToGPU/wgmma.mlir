// RUN: tilec-opt %s '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<compute_capability=90,local_mem_bytes=49152,shared_mem_opt_in_bytes=232448>' -tilec-gpu-map-kernels -canonicalize -cse | FileCheck %s

// Hopper's warpgroup MMA (mma = 2) on a bf16 matmul of 128x328 by 328x64:
// one block of 128x64, two warpgroups of 64x64 (one m64n64k16 each per k
// step), chunks of 64 in four cp.async buffers of swizzled 128-byte rows:
// A, read along k, [4][128][64]; B, read along n, [4][64 / 64 * 64][64].
// The reduction is 328: six chunks, the last of 8 steps. Chunks 0 and 1
// are copied ahead; each step waits for its chunk's copies, fences them for
// wgmma's async proxy, meets the barrier, then copies the chunk two ahead
// and issues its wgmmas, leaving one group running; the cells wait for all.
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: workgroup(%[[TA:.+]] : memref<4x128x64xbf16, #gpu.address_space<workgroup>>, %[[TB:.+]] : memref<4x64x64xbf16, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 4, 64, 1>, known_grid_size = array<i32: 1, 1, 1>
// The 128-byte swizzle: piece p of row r at p ^ (r % 8).
// CHECK: %[[PIECE:.+]] = arith.xori
// CHECK-NEXT: %[[AT:.+]] = arith.muli %[[PIECE]], %c8 : index
// CHECK-NEXT: nvgpu.device_async_copy %arg0[{{.+}}], %[[TA]][%c0, %{{.+}}, %[[AT]]], 8 {bypassL1}
// CHECK: nvgpu.device_async_copy %arg1[{{.+}}], %[[TB]][%c0, {{.+}}], 8 {bypassL1}
// CHECK: nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_copy %arg0[{{.+}}], %[[TA]][%c1, {{.+}}], 8 {bypassL1}
// CHECK: nvgpu.device_async_create_group
// Steps 0-2 in a loop: chunk c waited for (c + 1 still in flight), chunk
// c + 2 copied into the buffer that step c - 2 read.
// CHECK: scf.for
// CHECK-NEXT: arith.divui
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy %arg0[{{.+}}], %[[TA]][{{.+}}], 8 {bypassL1}
// CHECK: nvgpu.device_async_create_group
// The descriptors: the tile's address / 16, then the leading offset (B:
// 64 rows of 128 bytes, 512 units; A: unused, 1), the stride offset (1024
// bytes, 64 units) and the 128-byte swizzle (bit 62).
// CHECK: memref.extract_aligned_pointer_as_index %[[TA]]
// CHECK: %[[ADESC:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[TB]]
// CHECK: %[[BDESC:.+]] = arith.ori %{{.+}}, %c4611686293338849280_i64 : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[ACC:.+]] = nvvm.wgmma.mma_async %[[ADESC]], %[[BDESC]], %{{.+}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !llvm.struct<(f32, f32,
// A k step: A's descriptor 32 bytes on (2 units), B's 16 rows (128).
// CHECK-NEXT: %[[B1:.+]] = arith.addi %[[BDESC]], %c128_i64 : i64
// CHECK-NEXT: %[[A1:.+]] = arith.addi %[[ADESC]], %c2_i64 : i64
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A1]], %[[B1]], %[[ACC]]
// CHECK-COUNT-2: nvvm.wgmma.mma_async
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: scf.yield
// Step 3 copies the last chunk, zero-filled past k = 328.
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: gpu.barrier
// CHECK: nvgpu.device_async_copy %arg0[{{.+}}], %[[TA]][%c1, {{.+}}], 8, %{{.+}} {bypassL1}
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// Step 4 copies nothing.
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NOT: nvgpu.device_async_copy
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// Step 5, the last chunk: everything waited for, one k step.
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: llvm.extractvalue %{{.+}}[0] : !llvm.struct<(f32,
// CHECK: memref.store %{{.+}}, %arg2[%{{.+}}, %{{.+}}] : memref<128x64xbf16>
// CHECK: gpu.return
func.func @matmul(%a: memref<128x328xbf16>, %b: memref<328x64xbf16>, %c: memref<128x64xbf16>) {
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 328 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<128x328xbf16>
        %y = affine.load %b[%k, %j] : memref<328x64xbf16>
        %xe = arith.extf %x : bf16 to f32
        %ye = arith.extf %y : bf16 to f32
        %p = arith.mulf %xe, %ye : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      %r = arith.truncf %s : f32 to bf16
      affine.store %r, %c[%i, %j] : memref<128x64xbf16>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [128, 64, 64], thread = [2, 16], vector = 8, warp = [64, 64], mma = 2, pipeline = 4>}
  return
}
