// RUN: tilec-opt %s -tilec-cpu-default-schedule="vector-bytes=64 vector-registers=32 l1-bytes=49152 l2-bytes=2097152" | FileCheck %s --check-prefix=AVX512
// RUN: tilec-opt %s -tilec-cpu-default-schedule="vector-bytes=32 vector-registers=16 l1-bytes=32768 l2-bytes=262144" | FileCheck %s --check-prefix=AVX2
//
// Default schedules from the CPU facts given as options (the host's when
// left out), so the result does not depend on the machine.

// A 1024^3 matmul: 6 rows x 4 vectors of 16 lanes (AVX-512, 32 registers)
// or 6 x 2 of 8 (AVX2, 16 registers); the B panel (1024 x 64 floats =
// 256 KiB, 1024 x 16 = 64 KiB) fits L2 once packed: each lane tile is a
// cache tile, outermost, so every row of A meets the panel there.
// AVX512-LABEL: func.func @matmul
// AVX512:       tilec.schedule = #tilec.schedule<block = [0, 64], thread = [6, 64], vector = 16, order = [1, 0]>
// AVX2-LABEL:   func.func @matmul
// AVX2:         tilec.schedule = #tilec.schedule<block = [0, 16], thread = [6, 16], vector = 8, order = [1, 0]>
func.func @matmul(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>) {
  affine.for %m = 0 to 1024 {
    affine.for %n = 0 to 1024 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 1024 iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%m, %k] : memref<1024x1024xf32>
        %b = affine.load %B[%k, %n] : memref<1024x1024xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<1024x1024xf32>
    }
  } {tilec.kernel = "contract_0_C"}
  return
}

// A short reduction: the panel (64 x 64 floats = 16 KiB, AVX2's 4 KiB) fits
// L2 too, so each lane tile is a cache tile and its loop is outermost.
// AVX512-LABEL: func.func @short_reduction
// AVX512:       tilec.schedule = #tilec.schedule<block = [0, 64], thread = [6, 64], vector = 16, order = [1, 0]>
// AVX2-LABEL:   func.func @short_reduction
// AVX2:         tilec.schedule = #tilec.schedule<block = [0, 16], thread = [6, 16], vector = 8, order = [1, 0]>
func.func @short_reduction(%A: memref<64x64xf32>, %B: memref<64x1024xf32>, %C: memref<64x1024xf32>) {
  affine.for %m = 0 to 64 {
    affine.for %n = 0 to 1024 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%m, %k] : memref<64x64xf32>
        %b = affine.load %B[%k, %n] : memref<64x1024xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<64x1024xf32>
    }
  } {tilec.kernel = "contract_0_C"}
  return
}

// Elementwise: one vector, no register blocking (nothing is reused); the
// 20-wide f64 loop takes 8 lanes (AVX-512) or 4 (AVX2).
// AVX512-LABEL: func.func @elementwise
// AVX512:       tilec.schedule = #tilec.schedule<block = [0, 0], thread = [1, 8], vector = 8>
// AVX2-LABEL:   func.func @elementwise
// AVX2:         tilec.schedule = #tilec.schedule<block = [0, 0], thread = [1, 4], vector = 4>
func.func @elementwise(%A: memref<4x20xf64>, %C: memref<4x20xf64>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 20 {
      %0 = affine.load %A[%i, %j] : memref<4x20xf64>
      %1 = math.exp %0 : f64
      affine.store %1, %C[%i, %j] : memref<4x20xf64>
    }
  } {tilec.kernel = "exp_0"}
  return
}

// A transpose reads across the lanes: scalar schedule.
// AVX512-LABEL: func.func @transpose
// AVX512:       tilec.schedule = #tilec.schedule<block = [0, 0], thread = [1, 1]>
func.func @transpose(%A: memref<8x8xf32>, %C: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %0 = affine.load %A[%j, %i] : memref<8x8xf32>
      affine.store %0, %C[%i, %j] : memref<8x8xf32>
    }
  } {tilec.kernel = "transpose_0"}
  return
}

