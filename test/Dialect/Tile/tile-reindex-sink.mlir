// RUN: tilec-opt %s -split-input-file -tile-reindex-sink -mlir-print-local-scope | FileCheck %s

// Q[j + c, u : 23, 24] = +(A[c, y, j]): a unimodular change of variables.
// j has the widest range, so j = o0 - c; u = o1. The coordinates come
// first, then the free c and y; j's range [0, 19] becomes a constraint.
// CHECK-LABEL: func.func @unimodular
// CHECK: tile.contract sum, none
// CHECK-SAME: cons = affine_set<(d0, d1, d2, d3) : (d0 - d2 >= 0, -d0 + d2 + 19 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0, 0, 0>
// CHECK-SAME: sink = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-SAME: srcs = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0 - d2)>]
// CHECK-SAME: upper_bounds = array<i64: 22, 23, 3, 32>
// CHECK-SAME: var_names = ["o0", "o1", "c", "y"]
func.func @unimodular(%a: tensor<4x33x20xsi32>) -> tensor<23x24xsi32> {
  %q = tile.contract sum, none (%a) : (tensor<4x33x20xsi32>) -> tensor<23x24xsi32> {combine_type = si32, cons = affine_set<(d0, d1, d2, d3) : (0 == 0)>, lower_bounds = array<i64: 0, 0, 0, 0>, sink = affine_map<(d0, d1, d2, d3) -> (d0 + d1, d2)>, srcs = [affine_map<(d0, d1, d2, d3) -> (d1, d3, d0)>], upper_bounds = array<i64: 19, 3, 23, 32>, var_names = ["j", "c", "u", "y"]}
  return %q : tensor<23x24xsi32>
}

// -----

// Q[2 * j : 11]: the rows are not primitive, so the lattice form: j is
// o0 floordiv 2 where 2 divides o0; odd cells receive nothing. j <= 4 makes
// o0 <= 8.
// CHECK-LABEL: func.func @lattice
// CHECK: tile.contract sum, none
// CHECK-SAME: cons = affine_set<(d0) : (d0 mod 2 == 0)>
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: sink = affine_map<(d0) -> (d0)>
// CHECK-SAME: srcs = [affine_map<(d0) -> (d0 floordiv 2)>]
// CHECK-SAME: upper_bounds = array<i64: 8>
func.func @lattice(%a: tensor<5xsi32>) -> tensor<11xsi32> {
  %q = tile.contract sum, none (%a) : (tensor<5xsi32>) -> tensor<11xsi32> {combine_type = si32, cons = affine_set<(d0) : (0 == 0)>, lower_bounds = array<i64: 0>, sink = affine_map<(d0) -> (d0 * 2)>, srcs = [affine_map<(d0) -> (d0)>], upper_bounds = array<i64: 4>, var_names = ["j"]}
  return %q : tensor<11xsi32>
}

// -----

// Q[2 * i + k : 21], a transposed convolution: i (range 9) is solved for
// on the lattice of k, and k steps through its residue class, k = o0 mod 2
// + 2 * t, so that each cell loops over t in [0, 1] and needs no
// divisibility test; k <= 2 is one (k >= 0 holds by construction).
// CHECK-LABEL: func.func @transposed_conv
// CHECK: tile.contract sum, mul
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 floordiv 2 - d1 >= 0, -(d0 floordiv 2 - d1) + 8 >= 0, -(d0 mod 2 + d1 * 2) + 2 >= 0)>
// CHECK-SAME: sink = affine_map<(d0, d1) -> (d0)>
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> (d0 floordiv 2 - d1)>, affine_map<(d0, d1) -> (d0 mod 2 + d1 * 2)>]
// CHECK-SAME: upper_bounds = array<i64: 18, 1>
// CHECK-SAME: var_names = ["o0", "k.t"]
func.func @transposed_conv(%s: tensor<9xsi32>, %w: tensor<3xsi32>) -> tensor<21xsi32> {
  %q = tile.contract sum, mul (%s, %w) : (tensor<9xsi32>, tensor<3xsi32>) -> tensor<21xsi32> {combine_type = si32, cons = affine_set<(d0, d1) : (0 == 0)>, lower_bounds = array<i64: 0, 0>, sink = affine_map<(d0, d1) -> (d0 * 2 + d1)>, srcs = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>], upper_bounds = array<i64: 8, 2>, var_names = ["i", "k"]}
  return %q : tensor<21xsi32>
}

