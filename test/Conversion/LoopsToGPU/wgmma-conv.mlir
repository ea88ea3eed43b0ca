// RUN: tilec-opt %s '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<compute_capability=90,local_mem_bytes=49152,shared_mem_opt_in_bytes=232448>' -tilec-gpu-map-kernels -canonicalize -cse | FileCheck %s

// A padded 3x3 convolution as tilec-gpu-flatten-contractions leaves it (1x8x8x16
// bf16 images, 3x3x16x64 filters): 64 pixels by 64 output channels over
// 144 = 9 x 16 taps, the image's reads guarded by the window's padding.
// The guard reads k only as k floordiv 48 and k floordiv 16, so it takes or
// skips runs of 8 neighbouring channels whole: wgmma takes the nest, and
// each 16-byte copy of the image's tile is zero-filled (a source size of 0)
// where the guard skips its tap, its address moved to the image's first
// element. The filter's copies are not guarded.
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: workgroup(%[[TA:.+]] : memref<3x64x64xbf16, #gpu.address_space<workgroup>>, %[[TB:.+]] : memref<3x64x64xbf16, #gpu.address_space<workgroup>>)
// The guard's four constraints on the slot's pixel and first channel.
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi sge
// CHECK-NEXT: %[[HOLDS:.+]] = arith.andi
// CHECK-NEXT: %[[I0:.+]] = arith.select %[[HOLDS]], %{{.+}}, %c0 : index
// CHECK-NEXT: %[[I1:.+]] = arith.select %[[HOLDS]], %{{.+}}, %c0 : index
// CHECK-NEXT: %[[I2:.+]] = arith.select %[[HOLDS]], %{{.+}}, %c0 : index
// CHECK-NEXT: %[[I3:.+]] = arith.select %[[HOLDS]], %{{.+}}, %c0 : index
// CHECK-NEXT: %[[BYTES:.+]] = arith.select %[[HOLDS]], %c8, %c0 : index
// CHECK: nvgpu.device_async_copy %arg0[%[[I0]], %[[I1]], %[[I2]], %[[I3]]], %[[TA]][%c0, {{.+}}], 8, %[[BYTES]] {bypassL1}
// CHECK: nvgpu.device_async_copy %arg1[{{.+}}], %[[TB]][%c0, {{.+}}], 8 {bypassL1}
// CHECK: nvvm.wgmma.mma_async
// CHECK: gpu.return
#set = affine_set<(d0, d1) : ((d0 floordiv 8) mod 8 + d1 floordiv 48 - 1 >= 0, -(d0 floordiv 8) + ((d0 floordiv 8) floordiv 8) * 8 - d1 floordiv 48 + 8 >= 0, d0 mod 8 + (d1 floordiv 16) mod 3 - 1 >= 0, -d0 + (d0 floordiv 8) * 8 - d1 floordiv 16 + ((d1 floordiv 16) floordiv 3) * 3 + 8 >= 0)>
func.func @conv(%arg0: memref<1x8x8x16xbf16>, %arg1: memref<3x3x16x64xbf16>, %arg2: memref<1x8x8x64xbf16>) {
  affine.for %arg3 = 0 to 64 {
    affine.for %arg4 = 0 to 64 {
      %cst = arith.constant 0.000000e+00 : f32
      %0 = affine.for %arg5 = 0 to 144 iter_args(%arg6 = %cst) -> (f32) {
        %1 = affine.if #set(%arg3, %arg5) -> f32 {
          %2 = affine.load %arg0[%arg3 floordiv 64, (%arg3 floordiv 8) mod 8 + %arg5 floordiv 48 - 1, %arg3 mod 8 + (%arg5 floordiv 16) mod 3 - 1, %arg5 mod 16] : memref<1x8x8x16xbf16>
          %3 = affine.load %arg1[%arg5 floordiv 48, (%arg5 floordiv 16) mod 3, %arg5 mod 16, %arg4] : memref<3x3x16x64xbf16>
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [64, 64, 64], thread = [2, 16], vector = 8, warp = [64, 64], mma = 2, pipeline = 3>}
  return
}
