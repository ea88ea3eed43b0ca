// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(tilec-gpu-default-schedule))' | FileCheck %s
// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(tilec-kernel-set-gpu-target{target=#tilec.gpu_target<max_workgroup_size=64,compute_units=64>},func.func(tilec-gpu-default-schedule))' | FileCheck %s --check-prefix=SMALL

// A 256x256 contraction: the cost model's pick, a 4x4 register tile in a
// square 16x16 work-group (half the loads per output of the hand rule's
// 2x2, which it ranks more than 20% slower; measured faster on PoCL), one
// work-group per compute unit. With 64 work-items and 64 compute units,
// the hand rule's 8x8 work-groups of 2x2 tiles stay.
// CHECK-LABEL: func.func @matmul
// CHECK: tilec.schedule = #tilec.schedule<block = [64, 64], thread = [4, 4]>
// SMALL-LABEL: func.func @matmul
// SMALL: tilec.schedule = #tilec.schedule<block = [16, 16], thread = [2, 2]>
func.func @matmul(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 256 {
      %zero = arith.constant 0.0 : f32
      %sum = affine.for %k = 0 to 256 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<256x256xf32>
        %y = affine.load %b[%k, %j] : memref<256x256xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %c[%i, %j] : memref<256x256xf32>
    }
  } {tilec.kernel = "contract_0"}
  return
}

// -----

// Elementwise on 2x3x8: x takes 8, y 4 (3 rounded up), z 2; with fewer
// work-groups than compute units, the work-group halves along its widest
// side until it is one subgroup (32 work-items).
// CHECK-LABEL: func.func @elementwise
// CHECK: tilec.schedule = #tilec.schedule<block = [2, 4, 4], thread = [1, 1, 1]>
// SMALL-LABEL: func.func @elementwise
// SMALL: tilec.schedule = #tilec.schedule<block = [2, 4, 4],
func.func @elementwise(%a: memref<2x3x8xf32>, %b: memref<2x3x8xf32>) {
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      affine.for %k = 0 to 8 {
        %x = affine.load %a[%i, %j, %k] : memref<2x3x8xf32>
        %y = math.exp %x : f32
        affine.store %y, %b[%i, %j, %k] : memref<2x3x8xf32>
      }
    }
  } {tilec.kernel = "exp_0"}
  return
}

// -----

// The accumulation nest of a contraction that reduces in memory: k writes
// the same cell on every iteration, so only i and j are parallel and only
// they get sizes. A nest whose first loop already carries a dependence
// runs serially: an empty schedule. A kernel's own schedule is kept.
// CHECK-LABEL: func.func @accumulate
// CHECK: tilec.schedule = #tilec.schedule<block = [2, 4],
// CHECK: tilec.schedule = #tilec.schedule<>
// CHECK: tilec.schedule = #tilec.schedule<block = [7]>
func.func @accumulate(%a: memref<2x3x8xf32>, %s: memref<2x3xf32>, %t: memref<1xf32>) {
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      affine.for %k = 0 to 8 {
        %x = affine.load %a[%i, %j, %k] : memref<2x3x8xf32>
        %o = affine.load %s[%i, %j] : memref<2x3xf32>
        %y = arith.addf %x, %o : f32
        affine.store %y, %s[%i, %j] : memref<2x3xf32>
      }
    }
  } {tilec.kernel = "contract_0_Z"}
  affine.for %i = 0 to 2 {
    %x = affine.load %a[%i, 0, 0] : memref<2x3x8xf32>
    %o = affine.load %t[0] : memref<1xf32>
    %y = arith.addf %x, %o : f32
    affine.store %y, %t[0] : memref<1xf32>
  } {tilec.kernel = "contract_1_T"}
  affine.for %i = 0 to 2 {
    %x = affine.load %a[%i, 0, 0] : memref<2x3x8xf32>
    affine.store %x, %s[%i, 0] : memref<2x3xf32>
  } {tilec.kernel = "copy_2", tilec.schedule = #tilec.schedule<block = [7]>}
  return
}

// -----

// Each iteration reads the cell the next one writes: no cell is written
// twice, but iterations run in parallel would race (an anti-dependence), so
// the nest runs serially.
// CHECK-LABEL: func.func @anti_dependence
// CHECK: tilec.schedule = #tilec.schedule<>
func.func @anti_dependence(%a: memref<4xf32>) {
  affine.for %i = 0 to 3 {
    %x = affine.load %a[%i + 1] : memref<4xf32>
    affine.store %x, %a[%i] : memref<4xf32>
  } {tilec.kernel = "shift_0"}
  return
}
