// RUN: tilec-opt %s -split-input-file -tile-compute-bounds | FileCheck %s

// k < 3 is an inequality over k alone: the range [0, 2] implies it, so it
// goes; the two-variable i - k >= 0 stays, and so does the integrality
// equality.
// CHECK: #[[$SET:.+]] = affine_set<(d0, d1) : (d0 - d1 >= 0, (d0 + d1) mod 2 == 0)>
// CHECK-LABEL: func.func @fold
// CHECK: cons = #[[$SET]]
func.func @fold(%x: tensor<8xf32>) -> tensor<4xf32> {
  %o = tile.contract sum, none (%x) : (tensor<8xf32>) -> tensor<4xf32> {combine_type = f32, sink = affine_map<(d0, d1) -> (d0)>, srcs = [affine_map<(d0, d1) -> (d0 + d1)>], cons = affine_set<(d0, d1) : (d1 >= 0, -d1 + 2 >= 0, d0 - d1 >= 0, (d0 + d1) mod 2 == 0)>, lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 3, 2>, var_names = ["i", "k"]}
  return %o : tensor<4xf32>
}


// -----

// When every constraint folds, the set becomes the universe 0 == 0.
// CHECK: #[[$ALL:.+]] = affine_set<(d0) : (0 == 0)>
// CHECK-LABEL: func.func @all
// CHECK: cons = #[[$ALL]]
func.func @all(%x: tensor<8xf32>) -> tensor<4xf32> {
  %o = tile.contract sum, none (%x) : (tensor<8xf32>) -> tensor<4xf32> {combine_type = f32, sink = affine_map<(d0) -> (d0)>, srcs = [affine_map<(d0) -> (d0)>], cons = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, lower_bounds = array<i64: 0>, upper_bounds = array<i64: 3>, var_names = ["i"]}
  return %o : tensor<4xf32>
}
