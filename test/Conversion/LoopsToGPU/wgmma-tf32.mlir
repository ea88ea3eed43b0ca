// RUN: tilec-opt %s '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<compute_capability=90,local_mem_bytes=49152,shared_mem_opt_in_bytes=232448>' -tilec-gpu-map-kernels -canonicalize -cse | FileCheck %s

// TF32 on Hopper's warpgroup MMA (a module marked tilec.allow_tf32, what
// --allow-tf32 sets): an f32 matmul of 128x72 by 72x64 in one block of two
// 64x64 warpgroup tiles, m64n64k8 per k step. The tiles are f32 rows of 32
// (128 bytes, swizzled), both read along k, three buffers (one chunk
// ahead). A[m, k] is copied by cp.async; B[k, n] is read along n, so each
// work-item loads its vectors of B before the step's wgmmas and stores
// them element by element, transposed, after they are issued.
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: workgroup(%[[TA:.+]] : memref<3x128x32xf32, #gpu.address_space<workgroup>>, %[[TB:.+]] : memref<3x64x32xf32, #gpu.address_space<workgroup>>)
// Chunk 0 before the loop: A by cp.async, B through registers, stored at
// once.
// CHECK: nvgpu.device_async_copy %arg0[{{.+}}], %[[TA]][%c0, {{.+}}], 4 {bypassL1}
// CHECK: vector.load %arg1[{{.+}}] {alignment = 16 : i64} : memref<72x64xf32>, vector<4xf32>
// CHECK: memref.store %{{.+}}, %[[TB]][%c0, {{.+}}] : memref<3x64x32xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-7: memref.store %{{.+}}, %[[TB]][%c0,
// CHECK-NEXT: nvgpu.device_async_create_group
// Step 0: chunk 0 waited for, fenced, the barrier; chunk 1's copies start,
// B's loads among them; the four k steps of 8 (both descriptors 32 bytes
// on, 2 units, per step: rows of 128 bytes, the 1024-byte swizzle atom);
// then B's stores into buffer 1.
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy %arg0[{{.+}}], %[[TA]][%c1, {{.+}}], 4 {bypassL1}
// CHECK: vector.load %arg1
// CHECK: nvgpu.device_async_create_group
// CHECK: memref.extract_aligned_pointer_as_index %[[TA]]
// CHECK: %[[ADESC:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[TB]]
// CHECK: %[[BDESC:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[ACC:.+]] = nvvm.wgmma.mma_async %[[ADESC]], %[[BDESC]], %{{.+}}, <m = 64, n = 64, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32,
// CHECK-NEXT: %[[B1:.+]] = arith.addi %[[BDESC]], %c2_i64 : i64
// CHECK-NEXT: %[[A1:.+]] = arith.addi %[[ADESC]], %c2_i64 : i64
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A1]], %[[B1]], %[[ACC]]
// CHECK-COUNT-2: nvvm.wgmma.mma_async
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: vector.extract
// CHECK-NEXT: memref.store %{{.+}}, %[[TB]][%c1, {{.+}}]
// CHECK-COUNT-7: memref.store %{{.+}}, %[[TB]][%c1,
// Step 1 copies the last chunk (8 of 32 iterations, zero past them) and
// computes 4 k steps; step 2 computes its one.
// CHECK: gpu.barrier
// CHECK: nvgpu.device_async_copy %arg0[{{.+}}], %[[TA]][%c2, {{.+}}], 4, %{{.+}} {bypassL1}
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// CHECK-COUNT-8: memref.store %{{.+}}, %[[TB]][%c2,
// CHECK: gpu.barrier
// CHECK-NOT: memref.store %{{.+}}, %[[TB]]
// CHECK: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: memref.store %{{.+}}, %arg2[%{{.+}}, %{{.+}}] : memref<128x64xf32>
// CHECK: gpu.return
module attributes {tilec.allow_tf32} {
func.func @matmul(%a: memref<128x72xf32>, %b: memref<72x64xf32>, %c: memref<128x64xf32>) {
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 72 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<128x72xf32>
        %y = affine.load %b[%k, %j] : memref<72x64xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<128x64xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [128, 64, 32], thread = [2, 16], vector = 4, warp = [64, 64], mma = 2, pipeline = 3>}
  return
}
}
