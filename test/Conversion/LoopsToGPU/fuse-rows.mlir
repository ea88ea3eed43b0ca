// RUN: tilec-opt %s -split-input-file '--tilec-kernel-set-gpu-target=target={#tilec.gpu_target<device = "test:gpu">}' -tilec-gpu-fuse-rows | FileCheck %s
// RUN: tilec-opt %s -split-input-file '--tilec-kernel-set-gpu-target=target={#tilec.gpu_target<device = "test:cpu", cpu = true>}' -tilec-gpu-fuse-rows | FileCheck %s --check-prefix=CPU

// Softmax's four kernels (row maximum, exponential, row sum, division) make
// one nest: the row loop, each kernel's row body in order inside, the
// reductions' loops of one iteration gone (their index 0 in the maps).
// Named after the first and last kernels, fingerprinted afresh. On a CPU
// device nothing changes.
// CHECK-LABEL: func.func @softmax(
// CHECK:      affine.for %[[R:.+]] = 0 to 2 {
// CHECK:        %[[MAX:.+]] = affine.for %[[C:.+]] = 0 to 64 iter_args
// CHECK:          affine.load %arg0[%[[R]], %[[C]]]
// CHECK:          arith.maxnumf
// CHECK:        affine.store %[[MAX]], %[[S:.+]][%[[R]], 0]
// CHECK-NEXT:   affine.for %[[C2:.+]] = 0 to 64 {
// CHECK:          affine.load %[[S]][%[[R]], 0]
// CHECK:          math.exp
// CHECK:          affine.store {{.*}}, %[[E:.+]][%[[R]], %[[C2]]]
// CHECK:        %[[SUM:.+]] = affine.for
// CHECK:          affine.load %[[E]]
// CHECK:        affine.store %[[SUM]], %[[S]][%[[R]], 0]
// CHECK-NEXT:   affine.for
// CHECK:          arith.divf
// CHECK:          affine.store {{.*}}, %arg1
// CHECK:      } {tilec.fingerprint = "{{[0-9a-f]+}}", tilec.kernel = "contract_0_Mx..div_3"}
// CHECK-NOT:  tilec.kernel
// CHECK:      return
// CPU-LABEL: func.func @softmax(
// CPU-COUNT-4: tilec.kernel =
module {
  func.func @softmax(%arg0: memref<2x64xf32>, %arg1: memref<2x64xf32>) attributes {tilec.entry, tilec.input_names = ["L"], tilec.output_names = ["P"]} {
    %alloc = memref.alloc() : memref<2x1xf32>
    %alloc_0 = memref.alloc() : memref<2x64xf32>
    affine.for %arg2 = 0 to 2 {
      affine.for %arg3 = 0 to 1 {
        %cst = arith.constant 0xFF800000 : f32
        %0 = affine.for %arg4 = 0 to 64 iter_args(%arg5 = %cst) -> (f32) {
          %1 = affine.load %arg0[%arg2, %arg4] : memref<2x64xf32>
          %2 = arith.maxnumf %arg5, %1 : f32
          affine.yield %2 : f32
        }
        affine.store %0, %alloc[%arg2, %arg3] : memref<2x1xf32>
      }
    } {tilec.kernel = "contract_0_Mx"}
    affine.for %arg2 = 0 to 2 {
      affine.for %arg3 = 0 to 64 {
        %0 = affine.load %arg0[%arg2, %arg3] : memref<2x64xf32>
        %1 = affine.load %alloc[%arg2, 0] : memref<2x1xf32>
        %2 = arith.subf %0, %1 : f32
        %3 = math.exp %2 : f32
        affine.store %3, %alloc_0[%arg2, %arg3] : memref<2x64xf32>
      }
    } {tilec.kernel = "exp_1"}
    affine.for %arg2 = 0 to 2 {
      affine.for %arg3 = 0 to 1 {
        %cst = arith.constant 0.000000e+00 : f32
        %0 = affine.for %arg4 = 0 to 64 iter_args(%arg5 = %cst) -> (f32) {
          %1 = affine.load %alloc_0[%arg2, %arg4] : memref<2x64xf32>
          %2 = arith.addf %arg5, %1 : f32
          affine.yield %2 : f32
        }
        affine.store %0, %alloc[%arg2, %arg3] : memref<2x1xf32>
      }
    } {tilec.kernel = "contract_2_Z"}
    affine.for %arg2 = 0 to 2 {
      affine.for %arg3 = 0 to 64 {
        %0 = affine.load %alloc_0[%arg2, %arg3] : memref<2x64xf32>
        %1 = affine.load %alloc[%arg2, 0] : memref<2x1xf32>
        %2 = arith.divf %0, %1 : f32
        affine.store %2, %arg1[%arg2, %arg3] : memref<2x64xf32>
      }
    } {tilec.kernel = "div_3"}
    memref.dealloc %alloc : memref<2x1xf32>
    memref.dealloc %alloc_0 : memref<2x64xf32>
    return
  }
}

