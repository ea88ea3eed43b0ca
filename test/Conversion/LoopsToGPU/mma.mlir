// RUN: tilec-opt %s -split-input-file '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<compute_capability=90,local_mem_bytes=49152>' -tilec-gpu-map-kernels -canonicalize -cse | FileCheck %s

// Tensor cores (mma = 1) on a bf16 matmul of 64x48 by 48x64: blocks of
// 32x32 with two warps of 32x16 (2x2 instruction tiles of 16x8), chunks of
// 32 in two buffers of [rows][chunk + 8] bf16 (the pad spreads ldmatrix's
// rows over the banks). A is read along k: staged [m][k], ldmatrix x4 as
// is; B along n: staged [k][n], ldmatrix x4 .trans, split into the two
// 16x8 tiles. The reduction is 48: the second chunk holds 16 steps, its
// loads clamped inside the row and its elements past k = 48 zeroed, and it
// runs one k-step of 16. The accumulators are f32; each lane stores rows
// g and g + 8, columns 2t and 2t + 1 of its tiles.
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: workgroup(%[[TA:.+]] : memref<2x32x40xbf16, #gpu.address_space<workgroup>>, %[[TB:.+]] : memref<2x32x40xbf16, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 8, 8, 1>, known_grid_size = array<i32: 2, 2, 1>
// CHECK: vector.load %arg0{{.+}} {alignment = 16 : i64} : memref<64x48xbf16>, vector<8xbf16>
// CHECK: vector.load %arg1{{.+}} {alignment = 16 : i64} : memref<48x64xbf16>, vector<8xbf16>
// CHECK: vector.store %{{.+}}, %[[TA]][%c0
// CHECK: vector.store %{{.+}}, %[[TB]][%c0
// CHECK: gpu.barrier
// CHECK-NOT: scf.for
// The second chunk's loads: zero past the reduction's end.
// CHECK: %[[TAIL:.+]] = vector.load %arg0[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<64x48xbf16>, vector<8xbf16>
// CHECK: arith.select %{{.+}}, %[[TAIL]], %{{.+}} : vector<8xbf16>
// CHECK: %[[A0:.+]] = nvgpu.ldmatrix %[[TA]][%c0, {{.+}}] {numTiles = 4 : i32, transpose = false} : memref<2x32x40xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: %[[A1:.+]] = nvgpu.ldmatrix %[[TA]][%c0, {{.+}}] {numTiles = 4 : i32, transpose = false}
// CHECK: %[[B:.+]] = nvgpu.ldmatrix %[[TB]][%c0, {{.+}}] {numTiles = 4 : i32, transpose = true}
// CHECK: %[[B0:.+]] = vector.shuffle %[[B]], %[[B]] [0, 1] : vector<4x2xbf16>, vector<4x2xbf16>
// CHECK: %[[B1:.+]] = vector.shuffle %[[B]], %[[B]] [2, 3]
// CHECK: nvgpu.mma.sync(%[[A0]], %[[B0]], %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: nvgpu.mma.sync(%[[A0]], %[[B1]]
// CHECK: nvgpu.mma.sync(%[[A1]], %[[B0]]
// CHECK: nvgpu.mma.sync(%[[A1]], %[[B1]]
// CHECK-COUNT-4: nvgpu.mma.sync
// The second chunk, staged in the other buffer: one k-step.
// CHECK: vector.store %{{.+}}, %[[TA]][%c1
// CHECK: gpu.barrier
// CHECK-COUNT-4: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: vector.extract %{{.+}}[0, 0] : f32 from vector<2x2xf32>
// CHECK: memref.store %{{.+}}, %arg2[%{{.+}}, %{{.+}}] : memref<64x64xbf16>
// CHECK-COUNT-15: memref.store
// CHECK-NOT: memref.store
// CHECK: gpu.return
func.func @matmul(%a: memref<64x48xbf16>, %b: memref<48x64xbf16>, %c: memref<64x64xbf16>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 48 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<64x48xbf16>
        %y = affine.load %b[%k, %j] : memref<48x64xbf16>
        %xe = arith.extf %x : bf16 to f32
        %ye = arith.extf %y : bf16 to f32
        %p = arith.mulf %xe, %ye : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      %r = arith.truncf %s : f32 to bf16
      affine.store %r, %c[%i, %j] : memref<64x64xbf16>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 32], thread = [4, 4], vector = 8, warp = [32, 16], buffers = 2, mma = 1>}
  return
}