// -----

// Q[2 * i - k + 2 : 21]: the partner's coefficient is -1, so k's residue is
// that of -(o0 - 2) and i rounds up.
// CHECK-LABEL: func.func @negative_partner
// CHECK: tile.contract sum, mul
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> ((d0 - 2) ceildiv 2 + d1)>, affine_map<(d0, d1) -> ((-(d0 - 2)) mod 2 + d1 * 2)>]
// CHECK-SAME: upper_bounds = array<i64: 18, 1>
func.func @negative_partner(%s: tensor<9xsi32>, %w: tensor<3xsi32>) -> tensor<21xsi32> {
  %q = tile.contract sum, mul (%s, %w) : (tensor<9xsi32>, tensor<3xsi32>) -> tensor<21xsi32> {combine_type = si32, cons = affine_set<(d0, d1) : (0 == 0)>, lower_bounds = array<i64: 0, 0>, sink = affine_map<(d0, d1) -> (d0 * 2 - d1 + 2)>, srcs = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>], upper_bounds = array<i64: 8, 2>, var_names = ["i", "k"]}
  return %q : tensor<21xsi32>
}

// -----

// Q[4 * r + c : 12] with c in [0, 3], a flattening: r = o0 floordiv 4 and
// c = o0 mod 4 exactly, with nothing left to loop over (t in [0, 0]).
// CHECK-LABEL: func.func @flatten
// CHECK: tile.contract sum, none
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> (d0 floordiv 4 - d1, d0 mod 4 + d1 * 4)>]
// CHECK-SAME: upper_bounds = array<i64: 11, 0>
func.func @flatten(%m: tensor<3x4xsi32>) -> tensor<12xsi32> {
  %q = tile.contract sum, none (%m) : (tensor<3x4xsi32>) -> tensor<12xsi32> {combine_type = si32, cons = affine_set<(d0, d1) : (0 == 0)>, lower_bounds = array<i64: 0, 0>, sink = affine_map<(d0, d1) -> (d0 * 4 + d1)>, srcs = [affine_map<(d0, d1) -> (d0, d1)>], upper_bounds = array<i64: 2, 3>, var_names = ["r", "c"]}
  return %q : tensor<12xsi32>
}

// -----

// Q[j + c + 3 : 12]: the constant moves into the solution, j = o0 - c - 3,
// and the cells below 3 are out of the coordinate's range.
// CHECK-LABEL: func.func @constant_offset
// CHECK: tile.contract sum, none
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 - d1 - 3 >= 0, -d0 + d1 + 8 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 3, 0>
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> (d1, d0 - d1 - 3)>]
// CHECK-SAME: upper_bounds = array<i64: 11, 3>
func.func @constant_offset(%a: tensor<4x6xsi32>) -> tensor<12xsi32> {
  %q = tile.contract sum, none (%a) : (tensor<4x6xsi32>) -> tensor<12xsi32> {combine_type = si32, cons = affine_set<(d0, d1) : (0 == 0)>, lower_bounds = array<i64: 0, 0>, sink = affine_map<(d0, d1) -> (d0 + d1 + 3)>, srcs = [affine_map<(d0, d1) -> (d1, d0)>], upper_bounds = array<i64: 5, 3>, var_names = ["j", "c"]}
  return %q : tensor<12xsi32>
}

// -----

