// RUN: tilec-opt %s -split-input-file -verify-diagnostics '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<max_workgroup_size=64,local_mem_bytes=1024>' -tilec-gpu-map-kernels

func.func @no_schedule(%a: memref<4xf32>) {
  // expected-error @+1 {{kernel has no tilec.schedule}}
  affine.for %i = 0 to 4 {
    %x = affine.load %a[%i] : memref<4xf32>
    affine.store %x, %a[%i] : memref<4xf32>
  } {tilec.kernel = "k"}
  return
}

// -----

func.func @not_a_multiple(%a: memref<4xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': block[0] = 3 is not a multiple of thread[0] = 2}}
  affine.for %i = 0 to 4 {
    %x = affine.load %a[%i] : memref<4xf32>
    affine.store %x, %a[%i] : memref<4xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [3], thread = [2]>}
  return
}

// -----

func.func @too_wide(%a: memref<512xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': a work-group of 128 work-items exceeds the device limit of 64}}
  affine.for %i = 0 to 512 {
    %x = affine.load %a[%i] : memref<512xf32>
    affine.store %x, %a[%i] : memref<512xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [128]>}
  return
}

// -----

func.func @too_deep(%a: memref<2x2x128xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': 128 work-items along z exceed the device limit of 64}}
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 2 {
      affine.for %k = 0 to 2 {
        %x = affine.load %a[%j, %k, %i] : memref<2x2x128xf32>
        affine.store %x, %a[%j, %k, %i] : memref<2x2x128xf32>
      }
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [128, 1, 1]>}
  return
}

// -----

func.func @stage_missing(%a: memref<4x4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': stage[1] names no operand: the kernel reads 1 memrefs}}
  affine.for %i = 0 to 4 {
    %zero = arith.constant 0.0 : f32
    %s = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<4x4xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %s, %b[%i] : memref<4xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<stage = [false, true]>}
  return
}

// -----

func.func @stage_elementwise(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': stages operands, but the kernel is no register reduction inside parallel loops}}
  affine.for %i = 0 to 4 {
    %x = affine.load %a[%i] : memref<4xf32>
    affine.store %x, %b[%i] : memref<4xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<stage = [true]>}
  return
}

// -----

func.func @stage_too_big(%a: memref<64x512xf32>, %b: memref<64xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': the staged tiles need 8192 bytes of local memory, above the 1024 of the device}}
  affine.for %i = 0 to 64 {
    %zero = arith.constant 0.0 : f32
    %s = affine.for %k = 0 to 512 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<64x512xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %s, %b[%i] : memref<64xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [4, 512], stage = [true]>}
  return
}

// -----

func.func @stage_outside(%a: memref<4x4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': operand 0 cannot be staged: it is read outside the reduction}}
  affine.for %i = 0 to 4 {
    %init = affine.load %a[%i, 0] : memref<4x4xf32>
    %s = affine.for %k = 0 to 4 iter_args(%acc = %init) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<4x4xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %s, %b[%i] : memref<4xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<stage = [true]>}
  return
}