// -----

// f16 with both operands the other way round (A[k, m], B[n, k]): A is
// staged [k][m] and read with ldmatrix .trans, B [n][k] as is. A reduction
// of 256 in chunks of 32: the first chunk before the loop, which prefetches
// chunk c + 1, computes chunk c (two k-steps) and stores the next chunk
// into the other buffer at one barrier; the last chunk after it.
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: workgroup(%[[TA:.+]] : memref<2x32x40xf16, #gpu.address_space<workgroup>>, %[[TB:.+]] : memref<2x32x40xf16, #gpu.address_space<workgroup>>)
// CHECK: gpu.barrier
// CHECK: scf.for %{{.+}} = %c0 to %c224 step %c32 iter_args({{.+}}) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// CHECK: vector.load %arg0{{.+}} : memref<256x64xf16>, vector<8xf16>
// CHECK: vector.load %arg1{{.+}} : memref<32x256xf16>, vector<8xf16>
// CHECK: nvgpu.ldmatrix %[[TA]]{{.+}} {numTiles = 4 : i32, transpose = true}
// CHECK: nvgpu.ldmatrix %[[TB]]{{.+}} {numTiles = 4 : i32, transpose = false}
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: gpu.return
func.func @transposed(%a: memref<256x64xf16>, %b: memref<32x256xf16>, %c: memref<64x32xf16>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 256 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%k, %i] : memref<256x64xf16>
        %y = affine.load %b[%j, %k] : memref<32x256xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      %r = arith.truncf %s : f32 to f16
      affine.store %r, %c[%i, %j] : memref<64x32xf16>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 32], thread = [4, 4], vector = 8, warp = [32, 16], buffers = 2, mma = 1>}
  return
}

// -----

// The same with a cp.async pipeline of 4 buffers (pipeline = 4): chunks 0
// and 1 are copied first, each one group; step c copies chunk c + 2 into
// buffer (c + 2) % 4 (the one step c - 2 read), as one group, waits for all
// but the 2 latest groups (chunk c is then complete), meets the others at
// one barrier and computes chunk c from buffer c % 4. The last two steps
// copy nothing and wait for everything.
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: workgroup(%[[TA:.+]] : memref<4x32x40xf16, #gpu.address_space<workgroup>>, %[[TB:.+]] : memref<4x32x40xf16, #gpu.address_space<workgroup>>)
// CHECK: %[[A0:.+]] = nvgpu.device_async_copy %arg0[{{.+}}], %[[TA]][%c0, {{.+}}], 8 {bypassL1} : memref<256x64xf16> to memref<4x32x40xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %arg1[{{.+}}], %[[TB]][%c0, {{.+}}], 8 {bypassL1}
// CHECK: nvgpu.device_async_create_group %[[A0]], %{{.+}}, %{{.+}}, %{{.+}}
// CHECK: nvgpu.device_async_copy %arg0[{{.+}}], %[[TA]][%c1, {{.+}}]
// CHECK: nvgpu.device_async_create_group
// CHECK-NOT: gpu.barrier
// CHECK: scf.for %{{.+}} = %c0 to %c192 step %c32 iter_args({{.+}}) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// CHECK: %[[NEXT:.+]] = arith.remui %{{.+}}, %c4 : index
// CHECK: nvgpu.device_async_copy %arg0[{{.+}}], %[[TA]][%[[NEXT]], {{.+}}]
// CHECK: %[[GROUP:.+]] = nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %[[GROUP]] {numGroups = 2 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[TA]]{{.+}} {numTiles = 4 : i32, transpose = true}
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK: %[[EMPTY:.+]] = nvgpu.device_async_create_group{{ *$}}
// CHECK-NEXT: nvgpu.device_async_wait %[[EMPTY]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK: nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-NOT: nvgpu.device_async
// CHECK: gpu.return
func.func @pipelined(%a: memref<256x64xf16>, %b: memref<32x256xf16>, %c: memref<64x32xf16>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 256 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%k, %i] : memref<256x64xf16>
        %y = affine.load %b[%j, %k] : memref<32x256xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      %r = arith.truncf %s : f32 to f16
      affine.store %r, %c[%i, %j] : memref<64x32xf16>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 32], thread = [4, 4], vector = 8, warp = [32, 16], mma = 1, pipeline = 4>}
  return
}
