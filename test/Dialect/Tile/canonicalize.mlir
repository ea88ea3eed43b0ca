// Folders of the tile ops, run through the canonicalizer.
// RUN: tilec-opt %s -split-input-file -canonicalize | FileCheck %s

// Float arithmetic on constants folds, rounding in the type.
// CHECK-LABEL: func.func @float_arith
// CHECK-NEXT: %[[C:.+]] = tile.constant dense<2.750000e+00> : tensor<f32>
// CHECK-NEXT: return %[[C]]
func.func @float_arith() -> tensor<f32> {
  %a = tile.constant dense<1.5> : tensor<f32>
  %b = tile.constant dense<2.5> : tensor<f32>
  %c = tile.mul %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %d = tile.sub %c, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %e = tile.div %d, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %f = tile.add %e, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %g = tile.sub %f, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}

// -----

// Integer arithmetic wraps; division by zero gives 0 and MIN / -1 gives MIN.
// CHECK-LABEL: func.func @int_arith
// CHECK-DAG: tile.constant dense<-128> : tensor<si8>
// CHECK-DAG: tile.constant dense<0> : tensor<si32>
// CHECK-DAG: tile.constant dense<-2147483648> : tensor<si32>
// CHECK-DAG: tile.constant dense<127> : tensor<ui8>
// CHECK-DAG: tile.constant dense<-3> : tensor<si32>
// CHECK-NOT: tile.add
// CHECK-NOT: tile.div
func.func @int_arith() -> (tensor<si8>, tensor<si32>, tensor<si32>, tensor<ui8>, tensor<si32>) {
  %max = tile.constant dense<127> : tensor<si8>
  %one = tile.constant dense<1> : tensor<si8>
  %wrap = tile.add %max, %one : (tensor<si8>, tensor<si8>) -> tensor<si8>
  %x = tile.constant dense<7> : tensor<si32>
  %zero = tile.constant dense<0> : tensor<si32>
  %byzero = tile.div %x, %zero : (tensor<si32>, tensor<si32>) -> tensor<si32>
  %min = tile.constant dense<-2147483648> : tensor<si32>
  %m1 = tile.constant dense<-1> : tensor<si32>
  %minover = tile.div %min, %m1 : (tensor<si32>, tensor<si32>) -> tensor<si32>
  %u = tile.constant dense<255> : tensor<ui8>
  %two = tile.constant dense<2> : tensor<ui8>
  %udiv = tile.div %u, %two : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
  %neg7 = tile.constant dense<-7> : tensor<si32>
  %two32 = tile.constant dense<2> : tensor<si32>
  %trunc = tile.div %neg7, %two32 : (tensor<si32>, tensor<si32>) -> tensor<si32>
  return %wrap, %byzero, %minover, %udiv, %trunc : tensor<si8>, tensor<si32>, tensor<si32>, tensor<ui8>, tensor<si32>
}

// -----

// Shifts are arithmetic on signed and logical on unsigned types; a count
// out of range is unspecified and left alone. Bitwise ops fold.
// CHECK-LABEL: func.func @shifts_and_bits
// CHECK-DAG: tile.constant dense<-4> : tensor<si8>
// CHECK-DAG: tile.constant dense<124> : tensor<ui8>
// CHECK-DAG: tile.constant dense<32> : tensor<si8>
// CHECK-DAG: tile.constant dense<6> : tensor<si8>
// CHECK-DAG: tile.constant dense<true> : tensor<i1>
// CHECK: tile.shl
// CHECK-NOT: tile.shr
// CHECK-NOT: tile.bit_
func.func @shifts_and_bits() -> (tensor<si8>, tensor<ui8>, tensor<si8>, tensor<si8>, tensor<i1>, tensor<si8>) {
  %s = tile.constant dense<-8> : tensor<si8>
  %u = tile.constant dense<248> : tensor<ui8>
  %one = tile.constant dense<1> : tensor<si8>
  %oneu = tile.constant dense<1> : tensor<ui8>
  %a = tile.shr %s, %one : (tensor<si8>, tensor<si8>) -> tensor<si8>
  %b = tile.shr %u, %oneu : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
  %four = tile.constant dense<4> : tensor<si8>
  %c0 = tile.constant dense<2> : tensor<si8>
  %c = tile.shl %c0, %four : (tensor<si8>, tensor<si8>) -> tensor<si8>
  %five = tile.constant dense<5> : tensor<si8>
  %x = tile.bit_xor %five, %c0 : (tensor<si8>, tensor<si8>) -> tensor<si8>
  %y = tile.bit_and %x, %four : (tensor<si8>, tensor<si8>) -> tensor<si8>
  %z = tile.bit_or %y, %c0 : (tensor<si8>, tensor<si8>) -> tensor<si8>
  %f = tile.constant dense<false> : tensor<i1>
  %t = tile.bit_not %f : tensor<i1>
  %nine = tile.constant dense<9> : tensor<si8>
  %out = tile.shl %one, %nine : (tensor<si8>, tensor<si8>) -> tensor<si8>
  return %a, %b, %c, %z, %t, %out : tensor<si8>, tensor<ui8>, tensor<si8>, tensor<si8>, tensor<i1>, tensor<si8>
}

