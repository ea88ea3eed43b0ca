// Schedules whose vector width or loop order the mapping cannot honour: an
// error on the kernel, naming it, and nothing rewritten.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics -tilec-gpu-map-kernels

func.func @odd_width(%a: memref<12xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': vector = 3 is not one of 1, 2, 4, 8 and 16}}
  affine.for %i = 0 to 12 {
    %x = affine.load %a[%i] : memref<12xf32>
    affine.store %x, %a[%i] : memref<12xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<thread = [3], vector = 3>}
  return
}

// -----

func.func @thread_not_multiple(%a: memref<16xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': vector = 4 does not divide thread[0] = 2}}
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xf32>
    affine.store %x, %a[%i] : memref<16xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<thread = [2], vector = 4>}
  return
}

// -----

func.func @extent_not_multiple(%a: memref<10xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': vector = 4 does not divide the 10 iterations of loop 0}}
  affine.for %i = 0 to 10 {
    %x = affine.load %a[%i] : memref<10xf32>
    affine.store %x, %a[%i] : memref<10xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<thread = [4], vector = 4>}
  return
}

// -----

// The width applies to the x loop, which the order picks: here loop 0 of 6.
func.func @x_is_the_ordered_loop(%a: memref<6x8xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': vector = 4 does not divide the 6 iterations of loop 0}}
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 8 {
      %x = affine.load %a[%i, %j] : memref<6x8xf32>
      affine.store %x, %a[%i, %j] : memref<6x8xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<thread = [4, 4], vector = 4, order = [1, 0]>}
  return
}

// -----

func.func @no_parallel_loop(%t: memref<1xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': vector = 2 needs a parallel loop, and the kernel has none}}
  affine.for %i = 0 to 2 {
    %x = affine.load %t[0] : memref<1xf32>
    %y = arith.addf %x, %x : f32
    affine.store %y, %t[0] : memref<1xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<vector = 2>}
  return
}

// -----

func.func @staged(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': vector = 2 cannot be combined with staged operands}}
  affine.for %m = 0 to 8 {
    affine.for %n = 0 to 8 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%m, %k] : memref<8x8xf32>
        %y = affine.load %b[%k, %n] : memref<8x8xf32>
        %p = arith.mulf %x, %y : f32
        %q = arith.addf %acc, %p : f32
        affine.yield %q : f32
      }
      affine.store %s, %c[%m, %n] : memref<8x8xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<block = [8, 8, 4], thread = [1, 2], vector = 2, stage = [true, true]>}
  return
}

// -----

func.func @short_order(%a: memref<4x8xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': order has 1 entries but the kernel has 2 parallel loops}}
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %x = affine.load %a[%i, %j] : memref<4x8xf32>
      affine.store %x, %a[%i, %j] : memref<4x8xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<order = [0]>}
  return
}
