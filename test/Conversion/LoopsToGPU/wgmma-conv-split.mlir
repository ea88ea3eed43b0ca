// RUN: tilec-opt %s '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<compute_capability=90,local_mem_bytes=49152,shared_mem_opt_in_bytes=232448>' -tilec-gpu-split-reductions -tilec-gpu-default-schedule -tilec-gpu-map-kernels -canonicalize -cse | FileCheck %s

// A padded bf16 convolution (8x8 image, 64 -> 64 channels, flattened: 576
// products per cell) whose reduction is split in 4 slices of 144: the
// slice's taps are read at s * 144 + k, so the guard and the image's
// channel are `(s * 144 + k) floordiv 192`, `(s * 144 + k) mod 64`. 144 is
// a multiple of 8: every aligned run of 8 of k is one of the image's 16-byte
// runs, taken or skipped whole, and the sliced kernel stays on wgmma with
// the guarded, zero-filled copies of the unsplit one (wgmma-conv.mlir).
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: %arg2: memref<4x64x64xf32>
// CHECK: %[[BYTES:.+]] = arith.select %{{.+}}, %c8, %c0 : index
// CHECK: nvgpu.device_async_copy %arg0[{{.+}}], %{{.+}}[%c0, {{.+}}], 8, %[[BYTES]] {bypassL1}
// CHECK: nvvm.wgmma.mma_async
// CHECK: gpu.return
// The slices summed by the second kernel.
// CHECK-LABEL: gpu.func @k_combine(
// CHECK: gpu.return
#set = affine_set<(d0, d1) : ((d0 floordiv 8) mod 8 + d1 floordiv 192 - 1 >= 0, -(d0 floordiv 8) + ((d0 floordiv 8) floordiv 8) * 8 - d1 floordiv 192 + 8 >= 0, d0 mod 8 + (d1 floordiv 64) mod 3 - 1 >= 0, -d0 + (d0 floordiv 8) * 8 - d1 floordiv 64 + ((d1 floordiv 64) floordiv 3) * 3 + 8 >= 0)>
func.func @conv(%arg0: memref<1x8x8x64xbf16>, %arg1: memref<3x3x64x64xbf16>, %arg2: memref<1x8x8x64xbf16>) {
  affine.for %arg3 = 0 to 64 {
    affine.for %arg4 = 0 to 64 {
      %cst = arith.constant 0.000000e+00 : f32
      %0 = affine.for %arg5 = 0 to 576 iter_args(%arg6 = %cst) -> (f32) {
        %1 = affine.if #set(%arg3, %arg5) -> f32 {
          %2 = affine.load %arg0[%arg3 floordiv 64, (%arg3 floordiv 8) mod 8 + %arg5 floordiv 192 - 1, %arg3 mod 8 + (%arg5 floordiv 64) mod 3 - 1, %arg5 mod 64] : memref<1x8x8x64xbf16>
          %3 = affine.load %arg1[%arg5 floordiv 192, (%arg5 floordiv 64) mod 3, %arg5 mod 64, %arg4] : memref<3x3x64x64xbf16>
          %4 = arith.extf %2 : bf16 to f32
          %5 = arith.extf %3 : bf16 to f32
          %6 = arith.mulf %4, %5 : f32
          %7 = arith.addf %arg6, %6 : f32
          affine.yield %7 : f32
        } else {
          affine.yield %arg6 : f32
        }
        affine.yield %1 : f32
      }
      %8 = arith.truncf %0 : f32 to bf16
      affine.store %8, %arg2[%arg3 floordiv 64, (%arg3 floordiv 8) mod 8, %arg3 mod 8, %arg4] : memref<1x8x8x64xbf16>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [64, 64, 64], thread = [2, 16], vector = 8, warp = [64, 64], mma = 2, pipeline = 3, split = 4>}
  return
}