// -----

// Comparisons with NaN are false except ne; select picks by != 0.
// CHECK-LABEL: func.func @compare_select
// CHECK-DAG: %[[F:.+]] = tile.constant dense<false> : tensor<i1>
// CHECK-DAG: %[[T:.+]] = tile.constant dense<true> : tensor<i1>
// CHECK-DAG: %[[S:.+]] = tile.constant dense<2.000000e+00> : tensor<f32>
// CHECK: return %[[F]], %[[T]], %[[S]], %[[T]]
func.func @compare_select() -> (tensor<i1>, tensor<i1>, tensor<f32>, tensor<i1>) {
  %nan = tile.constant dense<0x7FC00000> : tensor<f32>
  %one = tile.constant dense<1.0> : tensor<f32>
  %two = tile.constant dense<2.0> : tensor<f32>
  %lt = tile.cmp lt, %nan, %one : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %ne = tile.cmp ne, %nan, %one : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %sel = tile.select %nan, %two, %one : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %m = tile.constant dense<-1> : tensor<si32>
  %p = tile.constant dense<1> : tensor<si32>
  %ult = tile.cmp lt, %m, %p : (tensor<si32>, tensor<si32>) -> tensor<i1>
  return %lt, %ne, %sel, %ult : tensor<i1>, tensor<i1>, tensor<f32>, tensor<i1>
}

// -----

// A select between one value is that value.
// CHECK-LABEL: func.func @select_same
// CHECK-SAME: (%{{.*}}: tensor<3xi1>, %[[A:.+]]: tensor<3xf32>)
// CHECK-NEXT: return %[[A]]
func.func @select_same(%c: tensor<3xi1>, %a: tensor<3xf32>) -> tensor<3xf32> {
  %r = tile.select %c, %a, %a : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Elementwise folding broadcasts non-splat constants.
// CHECK-LABEL: func.func @broadcast_fold
// CHECK-NEXT: tile.constant dense<{{\[\[}}11, 12, 13], [21, 22, 23]]> : tensor<2x3xsi32>
func.func @broadcast_fold() -> tensor<2x3xsi32> {
  %a = tile.constant dense<[1, 2, 3]> : tensor<3xsi32>
  %b = tile.constant dense<[[10], [20]]> : tensor<2x1xsi32>
  %c = tile.add %a, %b : (tensor<3xsi32>, tensor<2x1xsi32>) -> tensor<2x3xsi32>
  return %c : tensor<2x3xsi32>
}

// -----

// Rounding functions and negation fold exactly; transcendental ones do not.
// CHECK-LABEL: func.func @unary
// CHECK-DAG: tile.constant dense<[2.000000e+00, -3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: tile.constant dense<[3.000000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: tile.constant dense<[3.000000e+00, -3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: tile.constant dense<[-2.500000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK-DAG: tile.constant dense<-5> : tensor<si16>
// CHECK: tile.exp
func.func @unary() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<si16>, tensor<2xf32>) {
  %x = tile.constant dense<[2.5, -2.5]> : tensor<2xf32>
  %f = tile.floor %x : tensor<2xf32>
  %c = tile.ceil %x : tensor<2xf32>
  %r = tile.round %x : tensor<2xf32>
  %n = tile.neg %x : tensor<2xf32>
  %i = tile.constant dense<5> : tensor<si16>
  %ni = tile.neg %i : tensor<si16>
  %e = tile.exp %x : tensor<2xf32>
  return %f, %c, %r, %n, %ni, %e : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<si16>, tensor<2xf32>
}

// -----