// Q[i + j, i - j + 4 : 8, 9]: both variables are solved for, the second
// on the lattice (i + j and i - j have one parity); nothing is left to
// reduce, and each old range is a constraint.
// CHECK-LABEL: func.func @two_rows
// CHECK: tile.contract sum, none
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 - (d1 - (-d0 + 4)) floordiv 2 >= 0, -(d0 - (d1 - (-d0 + 4)) floordiv 2) + 4 >= 0, (d1 - (-d0 + 4)) mod 2 == 0, (d1 - (-d0 + 4)) floordiv 2 >= 0, -((d1 - (-d0 + 4)) floordiv 2) + 3 >= 0)>
// CHECK-SAME: sink = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> ((d1 - (-d0 + 4)) floordiv 2, d0 - (d1 - (-d0 + 4)) floordiv 2)>]
// CHECK-SAME: upper_bounds = array<i64: 7, 7>
// CHECK-SAME: var_names = ["o0", "o1"]
func.func @two_rows(%a: tensor<4x5xsi32>) -> tensor<8x9xsi32> {
  %q = tile.contract sum, none (%a) : (tensor<4x5xsi32>) -> tensor<8x9xsi32> {combine_type = si32, cons = affine_set<(d0, d1) : (0 == 0)>, lower_bounds = array<i64: 0, 0>, sink = affine_map<(d0, d1) -> (d0 + d1, d0 - d1 + 4)>, srcs = [affine_map<(d0, d1) -> (d0, d1)>], upper_bounds = array<i64: 3, 4>, var_names = ["i", "j"]}
  return %q : tensor<8x9xsi32>
}

// -----

// Q[i, i]: the second row has no variable left to solve for, so it becomes
// an equality between the coordinates.
// CHECK-LABEL: func.func @diagonal
// CHECK: tile.contract sum, none
// CHECK-SAME: cons = affine_set<(d0, d1) : (-d0 + d1 == 0)>
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> (d0)>]
// CHECK-SAME: upper_bounds = array<i64: 3, 3>
func.func @diagonal(%a: tensor<4xsi32>) -> tensor<4x4xsi32> {
  %q = tile.contract sum, none (%a) : (tensor<4xsi32>) -> tensor<4x4xsi32> {combine_type = si32, cons = affine_set<(d0) : (0 == 0)>, lower_bounds = array<i64: 0>, sink = affine_map<(d0) -> (d0, d0)>, srcs = [affine_map<(d0) -> (d0)>], upper_bounds = array<i64: 3>, var_names = ["i"]}
  return %q : tensor<4x4xsi32>
}

// -----

// Q[i / 2 : 4] with the integrality i mod 2 == 0: the index is exactly
// i / 2, so i = 2 * o0 and the integrality holds by construction.
// CHECK-LABEL: func.func @exact_quotient
// CHECK: tile.contract sum, none
// CHECK-SAME: cons = affine_set<(d0) : (0 == 0)>
// CHECK-SAME: srcs = [affine_map<(d0) -> (d0 * 2)>]
// CHECK-SAME: upper_bounds = array<i64: 3>
func.func @exact_quotient(%a: tensor<8xsi32>) -> tensor<4xsi32> {
  %q = tile.contract sum, none (%a) : (tensor<8xsi32>) -> tensor<4xsi32> {combine_type = si32, cons = affine_set<(d0) : (d0 mod 2 == 0)>, lower_bounds = array<i64: 0>, sink = affine_map<(d0) -> (d0 floordiv 2)>, srcs = [affine_map<(d0) -> (d0)>], upper_bounds = array<i64: 6>, var_names = ["i"]}
  return %q : tensor<4xsi32>
}

// -----

// Q[i + j : 10] = +(A[i + j] * B[j]): after i = o0 - j the access A[o0]
// is over the coordinate alone, which the lowering takes as implied by its
// range, so the range narrows to A's [0, 3].
// CHECK-LABEL: func.func @narrowed
// CHECK: tile.contract sum, mul
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 - d1 + 2 >= 0, -d0 + d1 + 3 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>]
// CHECK-SAME: upper_bounds = array<i64: 3, 2>
func.func @narrowed(%a: tensor<4xsi32>, %b: tensor<3xsi32>) -> tensor<10xsi32> {
  %q = tile.contract sum, mul (%a, %b) : (tensor<4xsi32>, tensor<3xsi32>) -> tensor<10xsi32> {combine_type = si32, cons = affine_set<(d0, d1) : (0 == 0)>, lower_bounds = array<i64: -2, 0>, sink = affine_map<(d0, d1) -> (d0 + d1)>, srcs = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>], upper_bounds = array<i64: 3, 2>, var_names = ["i", "j"]}
  return %q : tensor<10xsi32>
}

// -----

