// RUN: tilec-opt %s -split-input-file -verify-diagnostics -tilec-gpu-map-kernels

// Tensor-core schedules (mma = 1) the tiling rejects, each with the rule it
// breaks (OuterProductTiling.h): the device, the operands, the vector, the
// warp tile against the 16x8x16 instruction and its 8x4 lanes, the chunk
// against the k-step. The device is each module's #tilec.gpu_target.

module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 75, local_mem_bytes = 49152>} {
func.func @no_tensor_cores(%a: memref<64x48xbf16>, %b: memref<48x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': mma = 1 needs tensor cores: a CUDA device of compute capability 8.0 or newer (--target=ptx)}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 32], thread = [4, 4], vector = 8, warp = [32, 16], mma = 1>}
  return
}
}

// -----

module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152>} {
func.func @f32_operands(%a: memref<64x48xf32>, %b: memref<48x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': mma = 1 needs a sum of products of two f16 or two bf16 operands (two f32 with --allow-tf32), with no guard or one that takes or skips aligned runs of 8 reduction iterations}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 48 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<64x48xf32>
        %y = affine.load %b[%k, %j] : memref<48x64xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<64x64xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 32], thread = [4, 4], vector = 4, warp = [32, 16], mma = 1>}
  return
}
}

// -----

module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152>} {
func.func @vector_16(%a: memref<64x48xbf16>, %b: memref<48x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': the tensor-core tiling needs vector = 1, 2, 4 or 8, not 16}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 32], thread = [4, 4], vector = 16, warp = [32, 16], mma = 1>}
  return
}
}

// -----

module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152>} {
func.func @rows_not_instruction(%a: memref<64x48xbf16>, %b: memref<48x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': with mma = 1, warp[0] = 8 must be a multiple of 16 and 8 times thread[0] = 1}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 32], thread = [1, 4], vector = 8, warp = [8, 16], mma = 1>}
  return
}
}

// -----

module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152>} {
func.func @column_lanes(%a: memref<64x48xbf16>, %b: memref<48x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': with mma = 1, warp[1] = 16 must be a multiple of 8 and 4 times thread[1] = 2}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 32], thread = [4, 2], vector = 8, warp = [32, 16], mma = 1>}
  return
}
}

// -----

module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152>} {
func.func @chunk_not_k_step(%a: memref<64x48xbf16>, %b: memref<48x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': with mma = 1, the reduction block block[2] = 24 must be a multiple of 16 up to 48}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 24], thread = [4, 4], vector = 8, warp = [32, 16], mma = 1>}
  return
}
}

// -----

module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152>} {
func.func @chunk_past_reduction(%a: memref<64x48xbf16>, %b: memref<48x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': with mma = 1, the reduction block block[2] = 64 must be a multiple of 16 up to 48}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 64], thread = [4, 4], vector = 8, warp = [32, 16], mma = 1>}
  return
}
}

// -----

// cp.async pipelines: 16-byte copies (vector = 8) of aligned runs (A's rows
// of 44 bf16 are 88 bytes, no multiple of 16).

module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152>} {
func.func @pipeline_vector(%a: memref<64x48xbf16>, %b: memref<48x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': pipeline = 3 copies 16 bytes at a time: it needs vector = 8, not 4}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 32], thread = [4, 4], vector = 4, warp = [32, 16], mma = 1, pipeline = 3>}
  return
}
}

// -----

module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152>} {
func.func @pipeline_unaligned_rows(%a: memref<64x44xbf16>, %b: memref<44x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': pipeline = 3 needs operand 0 in runs of 16 aligned bytes along its tile's rows}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 44 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<64x44xbf16>
        %y = affine.load %b[%k, %j] : memref<44x64xbf16>
        %xe = arith.extf %x : bf16 to f32
        %ye = arith.extf %y : bf16 to f32
        %p = arith.mulf %xe, %ye : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      %r = arith.truncf %s : f32 to bf16
      affine.store %r, %c[%i, %j] : memref<64x64xbf16>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 32], thread = [4, 4], vector = 8, warp = [32, 16], mma = 1, pipeline = 3>}
  return
}
}

