// RUN: tilec-opt %s -split-input-file '--tilec-kernel-set-gpu-target=target={#tilec.gpu_target<device = "test:gpu">}' -tilec-gpu-flatten-contractions | FileCheck %s
// RUN: tilec-opt %s -split-input-file '--tilec-kernel-set-gpu-target=target={#tilec.gpu_target<device = "test:cpu", cpu = true>}' -tilec-gpu-flatten-contractions | FileCheck %s --check-prefix=CPU

// A padded 3x3 NHWC convolution (1x6x6x4 images, 8 filters) as an implicit
// GEMM: n, y, x (read by the image only) become one loop of 36 rows, co
// stays, the window rows, columns and channels one reduction of 36 steps
// (channels fastest). The old indices are floordiv/mod of the new ones in
// every access and in the guard, which keeps the step's else. Name and
// fingerprint stay. On a CPU device nothing changes.
// CHECK-LABEL: func.func @conv(
// CHECK:      affine.for %[[P:.+]] = 0 to 36 {
// CHECK-NEXT:   affine.for %[[CO:.+]] = 0 to 8 {
// CHECK-NEXT:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:     %[[SUM:.+]] = affine.for %[[R:.+]] = 0 to 36 iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:       %[[STEP:.+]] = affine.if #{{.+}}(%[[P]], %[[R]]) -> f32 {
// CHECK-NEXT:         affine.load %arg0[%[[P]] floordiv 36, (%[[P]] floordiv 6) mod 6 + %[[R]] floordiv 12 - 1, %[[P]] mod 6 + (%[[R]] floordiv 4) mod 3 - 1, %[[R]] mod 4]
// CHECK-NEXT:         affine.load %arg1[%[[R]] floordiv 12, (%[[R]] floordiv 4) mod 3, %[[R]] mod 4, %[[CO]]]
// CHECK-NEXT:         arith.mulf
// CHECK-NEXT:         arith.addf %[[ACC]]
// CHECK-NEXT:         affine.yield
// CHECK-NEXT:       } else {
// CHECK-NEXT:         affine.yield %[[ACC]] : f32
// CHECK:          affine.store %[[SUM]], %arg2[%[[P]] floordiv 36, (%[[P]] floordiv 6) mod 6, %[[P]] mod 6, %[[CO]]]
// CHECK:      } {tilec.fingerprint = "00000000000000aa", tilec.kernel = "conv"}
// CHECK-NOT:  affine.apply
// CPU-LABEL: func.func @conv(
// CPU-COUNT-4: affine.for %{{.+}} = 0 to
// CPU: affine.for %{{.+}} = 0 to 3 iter_args
#pad = affine_set<(y, x, ky, kx) : (y + ky - 1 >= 0, -(y + ky - 1) + 5 >= 0, x + kx - 1 >= 0, -(x + kx - 1) + 5 >= 0)>
func.func @conv(%in: memref<1x6x6x4xf32>, %w: memref<3x3x4x8xf32>, %out: memref<1x6x6x8xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %y = 0 to 6 {
      affine.for %x = 0 to 6 {
        affine.for %co = 0 to 8 {
          %zero = arith.constant 0.0 : f32
          %s0 = affine.for %ky = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
            %s1 = affine.for %kx = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
              %s2 = affine.for %ci = 0 to 4 iter_args(%a2 = %a1) -> (f32) {
                %r = affine.if #pad(%y, %x, %ky, %kx) -> f32 {
                  %v = affine.load %in[%n, %y + %ky - 1, %x + %kx - 1, %ci] : memref<1x6x6x4xf32>
                  %u = affine.load %w[%ky, %kx, %ci, %co] : memref<3x3x4x8xf32>
                  %p = arith.mulf %v, %u : f32
                  %q = arith.addf %a2, %p : f32
                  affine.yield %q : f32
                } else {
                  affine.yield %a2 : f32
                }
                affine.yield %r : f32
              }
              affine.yield %s2 : f32
            }
            affine.yield %s1 : f32
          }
          affine.store %s0, %out[%n, %y, %x, %co] : memref<1x6x6x8xf32>
        }
      }
    }
  } {tilec.kernel = "conv", tilec.fingerprint = "00000000000000aa"}
  return
}

// -----

