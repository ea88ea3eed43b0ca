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
// output map is not a permutation, or one used twice, is not.
// CHECK-LABEL: func.func @legality
// CHECK: tile.contract assign{{.*}}-> tensor<3x2xf32>
// CHECK-SAME: tilec.fused
// CHECK: tile.contract assign{{.*}}-> tensor<8xf32>
// CHECK-SAME: srcs = [{{[^]]*}}], upper_bounds
// CHECK: tile.contract sum{{.*}}-> tensor<3xf32>
// CHECK-SAME: srcs = [{{[^]]*}}], upper_bounds
func.func @legality(%x: tensor<2x3xf32>, %y: tensor<4xf32>) -> (tensor<3x2xf32>, tensor<8xf32>, tensor<3xf32>) {
  %t = tile.contract assign, none (%x) : (tensor<2x3xf32>) -> tensor<3x2xf32> {combine_type = f32, sink = affine_map<(d0, d1) -> (d1, d0)>, srcs = [affine_map<(d0, d1) -> (d0, d1)>], cons = affine_set<(d0, d1) : ()>, lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>, var_names = ["i", "j"]}
  %tn = tile.neg %t : tensor<3x2xf32>
  %u = tile.contract assign, none (%y) : (tensor<4xf32>) -> tensor<8xf32> {combine_type = f32, sink = affine_map<(d0) -> (d0 * 2)>, srcs = [affine_map<(d0) -> (d0)>], cons = affine_set<(d0) : ()>, lower_bounds = array<i64: 0>, upper_bounds = array<i64: 3>, var_names = ["i"]}
  %un = tile.neg %u : tensor<8xf32>
  %m = tile.contract sum, none (%x) : (tensor<2x3xf32>) -> tensor<3xf32> {combine_type = f32, sink = affine_map<(d0, d1) -> (d1)>, srcs = [affine_map<(d0, d1) -> (d0, d1)>], cons = affine_set<(d0, d1) : ()>, lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>, var_names = ["i", "j"]}
  %m2 = tile.add %m, %m : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %tn, %un, %m2 : tensor<3x2xf32>, tensor<8xf32>, tensor<3xf32>
}