// Casts follow docs/language.md 5.4: sign or zero extension then low bits,
// float to integer truncates, anything to i1 is != 0; NaN to an integer is
// unspecified and stays.
// CHECK-LABEL: func.func @casts
// CHECK-DAG: tile.constant dense<65535> : tensor<ui16>
// CHECK-DAG: tile.constant dense<255> : tensor<si16>
// CHECK-DAG: tile.constant dense<-2> : tensor<si32>
// CHECK-DAG: tile.constant dense<true> : tensor<i1>
// CHECK-DAG: tile.constant dense<1.000000e+00> : tensor<bf16>
// CHECK: tile.cast %{{.*}} : tensor<f32> -> tensor<si32>
func.func @casts() -> (tensor<ui16>, tensor<si16>, tensor<si32>, tensor<i1>, tensor<bf16>, tensor<si32>) {
  %m1 = tile.constant dense<-1> : tensor<si8>
  %a = tile.cast %m1 : tensor<si8> -> tensor<ui16>
  %u = tile.constant dense<255> : tensor<ui8>
  %b = tile.cast %u : tensor<ui8> -> tensor<si16>
  %f = tile.constant dense<-2.75> : tensor<f32>
  %c = tile.cast %f : tensor<f32> -> tensor<si32>
  %d = tile.cast %f : tensor<f32> -> tensor<i1>
  %t = tile.constant dense<true> : tensor<i1>
  %e = tile.cast %t : tensor<i1> -> tensor<bf16>
  %nan = tile.constant dense<0x7FC00000> : tensor<f32>
  %g = tile.cast %nan : tensor<f32> -> tensor<si32>
  return %a, %b, %c, %d, %e, %g : tensor<ui16>, tensor<si16>, tensor<si32>, tensor<i1>, tensor<bf16>, tensor<si32>
}

// -----

// A cast to the operand's own type is the operand.
// CHECK-LABEL: func.func @cast_same
// CHECK-SAME: (%[[A:.+]]: tensor<3xf32>)
// CHECK-NEXT: return %[[A]]
func.func @cast_same(%a: tensor<3xf32>) -> tensor<3xf32> {
  %r = tile.cast %a : tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// A chain of reshapes is one reshape; a reshape to the same type is nothing.
// CHECK-LABEL: func.func @reshape_chain
// CHECK-SAME: (%[[A:.+]]: tensor<2x6xf32>)
// CHECK-NEXT: %[[R:.+]] = tile.reshape %[[A]] : tensor<2x6xf32> -> tensor<3x4xf32>
// CHECK-NEXT: return %[[R]], %[[A]]
func.func @reshape_chain(%a: tensor<2x6xf32>) -> (tensor<3x4xf32>, tensor<2x6xf32>) {
  %0 = tile.reshape %a : tensor<2x6xf32> -> tensor<12xf32>
  %1 = tile.reshape %0 : tensor<12xf32> -> tensor<3x4xf32>
  %2 = tile.reshape %a : tensor<2x6xf32> -> tensor<2x6xf32>
  return %1, %2 : tensor<3x4xf32>, tensor<2x6xf32>
}

// -----

// A reshape of a constant is a constant.
// CHECK-LABEL: func.func @reshape_constant
// CHECK-NEXT: tile.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xsi32>
func.func @reshape_constant() -> tensor<2x2xsi32> {
  %c = tile.constant dense<[1, 2, 3, 4]> : tensor<4xsi32>
  %r = tile.reshape %c : tensor<4xsi32> -> tensor<2x2xsi32>
  return %r : tensor<2x2xsi32>
}

// -----

// O[i, j] = =(A[i, j]) copies A, whatever the aggregation.
// CHECK-LABEL: func.func @identity_contraction
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[A]], %[[A]]
func.func @identity_contraction(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tile.contract assign, none (%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
      {combine_type = f32, sink = affine_map<(d0, d1) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1) -> (d0, d1)>], cons = affine_set<(d0, d1) : ()>,
       lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>,
       var_names = ["i", "j"]}
  %1 = tile.contract sum, none (%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
      {combine_type = f32, sink = affine_map<(d0, d1) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1) -> (d0, d1)>], cons = affine_set<(d0, d1) : ()>,
       lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>,
       var_names = ["i", "j"]}
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A transpose and a constrained copy are not copies of A; a default is
// left for the lowering to judge. All three stay.
// CHECK-LABEL: func.func @not_identity
// CHECK-COUNT-3: tile.contract
func.func @not_identity(%a: tensor<3x3xf32>, %d: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>) {
  %0 = tile.contract assign, none (%a) : (tensor<3x3xf32>) -> tensor<3x3xf32>
      {combine_type = f32, sink = affine_map<(d0, d1) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1) -> (d1, d0)>], cons = affine_set<(d0, d1) : ()>,
       lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 2, 2>,
       var_names = ["i", "j"]}
  %1 = tile.contract assign, none (%a) : (tensor<3x3xf32>) -> tensor<3x3xf32>
      {combine_type = f32, sink = affine_map<(d0, d1) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1) -> (d0, d1)>], cons = affine_set<(d0, d1) : (d0 - d1 >= 0)>,
       lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 2, 2>,
       var_names = ["i", "j"]}
  %2 = tile.contract assign, none (%a) init(%d) : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
      {combine_type = f32, sink = affine_map<(d0, d1) -> (d0, d1)>,
       srcs = [affine_map<(d0, d1) -> (d0, d1)>], cons = affine_set<(d0, d1) : ()>,
       lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 2, 2>,
       var_names = ["i", "j"]}
  return %0, %1, %2 : tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>
}
