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