// No valid assignment reaches the output (A[i + j - 9] needs i + j >= 9,
// which the output's 6 cells do not have): the ranges stay non-empty, as
// the op requires, and a false constraint says that nothing is written.
// CHECK-LABEL: func.func @unreachable
// CHECK: tile.contract sum, none
// CHECK-SAME: cons = affine_set<(d0, d1) : ({{.*}}, -1 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> (d0 - 9)>]
// CHECK-SAME: upper_bounds = array<i64: 0, 9>
func.func @unreachable(%a: tensor<3xsi32>) -> tensor<6xsi32> {
  %q = tile.contract sum, none (%a) : (tensor<3xsi32>) -> tensor<6xsi32> {combine_type = si32, cons = affine_set<(d0, d1) : (0 == 0)>, lower_bounds = array<i64: 0, 0>, sink = affine_map<(d0, d1) -> (d0 + d1)>, srcs = [affine_map<(d0, d1) -> (d0 + d1 - 9)>], upper_bounds = array<i64: 9, 9>, var_names = ["i", "j"]}
  return %q : tensor<6xsi32>
}

// -----

// The default and the aggregation are kept as they are.
// CHECK-LABEL: func.func @max_default
// CHECK: tile.contract max, none ({{%[a-z0-9]+}}) init({{%[a-z0-9]+}})
// CHECK-SAME: sink = affine_map<(d0, d1) -> (d0)>
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> (d1, d0 - d1)>]
func.func @max_default(%a: tensor<4x6xsi32>, %d: tensor<12xsi32>) -> tensor<12xsi32> {
  %q = tile.contract max, none (%a) init(%d) : (tensor<4x6xsi32>, tensor<12xsi32>) -> tensor<12xsi32> {combine_type = si32, cons = affine_set<(d0, d1) : (0 == 0)>, lower_bounds = array<i64: 0, 0>, sink = affine_map<(d0, d1) -> (d0 + d1)>, srcs = [affine_map<(d0, d1) -> (d1, d0)>], upper_bounds = array<i64: 5, 3>, var_names = ["j", "c"]}
  return %q : tensor<12xsi32>
}

// -----

// A sink that already names each cell once (a variable plus a constant, a
// constant) is left alone.
// CHECK-LABEL: func.func @per_cell
// CHECK: tile.contract sum, none
// CHECK-SAME: sink = affine_map<(d0, d1) -> (d0 + 1, 0)>
// CHECK-SAME: var_names = ["i", "k"]
func.func @per_cell(%a: tensor<3x4xsi32>) -> tensor<5x1xsi32> {
  %q = tile.contract sum, none (%a) : (tensor<3x4xsi32>) -> tensor<5x1xsi32> {combine_type = si32, cons = affine_set<(d0, d1) : (0 == 0)>, lower_bounds = array<i64: 0, 0>, sink = affine_map<(d0, d1) -> (d0 + 1, 0)>, srcs = [affine_map<(d0, d1) -> (d0, d1)>], upper_bounds = array<i64: 2, 3>, var_names = ["i", "k"]}
  return %q : tensor<5x1xsi32>
}

// -----

// Q[i floordiv 2 : 4] without the integrality of i / 2 (two values of i
// meet in each cell): i cannot be solved for under the floordiv, so the
// row becomes an equality and i stays a reduction variable.
// CHECK-LABEL: func.func @floordiv_row
// CHECK: tile.contract sum, none
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 - d1 floordiv 2 == 0)>
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> (d1)>]
// CHECK-SAME: upper_bounds = array<i64: 3, 7>
// CHECK-SAME: var_names = ["o0", "i"]
func.func @floordiv_row(%a: tensor<8xsi32>) -> tensor<4xsi32> {
  %q = tile.contract sum, none (%a) : (tensor<8xsi32>) -> tensor<4xsi32> {combine_type = si32, cons = affine_set<(d0) : (0 == 0)>, lower_bounds = array<i64: 0>, sink = affine_map<(d0) -> (d0 floordiv 2)>, srcs = [affine_map<(d0) -> (d0)>], upper_bounds = array<i64: 7>, var_names = ["i"]}
  return %q : tensor<4xsi32>
}