// Kernels with a schedule keep it; forms the schedule cannot apply to get
// none.
// AVX512-LABEL: func.func @kept_and_skipped
// AVX512:       tilec.schedule = #tilec.schedule<vector = 4>
// AVX512-NOT:   tilec.schedule
// AVX512:       return
func.func @kept_and_skipped(%A: memref<10xf32>, %I: memref<6xindex>, %C: memref<6xf32>) {
  affine.for %i = 0 to 6 {
    %0 = affine.load %A[%i] : memref<10xf32>
    affine.store %0, %C[%i] : memref<6xf32>
  } {tilec.kernel = "copy_0", tilec.schedule = #tilec.schedule<vector = 4>}
  affine.for %i = 0 to 6 {
    %0 = affine.load %I[%i] : memref<6xindex>
    %1 = memref.load %A[%0] : memref<10xf32>
    affine.store %1, %C[%i] : memref<6xf32>
  } {tilec.kernel = "gather_0_C"}
  return
}

// The loop level passes every enclosing IV to each access map, used or
// not (the generic form keeps them): A's load names the lane IV %n but
// does not read it, so it is uniform across lanes and the kernel still
// vectorises, as the matmul above does.
// AVX512-LABEL: func.func @unused_map_operands
// AVX512:       vector = 16{{[,>]}}
// AVX2-LABEL:   func.func @unused_map_operands
// AVX2:         vector = 8{{[,>]}}
func.func @unused_map_operands(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  affine.for %m = 0 to 64 {
    affine.for %n = 0 to 64 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
        %a = "affine.load"(%A, %m, %n, %k) <{map = affine_map<(d0, d1, d2) -> (d0, d2)>}> : (memref<64x64xf32>, index, index, index) -> f32
        %b = "affine.load"(%B, %m, %n, %k) <{map = affine_map<(d0, d1, d2) -> (d2, d1)>}> : (memref<64x64xf32>, index, index, index) -> f32
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<64x64xf32>
    }
  } {tilec.kernel = "contract_0_C"}
  return
}

// No band, so no schedule: a loop that writes a buffer through a view of it
// while reading it directly (the dependence analysis compares memref
// values, so it would see two buffers), and a loop of no iterations.
// AVX512-LABEL: func.func @no_band
// AVX512-NOT:   tilec.schedule
// AVX512:       return
func.func @no_band(%A: memref<8xf32>, %C: memref<8xf32>) {
  %v = memref.subview %A[0] [7] [1] : memref<8xf32> to memref<7xf32, strided<[1]>>
  affine.for %i = 0 to 7 {
    %0 = affine.load %A[%i + 1] : memref<8xf32>
    affine.store %0, %v[%i] : memref<7xf32, strided<[1]>>
  } {tilec.kernel = "shift_0"}
  affine.for %i = 0 to 0 {
    %0 = affine.load %A[%i] : memref<8xf32>
    affine.store %0, %C[%i] : memref<8xf32>
  } {tilec.kernel = "empty_1"}
  return
}

