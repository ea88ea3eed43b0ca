// RUN: tilec-opt %s -split-input-file -verify-diagnostics -tilec-gpu-split-reductions

// Schedules whose split the kernel cannot take, each with its rule.

// A sum that starts at 1.0: each slice would add it again.
func.func @not_identity(%a: memref<8x16xf32>, %b: memref<16x8xf32>, %c: memref<8x8xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': split = 2 needs a reduction that starts at its aggregation's identity}}
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %one = arith.constant 1.0 : f32
      %s = affine.for %k = 0 to 16 iter_args(%acc = %one) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x8xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<8x8xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<split = 2>}
  return
}

// -----

func.func @not_dividing(%a: memref<8x15xf32>, %b: memref<15x8xf32>, %c: memref<8x8xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': split = 2 does not divide the 15 iterations of the reduction}}
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 15 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<8x15xf32>
        %y = affine.load %b[%k, %j] : memref<15x8xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<8x8xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<split = 2>}
  return
}

// -----

func.func @one_operand(%a: memref<8x16xf32>, %c: memref<8xf32>) {
  // expected-error @+1 {{schedule of kernel 'k': split = 4 needs a contraction: one register reduction per cell combining two loaded operands}}
  affine.for %i = 0 to 8 {
    %zero = arith.constant 0.0 : f32
    %s = affine.for %k = 0 to 16 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<8x16xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %s, %c[%i] : memref<8xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<split = 4>}
  return
}
