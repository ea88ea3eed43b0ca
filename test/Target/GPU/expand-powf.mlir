// tilec-gpu-expand-powf: GLSL's Pow is undefined for x < 0 and for
// x = 0, y <= 0, so math.powf becomes a pow of |x| with C's special cases
// around it: a zero base gives 0 or +inf by the exponent's sign, an odd
// integer exponent keeps the base's sign, a negative base with a
// non-integer exponent is NaN, a NaN operand is NaN, and pow(+-1, +-inf),
// pow(1, y) and pow(x, 0) are 1 (checked last, so they win).
// RUN: tilec-opt --tilec-gpu-expand-powf %s | FileCheck %s

// CHECK-LABEL: gpu.func @pow
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[ABSX:.*]] = math.absf %[[X]] : f32
// CHECK: %[[POW:.*]] = math.powf %[[ABSX]], %[[Y]] : f32
// CHECK: %[[ZEROBASE:.*]] = arith.cmpf oeq, %[[ABSX]], %[[ZERO]]
// CHECK: arith.select %{{.*}}, %[[INF]], %[[ZERO]]
// CHECK: math.floor %[[Y]]
// CHECK: arith.fptosi
// CHECK: math.copysign %[[ONE]], %[[X]]
// CHECK: arith.negf
// CHECK: arith.select %{{.*}}, %[[NAN]],
// CHECK: %[[UNORDERED:.*]] = arith.cmpf uno, %[[X]], %[[Y]]
// CHECK: arith.select %[[UNORDERED]], %[[NAN]],
// CHECK: %[[RESULT:.*]] = arith.select %{{.*}}, %[[ONE]],
// CHECK-NEXT: gpu.return %[[RESULT]] : f32
// CHECK-NOT: math.powf
gpu.module @k {
  gpu.func @pow(%x: f32, %y: f32) -> f32 {
    %p = math.powf %x, %y : f32
    gpu.return %p : f32
  }
}
