// RUN: tilec-opt %s -tilec-cpu-inline-vector-math | FileCheck %s
//
// exp and tanh of f32 become arithmetic on the op's own type (vector stays
// vector);
// exp of f64 and the other functions keep their math ops (libm).

// CHECK-LABEL: func.func @vector_exp
// CHECK-NOT: math.exp
// CHECK: math.roundeven {{.*}} : vector<8xf32>
// CHECK: math.fma {{.*}} : vector<8xf32>
// CHECK: arith.fptosi {{.*}} : vector<8xf32> to vector<8xi32>
// CHECK: arith.bitcast {{.*}} : vector<8xi32> to vector<8xf32>
// CHECK: arith.cmpf uno
// CHECK-NOT: math.exp
// CHECK: return
func.func @vector_exp(%x: vector<8xf32>) -> vector<8xf32> {
  %e = math.exp %x : vector<8xf32>
  return %e : vector<8xf32>
}

// CHECK-LABEL: func.func @scalar_exp
// CHECK-NOT: math.exp
// CHECK: math.fma {{.*}} : f32
// CHECK: return
func.func @scalar_exp(%x: f32) -> f32 {
  %e = math.exp %x : f32
  return %e : f32
}

// CHECK-LABEL: func.func @left_alone
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.atanh %{{.*}} : f32
func.func @left_alone(%x: f64, %y: f32) -> (f64, f32) {
  %e = math.exp %x : f64
  %t = math.atanh %y : f32
  return %e, %t : f64, f32
}

// tanh of f32: the polynomial below 0.625 and 1 - 2 / (exp(2|x|) + 1)
// above, selected per lane, the sign copied back.
// CHECK-LABEL: func.func @vector_tanh
// CHECK-NOT: math.tanh
// CHECK: math.absf {{.*}} : vector<4xf32>
// CHECK: math.roundeven {{.*}} : vector<4xf32>
// CHECK: math.copysign {{.*}} : vector<4xf32>
// CHECK: arith.cmpf olt
// CHECK: arith.select {{.*}} : vector<4xi1>, vector<4xf32>
// CHECK-NOT: math.tanh
func.func @vector_tanh(%x: vector<4xf32>) -> vector<4xf32> {
  %t = math.tanh %x : vector<4xf32>
  return %t : vector<4xf32>
}

// 1 + tanh(w) (either order, the 1 a splat or a broadcast) and 1 - tanh(w)
// become 2 / (1 + exp(-+2w)): no tanh's polynomial, one exp (its
// roundeven) and one division.
// CHECK-LABEL: func.func @one_plus_tanh
// CHECK-NOT: math.absf
// CHECK: %[[MINUS_TWO:.*]] = arith.constant dense<-2.000000e+00> : vector<8xf32>
// CHECK: arith.mulf %arg0, %[[MINUS_TWO]]
// CHECK: math.roundeven
// CHECK-NOT: math.roundeven
// CHECK: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : vector<8xf32>
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: arith.divf %[[TWO]], %[[SUM]]
// CHECK-NOT: math.absf
// CHECK: return
func.func @one_plus_tanh(%w: vector<8xf32>) -> vector<8xf32> {
  %one = arith.constant dense<1.0> : vector<8xf32>
  %t = math.tanh %w : vector<8xf32>
  %s = arith.addf %one, %t : vector<8xf32>
  return %s : vector<8xf32>
}

// CHECK-LABEL: func.func @tanh_plus_broadcast_one
// CHECK-NOT: math.absf
// CHECK: %[[MINUS_TWO:.*]] = arith.constant dense<-2.000000e+00> : vector<8xf32>
// CHECK: arith.mulf %arg0, %[[MINUS_TWO]] : vector<8xf32>
// CHECK: math.roundeven
// CHECK-NOT: math.absf
// CHECK: arith.divf
func.func @tanh_plus_broadcast_one(%w: vector<8xf32>) -> vector<8xf32> {
  %c1 = arith.constant 1.0 : f32
  %one = vector.broadcast %c1 : f32 to vector<8xf32>
  %t = math.tanh %w : vector<8xf32>
  %s = arith.addf %t, %one : vector<8xf32>
  return %s : vector<8xf32>
}

// CHECK-LABEL: func.func @one_minus_tanh
// CHECK-NOT: math.absf
// CHECK: %[[PLUS_TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: arith.mulf %arg0, %[[PLUS_TWO]] : f32
// CHECK-NOT: math.absf
// CHECK: arith.divf
func.func @one_minus_tanh(%w: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %t = math.tanh %w : f32
  %s = arith.subf %one, %t : f32
  return %s : f32
}

// tanh - 1, 2 + tanh and a tanh used twice keep the whole tanh.
// CHECK-LABEL: func.func @not_one_plus_tanh
// CHECK-COUNT-3: math.absf
// CHECK-NOT: math.absf
// CHECK: return
func.func @not_one_plus_tanh(%w: f32) -> (f32, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %t = math.tanh %w : f32
  %a = arith.subf %t, %one : f32
  %u = math.tanh %w : f32
  %b = arith.addf %two, %u : f32
  %v = math.tanh %w : f32
  %c = arith.addf %one, %v : f32
  %d = arith.mulf %v, %v : f32
  return %a, %b, %c, %d : f32, f32, f32, f32
}
