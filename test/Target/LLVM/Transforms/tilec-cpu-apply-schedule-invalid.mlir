// RUN: tilec-opt %s -tilec-cpu-apply-schedule -split-input-file -verify-diagnostics
//
// Schedules that are malformed or do not fit their kernel are errors.

func.func @not_power_of_two(%A: memref<8xf32>, %C: memref<8xf32>) {
  // expected-error @+1 {{tilec.schedule: 'vector' must be a power of two, not 3}}
  affine.for %i = 0 to 8 {
    %0 = affine.load %A[%i] : memref<8xf32>
    affine.store %0, %C[%i] : memref<8xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<vector = 3>}
  return
}

// -----

func.func @too_many_loops(%A: memref<8xf32>, %C: memref<8xf32>) {
  // expected-error @+1 {{tilec.schedule: names 3 loops, the kernel has 1}}
  affine.for %i = 0 to 8 {
    %0 = affine.load %A[%i] : memref<8xf32>
    affine.store %0, %C[%i] : memref<8xf32>
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<thread = [1, 2, 4]>}
  return
}

// -----

func.func @order_size(%A: memref<4x8xf32>, %C: memref<4x8xf32>) {
  // expected-error @+1 {{tilec.schedule: 'order' must permute the 2 parallel loops, it has 1 entries}}
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %0 = affine.load %A[%i, %j] : memref<4x8xf32>
      affine.store %0, %C[%i, %j] : memref<4x8xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<order = [0]>}
  return
}

// -----

func.func @lanes_not_whole_vectors(%A: memref<4x8xf32>, %C: memref<4x8xf32>) {
  // expected-error @+1 {{tilec.schedule: the innermost parallel loop's thread tile (6) is no multiple of 'vector' (4)}}
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %0 = affine.load %A[%i, %j] : memref<4x8xf32>
      affine.store %0, %C[%i, %j] : memref<4x8xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<thread = [1, 6], vector = 4>}
  return
}

// -----

func.func @too_many_points(%A: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @+1 {{tilec.schedule: a thread tile of 1024 points, at most 256}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %0 = affine.load %A[%i, %j] : memref<64x64xf32>
      affine.store %0, %C[%i, %j] : memref<64x64xf32>
    }
  } {tilec.kernel = "k", tilec.schedule = #tilec.schedule<thread = [32, 32]>}
  return
}
