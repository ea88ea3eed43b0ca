// Every verifier error of the tile ops, one case per split.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// Shapes 3 and 4 do not broadcast.
func.func @f(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{operand shapes do not broadcast}}
  %r = tile.add %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// The result of a broadcast has the broadcast shape.
func.func @f(%a: tensor<3xf32>, %b: tensor<2x1xf32>) {
  // expected-error @+1 {{result shape must be the broadcast of the operand shapes}}
  %r = tile.mul %a, %b : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<3xf32>
  return
}

// -----

// Binary operands have the result's element type.
func.func @f(%a: tensor<3xf32>, %b: tensor<3xf16>) {
  // expected-error @+1 {{operands must have the result's element type}}
  %r = tile.sub %a, %b : (tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return
}

// -----

// Math functions take floats only.
func.func @f(%a: tensor<3xsi32>) {
  // expected-error @+1 {{must be statically shaped tensor of}}
  %r = tile.exp %a : tensor<3xsi32>
  return
}

// -----

// Signless integers are not Tile element types.
func.func @f(%a: tensor<3xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{must be statically shaped tensor of}}
  %r = tile.add %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

// The axis of tile.index is inside the rank.
func.func @f() {
  // expected-error @+1 {{'tile.index' op axis 2 is out of range for rank 2}}
  %r = tile.index 2 : tensor<3x4xsi32>
  return
}

// -----

// The base of tile.pow has the result's element type.
func.func @f(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{base must have the result's element type}}
  %r = tile.pow %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf64>
  return
}

// -----

// Compared operands share one element type.
func.func @f(%a: tensor<3xf32>, %b: tensor<3xf64>) {
  // expected-error @+1 {{operands must have one element type}}
  %r = tile.cmp lt, %a, %b : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xi1>
  return
}

// -----

// Comparisons give i1.
func.func @f(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{must be statically shaped tensor of 1-bit signless integer values}}
  %r = tile.cmp lt, %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// Both branches of a select have the result's element type.
func.func @f(%c: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xsi32>) {
  // expected-error @+1 {{branches must have the result's element type}}
  %r = tile.select %c, %a, %b : (tensor<3xi1>, tensor<3xf32>, tensor<3xsi32>) -> tensor<3xf32>
  return
}

// -----

// Shapes that do not broadcast are rejected for select too.
func.func @f(%c: tensor<2xi1>, %a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{operand shapes do not broadcast}}
  %r = tile.select %c, %a, %b : (tensor<2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// A cast keeps the shape.
func.func @f(%a: tensor<3xf32>) {
  // expected-error @+1 {{operand and result must have one shape}}
  %r = tile.cast %a : tensor<3xf32> -> tensor<4xsi32>
  return
}

// -----

// A mul combination takes two inputs.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{combination 'mul' takes 2 inputs, got 1}}
  %r = tile.contract sum, mul (%a) : (tensor<2x3xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// A cond combination takes three inputs.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{combination 'cond' takes 3 inputs, got 2}}
  %r = tile.contract sum, cond (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// The sink has no symbols.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{sink must have 3 dimensions and no symbols}}
  %r = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2)[s0] -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// The sink has one result per output dimension.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{sink must have 2 results, one per dimension}}
  %r = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// There is one source map per input.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{expects one source map per input, got 1 for 2}}
  %r = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// Every source map has the index variables as dimensions.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{source map #1 must have 3 dimensions and no symbols}}
  %r = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1) -> (d1, d0)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// A source map has one result per dimension of its input.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{source map #0 must have 2 results, one per dimension}}
  %r = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// The constraint set ranges over the index variables.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{constraint set must have 3 dimensions and no symbols}}
  %r = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>],
       cons = affine_set<(d0, d1) : (d0 >= 0)>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// Every index variable has a lower and an upper bound.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{expects 3 lower and upper bounds}}
  %r = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// Ranges are not empty.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{index variable #1 has an empty range [4, 3]}}
  %r = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 4, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// Every index variable has a name.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{expects 3 variable names}}
  %r = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j"]}
  return
}

// -----

// The default has the result's shape.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %d: tensor<4x2xf32>) {
  // expected-error @+1 {{init must have the result's shape}}
  %r = tile.contract sum, mul (%a, %b) init(%d) : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<2x4xf32>
      {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  return
}

// -----

// A reshape keeps the element type.
func.func @f(%a: tensor<2x6xf32>) {
  // expected-error @+1 {{operand and result must have one element type}}
  %r = tile.reshape %a : tensor<2x6xf32> -> tensor<12xf64>
  return
}

// -----

// A reshape keeps the element count.
func.func @f(%a: tensor<2x6xf32>) {
  // expected-error @+1 {{element count changes from 12 to 10}}
  %r = tile.reshape %a : tensor<2x6xf32> -> tensor<2x5xf32>
  return
}

// -----

// Gather reads rows of a tensor of rank 1 or more.
func.func @f(%v: tensor<f32>, %i: tensor<2xsi32>) {
  // expected-error @+1 {{values must have rank 1 or more}}
  %r = tile.gather %v, %i : (tensor<f32>, tensor<2xsi32>) -> tensor<2xf32>
  return
}

// -----

// Gather gives indices.shape ++ values.shape[1:].
func.func @f(%v: tensor<5x3xf32>, %i: tensor<2xsi32>) {
  // expected-error @+1 {{result must be of type 'tensor<2x3xf32>'}}
  %r = tile.gather %v, %i : (tensor<5x3xf32>, tensor<2xsi32>) -> tensor<3x2xf32>
  return
}

// -----

// Gather indices are integers.
func.func @f(%v: tensor<5x3xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{must be statically shaped tensor of}}
  %r = tile.gather %v, %i : (tensor<5x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Scatter updates begin with the indices' shape.
func.func @f(%e: tensor<4x3xf32>, %i: tensor<2xsi32>, %v: tensor<6xf32>) {
  // expected-error @+1 {{updates' shape must begin with the indices' shape}}
  %r = tile.scatter %e, %i, %v : (tensor<4x3xf32>, tensor<2xsi32>, tensor<6xf32>) -> tensor<6x3xf32>
  return
}

// -----

// Scatter takes its first size from values of rank 1 or more.
func.func @f(%e: tensor<4x3xf32>, %i: tensor<4xsi32>, %v: tensor<f32>) {
  // expected-error @+1 {{values must have rank 1 or more}}
  %r = tile.scatter %e, %i, %v : (tensor<4x3xf32>, tensor<4xsi32>, tensor<f32>) -> tensor<6x3xf32>
  return
}

// -----

// Scatter gives [values.d0] ++ updates.shape[rank(indices):].
func.func @f(%e: tensor<4x3xf32>, %i: tensor<4xsi32>, %v: tensor<6xf32>) {
  // expected-error @+1 {{result must be of type 'tensor<6x3xf32>'}}
  %r = tile.scatter %e, %i, %v : (tensor<4x3xf32>, tensor<4xsi32>, tensor<6xf32>) -> tensor<4x3xf32>
  return
}

// -----

// The prng state is ui32 [3, 2048].
func.func @f(%s: tensor<3x1024xui32>) {
  // expected-error @+1 {{state and new state must be tensor<3x2048xui32>}}
  %r:2 = tile.prng %s : (tensor<3x1024xui32>) -> (tensor<4xf32>, tensor<3x1024xui32>)
  return
}

// -----

// The prng values are f32.
func.func @f(%s: tensor<3x2048xui32>) {
  // expected-error @+1 {{must be statically shaped tensor of 32-bit float values}}
  %r:2 = tile.prng %s : (tensor<3x2048xui32>) -> (tensor<4xf16>, tensor<3x2048xui32>)
  return
}

// -----

// A constant's value has the result's type.
func.func @f() {
  // expected-error @+1 {{failed to verify that all of {value, result} have same type}}
  %r = "tile.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<2xf32>
  return
}
