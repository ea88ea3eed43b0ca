// tilec-gpu-expand-division-by-zero: a division by a constant +0.0 or
// -0.0, scalar or splat, becomes a multiplication by the infinity of the
// zero's sign; any other division stays. (MLIR's own folders leave x / 0.0
// alone: they fold constant operands only.)
// RUN: tilec-opt --tilec-gpu-expand-division-by-zero %s | FileCheck %s

// CHECK-LABEL: func.func @zeros
func.func @zeros(%x: f32, %v: vector<4xf32>, %d: f64) -> (f32, f32, vector<4xf32>, f64) {
  %zero = arith.constant 0.0 : f32
  %negzero = arith.constant -0.0 : f32
  %splat = arith.constant dense<0.0> : vector<4xf32>
  %dzero = arith.constant 0.0 : f64
  // CHECK-DAG: %[[INF:.*]] = arith.constant 0x7F800000 : f32
  // CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
  // CHECK-DAG: %[[VINF:.*]] = arith.constant dense<0x7F800000> : vector<4xf32>
  // CHECK-DAG: %[[DINF:.*]] = arith.constant 0x7FF0000000000000 : f64
  // CHECK-DAG: arith.mulf %{{.*}}, %[[INF]] : f32
  // CHECK-DAG: arith.mulf %{{.*}}, %[[NEGINF]] : f32
  // CHECK-DAG: arith.mulf %{{.*}}, %[[VINF]] : vector<4xf32>
  // CHECK-DAG: arith.mulf %{{.*}}, %[[DINF]] : f64
  // CHECK-NOT: arith.divf
  %0 = arith.divf %x, %zero : f32
  %1 = arith.divf %x, %negzero : f32
  %2 = arith.divf %v, %splat : vector<4xf32>
  %3 = arith.divf %d, %dzero : f64
  return %0, %1, %2, %3 : f32, f32, vector<4xf32>, f64
}

// f16 arithmetic computes in f32: the zero arrives extended.
// CHECK-LABEL: func.func @extended
func.func @extended(%x: f32) -> f32 {
  %zero = arith.constant -0.0 : f16
  %wide = arith.extf %zero : f16 to f32
  // CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
  // CHECK: arith.mulf %{{.*}}, %[[NEGINF]] : f32
  // CHECK-NOT: arith.divf
  %0 = arith.divf %x, %wide : f32
  return %0 : f32
}

// CHECK-LABEL: func.func @others
func.func @others(%x: f32, %y: f32) -> (f32, f32) {
  %two = arith.constant 2.0 : f32
  // CHECK: arith.divf %{{.*}}, %{{.*}} : f32
  // CHECK: arith.divf %{{.*}}, %{{.*}} : f32
  %0 = arith.divf %x, %two : f32
  %1 = arith.divf %x, %y : f32
  return %0, %1 : f32, f32
}
