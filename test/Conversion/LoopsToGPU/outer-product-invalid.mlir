// RUN: tilec-opt %s -split-input-file -verify-diagnostics '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<local_mem_bytes=16384>' -tilec-gpu-map-kernels

// Schedules the outer-product tiling (a non-empty warp) rejects, each with
// the rule it breaks (OuterProductTiling.h).

func.func @warp_not_multiple(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': warp[1] = 12 must be a multiple of thread[1] = 4 dividing the block 32}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 8], thread = [4, 4], vector = 4, warp = [8, 12]>}
  return
}

// -----

func.func @warp_not_dividing(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': warp[1] = 64 must be a multiple of thread[1] = 4 dividing the block 32}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 8], thread = [4, 4], vector = 4, warp = [8, 64]>}
  return
}

// -----

func.func @vector_width(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': the outer-product tiling needs vector = 2 or 4, not 1}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 8], thread = [4, 4], vector = 1, warp = [8, 16]>}
  return
}

// -----

func.func @vector_thread(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': vector = 4 does not divide thread[1] = 2}}
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
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 8], thread = [4, 2], vector = 4, warp = [8, 16]>}
  return
}

// -----

func.func @chunk_too_long(%a: memref<64x8xf32>, %b: memref<8x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': the reduction block block[2] = 16 must be between 1 and the 8 iterations of the reduction}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<64x8xf32>
        %y = affine.load %b[%k, %j] : memref<8x64xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<64x64xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 16], thread = [4, 4], vector = 4, warp = [8, 16]>}
  return
}

// -----

func.func @local_memory(%a: memref<64x512xf32>, %b: memref<512x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': the staged tiles need 262144 bytes of local memory, above the 16384 of the device}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 512 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<64x512xf32>
        %y = affine.load %b[%k, %j] : memref<512x64xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<64x64xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [64, 64, 256], thread = [4, 4], vector = 4, warp = [8, 16], buffers = 2>}
  return
}

// -----

// Not a contraction of two operands: a row sum reads one.
func.func @one_operand(%a: memref<64x32xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': the outer-product tiling (warp) needs a contraction: one register reduction per cell combining two loaded operands}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 32 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<64x32xf32>
        %n = arith.addf %acc, %x : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<64x64xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [32, 32, 8], thread = [4, 4], vector = 4, warp = [8, 16]>}
  return
}

// -----

// A batched product whose order puts its batch loop on grid y, where the
// tiling needs the rows' free loop.
func.func @batch_on_y(%a: memref<4x32x8xf32>, %b: memref<4x8x32xf32>, %c: memref<4x32x32xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': loop 0 on grid y is the free loop of neither operand of the contraction}}
  affine.for %n = 0 to 4 {
    affine.for %i = 0 to 32 {
      affine.for %j = 0 to 32 {
        %zero = arith.constant 0.0 : f32
        %s = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
          %x = affine.load %a[%n, %i, %k] : memref<4x32x8xf32>
          %y = affine.load %b[%n, %k, %j] : memref<4x8x32xf32>
          %p = arith.mulf %x, %y : f32
          %q = arith.addf %acc, %p : f32
          affine.yield %q : f32
        }
        affine.store %s, %c[%n, %i, %j] : memref<4x32x32xf32>
      }
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [4, 1, 32, 8], thread = [4, 1, 4], vector = 4, warp = [4, 1, 16], order = [1, 0, 2]>}
  return
}