// ResNet's last 3x3 convolution, 7x7 pixels of 512 channels: a window
// whose panel outgrows an eighth of L2 (below) takes 2 vectors and 7
// pixels (14 accumulators), which cover each image row; a block of 2 image
// rows would leave one row of 7 over, which ran slower.
// AVX512-LABEL: func.func @conv_7x7
// AVX512:       tilec.schedule = #tilec.schedule<block = [0, 0, 0, 32], thread = [1, 1, 7, 32], vector = 16, order = [3, 0, 1, 2]>
#pad7 = affine_set<(d0, d1, d2, d3, d4, d5, d6) : (d1 + d4 - 1 >= 0, -(d1 + d4 - 1) + 6 >= 0, d2 + d5 - 1 >= 0, -(d2 + d5 - 1) + 6 >= 0)>
func.func @conv_7x7(%I: memref<1x7x7x512xf32>, %F: memref<3x3x512x512xf32>, %O: memref<1x7x7x512xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %y = 0 to 7 {
      affine.for %x = 0 to 7 {
        affine.for %co = 0 to 512 {
          %zero = arith.constant 0.000000e+00 : f32
          %0 = affine.for %ky = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
            %1 = affine.for %kx = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
              %2 = affine.for %ci = 0 to 512 iter_args(%a2 = %a1) -> (f32) {
                %3 = affine.if #pad7(%n, %y, %x, %co, %ky, %kx, %ci) -> f32 {
                  %i = affine.load %I[%n, %y + %ky - 1, %x + %kx - 1, %ci] : memref<1x7x7x512xf32>
                  %f = affine.load %F[%ky, %kx, %ci, %co] : memref<3x3x512x512xf32>
                  %p = arith.mulf %i, %f : f32
                  %s = arith.addf %a2, %p : f32
                  affine.yield %s : f32
                } else {
                  affine.yield %a2 : f32
                }
                affine.yield %3 : f32
              }
              affine.yield %2 : f32
            }
            affine.yield %1 : f32
          }
          affine.store %0, %O[%n, %y, %x, %co] : memref<1x7x7x512xf32>
        }
      }
    }
  } {tilec.kernel = "contract_0_O"}
  return
}

// A 3x3 convolution of 28x28 pixels of 128 channels: its filter panel of 4
// vectors (1152 steps x 64 lanes, 288 KiB) takes more than an eighth of
// L2, so the window takes 2 vectors and a block of 2 image rows x 7 pixels
// (28 accumulators): each filter vector loaded from L2 feeds 14 FMAs.
// AVX2's 16 registers hold no block of 14 points: 6 pixels of 2 vectors.
// AVX512-LABEL: func.func @conv_28x28_window
// AVX512:       tilec.schedule = #tilec.schedule<block = [0, 0, 0, 32], thread = [1, 2, 7, 32], vector = 16, order = [3, 0, 1, 2]>
// AVX2-LABEL:   func.func @conv_28x28_window
// AVX2:         tilec.schedule = #tilec.schedule<block = [0, 0, 0, 16], thread = [1, 1, 6, 16], vector = 8, order = [3, 0, 1, 2]>
#pad28 = affine_set<(d0, d1, d2, d3, d4, d5, d6) : (d1 + d4 - 1 >= 0, -(d1 + d4 - 1) + 27 >= 0, d2 + d5 - 1 >= 0, -(d2 + d5 - 1) + 27 >= 0)>
func.func @conv_28x28_window(%I: memref<1x28x28x128xf32>, %F: memref<3x3x128x128xf32>, %O: memref<1x28x28x128xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %y = 0 to 28 {
      affine.for %x = 0 to 28 {
        affine.for %co = 0 to 128 {
          %zero = arith.constant 0.000000e+00 : f32
          %0 = affine.for %ky = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
            %1 = affine.for %kx = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
              %2 = affine.for %ci = 0 to 128 iter_args(%a2 = %a1) -> (f32) {
                %3 = affine.if #pad28(%n, %y, %x, %co, %ky, %kx, %ci) -> f32 {
                  %i = affine.load %I[%n, %y + %ky - 1, %x + %kx - 1, %ci] : memref<1x28x28x128xf32>
                  %f = affine.load %F[%ky, %kx, %ci, %co] : memref<3x3x128x128xf32>
                  %p = arith.mulf %i, %f : f32
                  %s = arith.addf %a2, %p : f32
                  affine.yield %s : f32
                } else {
                  affine.yield %a2 : f32
                }
                affine.yield %3 : f32
              }
              affine.yield %2 : f32
            }
            affine.yield %1 : f32
          }
          affine.store %0, %O[%n, %y, %x, %co] : memref<1x28x28x128xf32>
        }
      }
    }
  } {tilec.kernel = "contract_0_O"}
  return
}