// A matmul has one loop per side and one reduction loop already; a nest
// with a schedule keeps the loops it names.
// CHECK-LABEL: func.func @untouched(
// CHECK: affine.for %{{.+}} = 0 to 4 {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 5 {
// CHECK: tilec.kernel = "matmul"
// CHECK: affine.for %{{.+}} = 0 to 4 {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 2 {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 5 {
// CHECK: tilec.kernel = "scheduled"
func.func @untouched(%a: memref<4x6xf32>, %b: memref<6x5xf32>, %c: memref<4x5xf32>,
                     %i3: memref<4x2x3xf32>, %f3: memref<3x5xf32>, %o3: memref<4x2x5xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 5 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 6 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<4x6xf32>
        %y = affine.load %b[%k, %j] : memref<6x5xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<4x5xf32>
    }
  } {tilec.kernel = "matmul"}
  affine.for %i = 0 to 4 {
    affine.for %t = 0 to 2 {
      affine.for %j = 0 to 5 {
        %zero = arith.constant 0.0 : f32
        %s = affine.for %k = 0 to 3 iter_args(%acc = %zero) -> (f32) {
          %x = affine.load %i3[%i, %t, %k] : memref<4x2x3xf32>
          %y = affine.load %f3[%k, %j] : memref<3x5xf32>
          %p = arith.mulf %x, %y : f32
          %n = arith.addf %acc, %p : f32
          affine.yield %n : f32
        }
        affine.store %s, %o3[%i, %t, %j] : memref<4x2x5xf32>
      }
    }
  } {tilec.kernel = "scheduled", tilec.schedule = #tilec.schedule<block = [4, 2, 8]>}
  return
}

// -----

// A filter gradient with its SGD update (conv1 of a one-channel image):
// ky and kx are read by the image alone, ci is a loop of one iteration that
// no operand reads, co the gradient's. The unit loop joins the run before
// it, so ky, kx, ci become one loop of 9 rows and n, y, x one reduction of
// 144; the old weight's load stays after the reduction.
// CHECK-LABEL: func.func @filter_grad(
// CHECK:      affine.for %[[P:.+]] = 0 to 9 {
// CHECK-NEXT:   affine.for %[[CO:.+]] = 0 to 16 {
// CHECK:          affine.for %{{.+}} = 0 to 144 iter_args
// CHECK:          affine.load %arg2[%[[P]] floordiv 3, %[[P]] mod 3, 0, %[[CO]]]
// CHECK:          arith.subf
// CHECK:          affine.store %{{.+}}, %arg3[%[[P]] floordiv 3, %[[P]] mod 3, 0, %[[CO]]]
// CPU-LABEL: func.func @filter_grad(
// CPU-COUNT-4: affine.for %{{.+}} = 0 to
func.func @filter_grad(%in: memref<4x8x8x1xf32>, %dy: memref<4x6x6x16xf32>, %w: memref<3x3x1x16xf32>, %out: memref<3x3x1x16xf32>) {
  affine.for %ky = 0 to 3 {
    affine.for %kx = 0 to 3 {
      affine.for %ci = 0 to 1 {
        affine.for %co = 0 to 16 {
          %zero = arith.constant 0.0 : f32
          %s0 = affine.for %n = 0 to 4 iter_args(%a0 = %zero) -> (f32) {
            %s1 = affine.for %y = 0 to 6 iter_args(%a1 = %a0) -> (f32) {
              %s2 = affine.for %x = 0 to 6 iter_args(%a2 = %a1) -> (f32) {
                %i = affine.load %in[%n, %ky + %y, %kx + %x, 0] : memref<4x8x8x1xf32>
                %g = affine.load %dy[%n, %y, %x, %co] : memref<4x6x6x16xf32>
                %p = arith.mulf %i, %g : f32
                %q = arith.addf %a2, %p : f32
                affine.yield %q : f32
              }
              affine.yield %s2 : f32
            }
            affine.yield %s1 : f32
          }
          %old = affine.load %w[%ky, %kx, %ci, %co] : memref<3x3x1x16xf32>
          %c = arith.constant 0.01 : f32
          %step = arith.mulf %s0, %c : f32
          %new = arith.subf %old, %step : f32
          affine.store %new, %out[%ky, %kx, %ci, %co] : memref<3x3x1x16xf32>
        }
      }
    }
  } {tilec.fingerprint = "00000000000000ab", tilec.kernel = "filter_grad"}
  return
}