// -----

// Tensor-core tiles may take the shared memory a CUDA block opts in to
// (here 64 KiB), and no more: 4 buffers of 128 x (64 + 8) and 64 x (128 + 8)
// bf16 are 143 KiB.
module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152, shared_mem_opt_in_bytes = 65536>} {
func.func @above_opt_in(%a: memref<256x256xbf16>, %b: memref<256x256xbf16>, %c: memref<256x256xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': the staged tiles need 143360 bytes of local memory, above the 65536 of the device}}
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 256 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 256 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<256x256xbf16>
        %y = affine.load %b[%k, %j] : memref<256x256xbf16>
        %xe = arith.extf %x : bf16 to f32
        %ye = arith.extf %y : bf16 to f32
        %p = arith.mulf %xe, %ye : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      %r = arith.truncf %s : f32 to bf16
      affine.store %r, %c[%i, %j] : memref<256x256xbf16>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [128, 128, 64], thread = [8, 16], vector = 8, warp = [64, 64], mma = 1, pipeline = 4>}
  return
}
}

// -----

// A guard that changes within a run of 8 reduction iterations (a padded
// window over 4 channels: k floordiv 4) cannot be copied 16 bytes at a time.
#window4 = affine_set<(d0, d1) : (d0 + d1 floordiv 4 - 1 >= 0)>
module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152>} {
func.func @guard_within_runs(%a: memref<66x8xbf16>, %b: memref<8x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': mma = 1 needs a sum of products of two f16 or two bf16 operands (two f32 with --allow-tf32), with no guard or one that takes or skips aligned runs of 8 reduction iterations}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %t = affine.if #window4(%i, %k) -> f32 {
          %x = affine.load %a[%i + %k floordiv 4, %k] : memref<66x8xbf16>
          %y = affine.load %b[%k, %j] : memref<8x64xbf16>
          %xe = arith.extf %x : bf16 to f32
          %ye = arith.extf %y : bf16 to f32
          %p = arith.mulf %xe, %ye : f32
          %n = arith.addf %acc, %p : f32
          affine.yield %n : f32
        } else {
          affine.yield %acc : f32
        }
        affine.yield %t : f32
      }
      %r = arith.truncf %s : f32 to bf16
      affine.store %r, %c[%i, %j] : memref<64x64xbf16>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 16], thread = [4, 8], vector = 8, warp = [32, 32], mma = 1>}
  return
}
}

// -----

// A guard that reads the free loop of an operand staged along it (B[k, j],
// contiguous in j): a 16-byte copy along j would straddle taps it takes and
// skips.
#columns = affine_set<(d0) : (d0 - 8 >= 0)>
module attributes {tilec.gpu_target = #tilec.gpu_target<compute_capability = 90, local_mem_bytes = 49152>} {
func.func @guard_along_free(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{schedule of kernel 'k': mma = 1 stages operand 1 along its free loop, which the guard reads}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 32 iter_args(%acc = %zero) -> (f32) {
        %t = affine.if #columns(%j) -> f32 {
          %x = affine.load %a[%i, %k] : memref<64x32xbf16>
          %y = affine.load %b[%k, %j] : memref<32x64xbf16>
          %xe = arith.extf %x : bf16 to f32
          %ye = arith.extf %y : bf16 to f32
          %p = arith.mulf %xe, %ye : f32
          %n = arith.addf %acc, %p : f32
          affine.yield %n : f32
        } else {
          affine.yield %acc : f32
        }
        affine.yield %t : f32
      }
      %r = arith.truncf %s : f32 to bf16
      affine.store %r, %c[%i, %j] : memref<64x64xbf16>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 16], thread = [4, 8], vector = 8, warp = [32, 32], mma = 1>}
  return
}
}
