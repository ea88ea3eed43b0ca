// Every tile op prints and parses back: the output of a first tilec-opt run
// is parsed again by a second one, and both give the same text.
// RUN: tilec-opt %s | tilec-opt --mlir-print-local-scope | FileCheck %s
// RUN: tilec-opt %s --mlir-print-op-generic | tilec-opt --mlir-print-local-scope | FileCheck %s

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<f32>, tensor<2xsi32>, tensor<3x4xsi32>) {
  // CHECK: tile.constant dense<2.500000e+00> : tensor<f32>
  %0 = tile.constant dense<2.5> : tensor<f32>
  // CHECK: tile.constant dense<[2, 3]> : tensor<2xsi32>
  %1 = tile.constant dense<[2, 3]> : tensor<2xsi32>
  // CHECK: tile.index 1 : tensor<3x4xsi32>
  %2 = tile.index 1 : tensor<3x4xsi32>
  return %0, %1, %2 : tensor<f32>, tensor<2xsi32>, tensor<3x4xsi32>
}

// CHECK-LABEL: func.func @unary
func.func @unary(%f: tensor<4xf32>, %i: tensor<4xsi8>, %b: tensor<4xi1>) {
  // CHECK: tile.neg %{{.*}} : tensor<4xf32>
  %0 = tile.neg %f : tensor<4xf32>
  // CHECK: tile.bit_not %{{.*}} : tensor<4xsi8>
  %1 = tile.bit_not %i : tensor<4xsi8>
  // CHECK: tile.bit_not %{{.*}} : tensor<4xi1>
  %2 = tile.bit_not %b : tensor<4xi1>
  // CHECK: tile.exp
  %3 = tile.exp %f : tensor<4xf32>
  // CHECK: tile.log
  %4 = tile.log %f : tensor<4xf32>
  // CHECK: tile.sqrt
  %5 = tile.sqrt %f : tensor<4xf32>
  // CHECK: tile.sin
  %6 = tile.sin %f : tensor<4xf32>
  // CHECK: tile.cos
  %7 = tile.cos %f : tensor<4xf32>
  // CHECK: tile.tan
  %8 = tile.tan %f : tensor<4xf32>
  // CHECK: tile.asin
  %9 = tile.asin %f : tensor<4xf32>
  // CHECK: tile.acos
  %10 = tile.acos %f : tensor<4xf32>
  // CHECK: tile.atan
  %11 = tile.atan %f : tensor<4xf32>
  // CHECK: tile.sinh
  %12 = tile.sinh %f : tensor<4xf32>
  // CHECK: tile.cosh
  %13 = tile.cosh %f : tensor<4xf32>
  // CHECK: tile.tanh
  %14 = tile.tanh %f : tensor<4xf32>
  // CHECK: tile.asinh
  %15 = tile.asinh %f : tensor<4xf32>
  // CHECK: tile.acosh
  %16 = tile.acosh %f : tensor<4xf32>
  // CHECK: tile.atanh
  %17 = tile.atanh %f : tensor<4xf32>
  // CHECK: tile.floor
  %18 = tile.floor %f : tensor<4xf32>
  // CHECK: tile.ceil
  %19 = tile.ceil %f : tensor<4xf32>
  // CHECK: tile.round %{{.*}} : tensor<4xf32>
  %20 = tile.round %f : tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4x3xf32>, %b: tensor<3xf32>, %s: tensor<f32>,
                  %i: tensor<2x1xui16>, %j: tensor<5xui16>) {
  // CHECK: tile.add %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %0 = tile.add %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: tile.sub
  %1 = tile.sub %s, %a : (tensor<f32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK: tile.mul
  %2 = tile.mul %a, %a : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK: tile.div
  %3 = tile.div %b, %s : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  // CHECK: tile.shl %{{.*}}, %{{.*}} : (tensor<2x1xui16>, tensor<5xui16>) -> tensor<2x5xui16>
  %4 = tile.shl %i, %j : (tensor<2x1xui16>, tensor<5xui16>) -> tensor<2x5xui16>
  // CHECK: tile.shr
  %5 = tile.shr %i, %j : (tensor<2x1xui16>, tensor<5xui16>) -> tensor<2x5xui16>
  // CHECK: tile.bit_and
  %6 = tile.bit_and %i, %j : (tensor<2x1xui16>, tensor<5xui16>) -> tensor<2x5xui16>
  // CHECK: tile.bit_xor
  %7 = tile.bit_xor %i, %j : (tensor<2x1xui16>, tensor<5xui16>) -> tensor<2x5xui16>
  // CHECK: tile.bit_or
  %8 = tile.bit_or %i, %j : (tensor<2x1xui16>, tensor<5xui16>) -> tensor<2x5xui16>
  // CHECK: tile.pow %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<2x1xui16>) -> tensor<2x3xf32>
  %9 = tile.pow %b, %i : (tensor<3xf32>, tensor<2x1xui16>) -> tensor<2x3xf32>
  // CHECK: tile.cmp lt, %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xi1>
  %10 = tile.cmp lt, %a, %s : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xi1>
  // CHECK: tile.cmp ne
  %11 = tile.cmp ne, %i, %j : (tensor<2x1xui16>, tensor<5xui16>) -> tensor<2x5xi1>
  // CHECK: tile.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x3xi1>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %12 = tile.select %10, %b, %s : (tensor<4x3xi1>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
  // CHECK: tile.cast %{{.*}} : tensor<4x3xf32> -> tensor<4x3xbf16>
  %13 = tile.cast %a : tensor<4x3xf32> -> tensor<4x3xbf16>
  return
}

// CHECK-LABEL: func.func @contractions
func.func @contractions(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>,
                        %d: tensor<2x4xf32>, %x: tensor<5xsi32>) {
  // CHECK: tile.contract sum, mul (%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK-SAME: combine_type = f32
  // An empty constraint set prints as the trivially true (0 == 0).
  // CHECK-SAME: cons = affine_set<(d0, d1, d2) : (0 == 0)>
  // CHECK-SAME: lower_bounds = array<i64: 0, 0, 0>
  // CHECK-SAME: sink = affine_map<(d0, d1, d2) -> (d0, d1)>
  // CHECK-SAME: srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>]
  // CHECK-SAME: upper_bounds = array<i64: 1, 3, 2>
  // CHECK-SAME: var_names = ["i", "j", "k"]
  %0 = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      {combine_type = f32,
       sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>],
       cons = affine_set<(d0, d1, d2) : ()>,
       lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
       var_names = ["i", "j", "k"]}
  // A default, and a fractional index with its integrality constraint.
  // CHECK: tile.contract max, none (%{{.*}}) init(%{{.*}}) : (tensor<5xsi32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  // CHECK-SAME: cons = affine_set<(d0, d1) : (d0 mod 2 == 0, -d1 + 3 >= 0)>
  // CHECK-SAME: sink = affine_map<(d0, d1) -> (d0 floordiv 2, d1)>
  %1 = tile.contract max, none (%x) init(%d) : (tensor<5xsi32>, tensor<2x4xf32>) -> tensor<2x4xf32>
      {combine_type = si32,
       sink = affine_map<(d0, d1) -> (d0 floordiv 2, d1)>,
       srcs = [affine_map<(d0, d1) -> (d0)>],
       cons = affine_set<(d0, d1) : (d0 mod 2 == 0, -d1 + 3 >= 0)>,
       lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 2, 3>,
       var_names = ["i", "j"]}
  // CHECK: tile.contract min, add
  %2 = tile.contract min, add (%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
      {combine_type = f32, sink = affine_map<(d0, d1) -> ()>,
       srcs = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
       cons = affine_set<(d0, d1) : ()>,
       lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>,
       var_names = ["i", "j"]}
  // CHECK: tile.contract prod, eq
  %3 = tile.contract prod, eq (%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xsi32>
      {combine_type = f32, sink = affine_map<(d0, d1) -> (d0)>,
       srcs = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
       cons = affine_set<(d0, d1) : ()>,
       lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>,
       var_names = ["i", "j"]}
  // CHECK: tile.contract assign, cond
  %4 = tile.contract assign, cond (%a, %a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      {combine_type = f32, sink = affine_map<(d0, d1) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
               affine_map<(d0, d1) -> (d0, d1)>],
       cons = affine_set<(d0, d1) : ()>,
       lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>,
       var_names = ["i", "j"]}
  return
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%x: tensor<2x6xf32>, %v: tensor<5x3xf32>,
                         %i: tensor<2xsi32>, %e: tensor<2x3xf32>,
                         %s: tensor<3x2048xui32>) {
  // CHECK: tile.reshape %{{.*}} : tensor<2x6xf32> -> tensor<3x4xf32>
  %0 = tile.reshape %x : tensor<2x6xf32> -> tensor<3x4xf32>
  // CHECK: tile.gather %{{.*}}, %{{.*}} : (tensor<5x3xf32>, tensor<2xsi32>) -> tensor<2x3xf32>
  %1 = tile.gather %v, %i : (tensor<5x3xf32>, tensor<2xsi32>) -> tensor<2x3xf32>
  // CHECK: tile.scatter %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2xsi32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  %2 = tile.scatter %e, %i, %v : (tensor<2x3xf32>, tensor<2xsi32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  // CHECK: %{{.*}}, %{{.*}} = tile.prng %{{.*}} : (tensor<3x2048xui32>) -> (tensor<4x5xf32>, tensor<3x2048xui32>)
  %3:2 = tile.prng %s : (tensor<3x2048xui32>) -> (tensor<4x5xf32>, tensor<3x2048xui32>)
  return
}