// -----

// A consumer whose step reads the next column under a guard is no part of
// a row nest: the fusion stops before it.
// CHECK-LABEL: func.func @shifted(
// CHECK:      tilec.kernel = "contract_0_S..div_1"
// CHECK:      affine.load %{{.+}}[%{{.+}}, %{{.+}} + 1]
// CHECK:      tilec.kernel = "contract_2_P"
#set = affine_set<(d0, d1) : (-d1 + 62 >= 0)>
module {
  func.func @shifted(%arg0: memref<2x64xf32>, %arg1: memref<2x64xf32>) attributes {tilec.entry, tilec.input_names = ["L"], tilec.output_names = ["P"]} {
    %alloc = memref.alloc() : memref<2x1xf32>
    %alloc_0 = memref.alloc() : memref<2x64xf32>
    affine.for %arg2 = 0 to 2 {
      affine.for %arg3 = 0 to 1 {
        %cst = arith.constant 0.000000e+00 : f32
        %0 = affine.for %arg4 = 0 to 64 iter_args(%arg5 = %cst) -> (f32) {
          %1 = affine.load %arg0[%arg2, %arg4] : memref<2x64xf32>
          %2 = arith.addf %arg5, %1 : f32
          affine.yield %2 : f32
        }
        affine.store %0, %alloc[%arg2, %arg3] : memref<2x1xf32>
      }
    } {tilec.kernel = "contract_0_S"}
    affine.for %arg2 = 0 to 2 {
      affine.for %arg3 = 0 to 64 {
        %0 = affine.load %arg0[%arg2, %arg3] : memref<2x64xf32>
        %1 = affine.load %alloc[%arg2, 0] : memref<2x1xf32>
        %2 = arith.divf %0, %1 : f32
        affine.store %2, %alloc_0[%arg2, %arg3] : memref<2x64xf32>
      }
    } {tilec.kernel = "div_1"}
    affine.for %arg2 = 0 to 2 {
      affine.for %arg3 = 0 to 64 {
        %cst = arith.constant 0.000000e+00 : f32
        %cst_1 = arith.constant 0.000000e+00 : f32
        %0 = affine.if #set(%arg2, %arg3) -> f32 {
          %1 = affine.load %alloc_0[%arg2, %arg3 + 1] : memref<2x64xf32>
          %2 = arith.addf %cst_1, %1 : f32
          affine.yield %2 : f32
        } else {
          affine.yield %cst : f32
        }
        affine.store %0, %arg1[%arg2, %arg3] : memref<2x64xf32>
      }
    } {tilec.kernel = "contract_2_P"}
    memref.dealloc %alloc : memref<2x1xf32>
    memref.dealloc %alloc_0 : memref<2x64xf32>
    return
  }
}

// -----

// A contraction with a free loop on each side stays for the outer-product
// tiling.
// CHECK-LABEL: func.func @matmul(
// CHECK:      affine.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:   affine.for %{{.+}} = 0 to 8 {
// CHECK:      tilec.kernel = "contract_0_C"
module {
  func.func @matmul(%arg0: memref<4x64xf32>, %arg1: memref<64x8xf32>, %arg2: memref<4x8xf32>) attributes {tilec.entry, tilec.input_names = ["A", "B"], tilec.output_names = ["C"]} {
    affine.for %arg3 = 0 to 4 {
      affine.for %arg4 = 0 to 8 {
        %cst = arith.constant 0.000000e+00 : f32
        %0 = affine.for %arg5 = 0 to 64 iter_args(%arg6 = %cst) -> (f32) {
          %1 = affine.load %arg0[%arg3, %arg5] : memref<4x64xf32>
          %2 = affine.load %arg1[%arg5, %arg4] : memref<64x8xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %arg6, %3 : f32
          affine.yield %4 : f32
        }
        affine.store %0, %arg2[%arg3, %arg4] : memref<4x8xf32>
      }
    } {tilec.kernel = "contract_0_C"}
    return
  }
}