// The same with a residual added after the reduction: read once per point,
// it does not count against the window.
// AVX512-LABEL: func.func @conv_28x28_residual
// AVX512:       tilec.schedule = #tilec.schedule<block = [0, 0, 0, 32], thread = [1, 2, 7, 32], vector = 16, order = [3, 0, 1, 2]>
func.func @conv_28x28_residual(%I: memref<1x28x28x128xf32>, %F: memref<3x3x128x128xf32>, %R: memref<1x28x28x128xf32>, %O: memref<1x28x28x128xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %y = 0 to 28 {
      affine.for %x = 0 to 28 {
        affine.for %co = 0 to 128 {
          %zero = arith.constant 0.000000e+00 : f32
          %0 = affine.for %ky = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
            %1 = affine.for %kx = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
              %2 = affine.for %ci = 0 to 128 iter_args(%a2 = %a1) -> (f32) {
                %3 = affine.if #pad28(%n, %y, %x, %co, %ky, %kx, %ci) -> f32 {
                  %i = affine.load %I[%n, %y + %ky - 1, %x + %kx - 1, %ci] : memref<1x28x28x128xf32>
                  %f = affine.load %F[%ky, %kx, %ci, %co] : memref<3x3x128x128xf32>
                  %p = arith.mulf %i, %f : f32
                  %s = arith.addf %a2, %p : f32
                  affine.yield %s : f32
                } else {
                  affine.yield %a2 : f32
                }
                affine.yield %3 : f32
              }
              affine.yield %2 : f32
            }
            affine.yield %1 : f32
          }
          %r = affine.load %R[%n, %y, %x, %co] : memref<1x28x28x128xf32>
          %sum = arith.addf %0, %r : f32
          affine.store %sum, %O[%n, %y, %x, %co] : memref<1x28x28x128xf32>
        }
      }
    }
  } {tilec.kernel = "contract_0_O"}
  return
}

// 56x56 pixels of 64 channels: the panel of 4 vectors (576 x 64, 144 KiB)
// stays under an eighth of L2, and 6 pixels x 4 vectors keep fewer loads
// per FMA.
// AVX512-LABEL: func.func @conv_56x56
// AVX512:       tilec.schedule = #tilec.schedule<block = [0, 0, 0, 0], thread = [1, 1, 6, 64], vector = 16>
#pad56 = affine_set<(d0, d1, d2, d3, d4, d5, d6) : (d1 + d4 - 1 >= 0, -(d1 + d4 - 1) + 55 >= 0, d2 + d5 - 1 >= 0, -(d2 + d5 - 1) + 55 >= 0)>
func.func @conv_56x56(%I: memref<1x56x56x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x56x56x64xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %y = 0 to 56 {
      affine.for %x = 0 to 56 {
        affine.for %co = 0 to 64 {
          %zero = arith.constant 0.000000e+00 : f32
          %0 = affine.for %ky = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
            %1 = affine.for %kx = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
              %2 = affine.for %ci = 0 to 64 iter_args(%a2 = %a1) -> (f32) {
                %3 = affine.if #pad56(%n, %y, %x, %co, %ky, %kx, %ci) -> f32 {
                  %i = affine.load %I[%n, %y + %ky - 1, %x + %kx - 1, %ci] : memref<1x56x56x64xf32>
                  %f = affine.load %F[%ky, %kx, %ci, %co] : memref<3x3x64x64xf32>
                  %p = arith.mulf %i, %f : f32
                  %s = arith.addf %a2, %p : f32
                  affine.yield %s : f32
                } else {
                  affine.yield %a2 : f32
                }
                affine.yield %3 : f32
              }
              affine.yield %2 : f32
            }
            affine.yield %1 : f32
          }
          affine.store %0, %O[%n, %y, %x, %co] : memref<1x56x56x64xf32>
        }
      }
    }
  } {tilec.kernel = "contract_0_O"}
  return
}

