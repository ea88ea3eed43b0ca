// RUN: tilec-opt %s -split-input-file -tile-fuse-elementwise | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-fuse-elementwise -convert-tile-to-loops | FileCheck %s --check-prefix=LOOPS

// The matmul feeds one elementwise op of its shape, and the cast feeds the
// matmul: both fuse, and the whole group is one loop nest.
// CHECK-LABEL: func.func @group
// CHECK: tile.cast {{.*}}tilec.fused
// CHECK: tile.contract {{.*}}tilec.fused
// CHECK: tile.exp
// CHECK-NOT: tilec.fused
// CHECK: return
// LOOPS-LABEL: func.func @group
// LOOPS-NOT: memref.alloc
// LOOPS: affine.for
// LOOPS: arith.sitofp
// LOOPS: math.exp
// LOOPS: } {tilec.kernel = "exp_0"}
// LOOPS-NEXT: return
func.func @group(%a: tensor<2x3xsi32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %f = tile.cast %a : tensor<2x3xsi32> -> tensor<2x3xf32>
  %c = tile.contract sum, mul (%f, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], cons = affine_set<(d0, d1, d2) : ()>, lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>, var_names = ["i", "j", "k"]}
  %e = tile.exp %c : tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// A transposing sink is still a permutation: fused. A contraction whose
// output map is not a permutation is not. One read twice by the same
// kernel is fused (and computed once per cell: see @read_twice).
// CHECK-LABEL: func.func @legality
// CHECK: tile.contract assign{{.*}}-> tensor<3x2xf32>
// CHECK-SAME: tilec.fused
// CHECK: tile.contract assign{{.*}}-> tensor<8xf32>
// CHECK-SAME: srcs = [{{[^]]*}}], upper_bounds
// CHECK: tile.contract sum{{.*}}-> tensor<3xf32>
// CHECK-SAME: tilec.fused
func.func @legality(%x: tensor<2x3xf32>, %y: tensor<4xf32>) -> (tensor<3x2xf32>, tensor<8xf32>, tensor<3xf32>) {
  %t = tile.contract assign, none (%x) : (tensor<2x3xf32>) -> tensor<3x2xf32> {combine_type = f32, sink = affine_map<(d0, d1) -> (d1, d0)>, srcs = [affine_map<(d0, d1) -> (d0, d1)>], cons = affine_set<(d0, d1) : ()>, lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>, var_names = ["i", "j"]}
  %tn = tile.neg %t : tensor<3x2xf32>
  %u = tile.contract assign, none (%y) : (tensor<4xf32>) -> tensor<8xf32> {combine_type = f32, sink = affine_map<(d0) -> (d0 * 2)>, srcs = [affine_map<(d0) -> (d0)>], cons = affine_set<(d0) : ()>, lower_bounds = array<i64: 0>, upper_bounds = array<i64: 3>, var_names = ["i"]}
  %un = tile.neg %u : tensor<8xf32>
  %m = tile.contract sum, none (%x) : (tensor<2x3xf32>) -> tensor<3xf32> {combine_type = f32, sink = affine_map<(d0, d1) -> (d1)>, srcs = [affine_map<(d0, d1) -> (d0, d1)>], cons = affine_set<(d0, d1) : ()>, lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>, var_names = ["i", "j"]}
  %m2 = tile.add %m, %m : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %tn, %un, %m2 : tensor<3x2xf32>, tensor<8xf32>, tensor<3xf32>
}

// -----

// `max(C, 0)` reads the matmul twice (compare, then select): everything is
// one loop nest, and the reduction runs once per cell.
// CHECK-LABEL: func.func @read_twice
// CHECK: tile.contract {{.*}}tilec.fused
// CHECK: tile.cmp {{.*}}tilec.fused
// CHECK: tile.select
// CHECK-NOT: tilec.fused
// LOOPS-LABEL: func.func @read_twice
// LOOPS-NOT: memref.alloc
// LOOPS: affine.for
// LOOPS: affine.for
// LOOPS: iter_args
// LOOPS-NOT: iter_args
// LOOPS: arith.cmpf
// LOOPS: arith.select
// LOOPS: } {tilec.kernel = "select_0"}
func.func @read_twice(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], cons = affine_set<(d0, d1, d2) : ()>, lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>, var_names = ["i", "j", "k"]}
  %gt = tile.cmp gt, %c, %zero : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xi1>
  %r = tile.select %gt, %c, %zero : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Matmul, then an elementwise op, then another matmul reading it. The first
// matmul ends in the elementwise op (its epilogue); that op is not fused
// into the second matmul, which would redo the first one at every
// multiply-add of the second.
// CHECK-LABEL: func.func @chain
// CHECK: tile.contract {{.*}}tilec.fused
// CHECK: tile.exp
// CHECK-NOT: tilec.fused
// CHECK: tile.contract
// CHECK-NOT: tilec.fused
// CHECK: return
// A value read by two kernels is not fused into either.
// CHECK-LABEL: func.func @two_kernels
// CHECK: tile.exp
// CHECK-NOT: tilec.fused
// CHECK: return
func.func @chain(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<4x5xf32>) -> tensor<2x5xf32> {
  %ab = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], cons = affine_set<(d0, d1, d2) : ()>, lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>, var_names = ["i", "j", "k"]}
  %e = tile.exp %ab : tensor<2x4xf32>
  %r = tile.contract sum, mul (%e, %c) : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32> {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], cons = affine_set<(d0, d1, d2) : ()>, lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 4, 3>, var_names = ["i", "j", "k"]}
  return %r : tensor<2x5xf32>
}
func.func @two_kernels(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tile.exp %a : tensor<4xf32>
  %n = tile.neg %e : tensor<4xf32>
  %s = tile.sqrt %e : tensor<4xf32>
  return %n, %s : tensor<4xf32>, tensor<4xf32>
}

// -----

// Two matmuls summed (a convolution plus a projection shortcut, a sum of
// gradients): one kernel holds at most one contraction, so the later
// matmul fuses into the sum and the earlier one gets its own kernel and a
// buffer that the sum reads.
// CHECK-LABEL: func.func @two_contractions
// CHECK: tile.contract
// CHECK-NOT: tilec.fused
// CHECK-SAME: -> tensor<2x4xf32>
// CHECK: tile.contract {{.*}}tilec.fused
// CHECK: tile.add
// CHECK-NOT: tilec.fused
// CHECK: return
// LOOPS-LABEL: func.func @two_contractions
// LOOPS: memref.alloc
// LOOPS: } {tilec.kernel = "contract_0"}
// LOOPS: iter_args
// LOOPS-NOT: iter_args
// LOOPS: } {tilec.kernel = "add_1"}
func.func @two_contractions(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x5xf32>, %d: tensor<5x4xf32>) -> tensor<2x4xf32> {
  %ab = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], cons = affine_set<(d0, d1, d2) : ()>, lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>, var_names = ["i", "j", "k"]}
  %cd = tile.contract sum, mul (%c, %d) : (tensor<2x5xf32>, tensor<5x4xf32>) -> tensor<2x4xf32> {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], cons = affine_set<(d0, d1, d2) : ()>, lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 4, 4>, var_names = ["i", "j", "k"]}
  %s = tile.add %ab, %cd : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}
