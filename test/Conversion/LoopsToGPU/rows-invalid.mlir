// RUN: tilec-opt %s -split-input-file -verify-diagnostics -tilec-gpu-map-kernels

// Row schedules (`row`) the kernel or the device cannot take, each with its
// rule (RowPlan.cpp); the device is the default profile (256 work-items).

// No reduction over the row's columns: an elementwise nest is no row nest.
func.func @elementwise(%a: memref<4x64xf32>, %b: memref<4x64xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': row = 32 needs a row nest: reductions, loops and scalars of each row whose written buffers are read at the row and column they were written}}
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 64 {
      %x = affine.load %a[%r, %c] : memref<4x64xf32>
      %y = arith.addf %x, %x : f32
      affine.store %y, %b[%r, %c] : memref<4x64xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [1, 1], thread = [1, 1], row = 32>}
  return
}

// -----

func.func @not_power_of_two(%a: memref<4x64xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': row = 48 is no power of 2}}
  affine.for %r = 0 to 4 {
    %zero = arith.constant 0.0 : f32
    %sum = affine.for %c = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%r, %c] : memref<4x64xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %sum, %s[%r] : memref<4xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [1], thread = [1], row = 48>}
  return
}

// -----

func.func @too_wide(%a: memref<4x64xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': row = 512 work-items exceed the device's 256}}
  affine.for %r = 0 to 4 {
    %zero = arith.constant 0.0 : f32
    %sum = affine.for %c = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%r, %c] : memref<4x64xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %sum, %s[%r] : memref<4xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [1], thread = [1], row = 512>}
  return
}

// -----

func.func @too_long(%a: memref<4x4096xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': row = 32 leaves 128 columns per work-item, above 64}}
  affine.for %r = 0 to 4 {
    %zero = arith.constant 0.0 : f32
    %sum = affine.for %c = 0 to 4096 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%r, %c] : memref<4x4096xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %sum, %s[%r] : memref<4xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [1], thread = [1], row = 32>}
  return
}

// -----

// A row scalar stored inside the columns loop: every work-item would store
// its own column's value.
func.func @scalar_in_columns(%a: memref<4x64xf32>, %s: memref<4x1xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': row = 32 needs a row nest}}
  affine.for %r = 0 to 4 {
    %zero = arith.constant 0.0 : f32
    %sum = affine.for %c = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%r, %c] : memref<4x64xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.for %c = 0 to 64 {
      %x = affine.load %a[%r, %c] : memref<4x64xf32>
      affine.store %x, %s[%r, 0] : memref<4x1xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [1], thread = [1], row = 32>}
  return
}