// At stride 2 neighbouring image rows share one input row in three: the
// window keeps 2 vectors and 7 pixels but no block of image rows.
// AVX512-LABEL: func.func @conv_28x28_stride_2
// AVX512:       tilec.schedule = #tilec.schedule<block = [0, 0, 0, 32], thread = [1, 1, 7, 32], vector = 16, order = [3, 0, 1, 2]>
#pad28s2 = affine_set<(d0, d1, d2, d3, d4, d5, d6) : (d1 * 2 + d4 - 1 >= 0, -(d1 * 2 + d4 - 1) + 27 >= 0, d2 * 2 + d5 - 1 >= 0, -(d2 * 2 + d5 - 1) + 27 >= 0)>
func.func @conv_28x28_stride_2(%I: memref<1x28x28x128xf32>, %F: memref<3x3x128x128xf32>, %O: memref<1x14x14x128xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %y = 0 to 14 {
      affine.for %x = 0 to 14 {
        affine.for %co = 0 to 128 {
          %zero = arith.constant 0.000000e+00 : f32
          %0 = affine.for %ky = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
            %1 = affine.for %kx = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
              %2 = affine.for %ci = 0 to 128 iter_args(%a2 = %a1) -> (f32) {
                %3 = affine.if #pad28s2(%n, %y, %x, %co, %ky, %kx, %ci) -> f32 {
                  %i = affine.load %I[%n, %y * 2 + %ky - 1, %x * 2 + %kx - 1, %ci] : memref<1x28x28x128xf32>
                  %f = affine.load %F[%ky, %kx, %ci, %co] : memref<3x3x128x128xf32>
                  %p = arith.mulf %i, %f : f32
                  %s = arith.addf %a2, %p : f32
                  affine.yield %s : f32
                } else {
                  affine.yield %a2 : f32
                }
                affine.yield %3 : f32
              }
              affine.yield %2 : f32
            }
            affine.yield %1 : f32
          }
          affine.store %0, %O[%n, %y, %x, %co] : memref<1x14x14x128xf32>
        }
      }
    }
  } {tilec.kernel = "contract_0_O"}
  return
}

// A batch of 1-D windows: the loop before the pixels is the batch, which
// no reduction loop moves with, so this is no sliding window over rows and
// keeps 6 pixels of 4 vectors.
// AVX512-LABEL: func.func @conv1d_batch
// AVX512:       tilec.schedule = #tilec.schedule<block = [0, 0, 64], thread = [1, 6, 64], vector = 16, order = [2, 0, 1]>
#pad1d = affine_set<(d0, d1, d2, d3, d4) : (d1 + d3 - 1 >= 0, -(d1 + d3 - 1) + 27 >= 0)>
func.func @conv1d_batch(%I: memref<2x28x512xf32>, %F: memref<3x512x128xf32>, %O: memref<2x28x128xf32>) {
  affine.for %b = 0 to 2 {
    affine.for %x = 0 to 28 {
      affine.for %co = 0 to 128 {
        %zero = arith.constant 0.000000e+00 : f32
        %0 = affine.for %kx = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
          %1 = affine.for %ci = 0 to 512 iter_args(%a1 = %a0) -> (f32) {
            %2 = affine.if #pad1d(%b, %x, %co, %kx, %ci) -> f32 {
              %i = affine.load %I[%b, %x + %kx - 1, %ci] : memref<2x28x512xf32>
              %f = affine.load %F[%kx, %ci, %co] : memref<3x512x128xf32>
              %p = arith.mulf %i, %f : f32
              %s = arith.addf %a1, %p : f32
              affine.yield %s : f32
            } else {
              affine.yield %a1 : f32
            }
            affine.yield %2 : f32
          }
          affine.yield %1 : f32
        }
        affine.store %0, %O[%b, %x, %co] : memref<2x28x128xf32>
      }
    }
  } {tilec.kernel = "contract_0_O"}
  return
}
