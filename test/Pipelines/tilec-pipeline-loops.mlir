// RUN: tilec-opt %s -tilec-pipeline-loops | FileCheck %s

// The whole tile-to-loops pipeline: the single-use matmul fuses into the
// scale; %y is born after %s dies, so it takes over %s's buffer; every
// kernel carries a fingerprint.
// CHECK-LABEL: func.func @main
// CHECK-SAME: attributes {tilec.entry}
// CHECK: %[[A:.+]] = memref.alloc() : memref<2x4xf32>
// CHECK: %[[B:.+]] = memref.alloc() : memref<2x4xf32>
// CHECK-NOT: memref.alloc
// CHECK: iter_args
// CHECK: arith.mulf
// CHECK: affine.store %{{.+}}, %[[A]]
// CHECK: {tilec.fingerprint = "{{[0-9a-f]+}}", tilec.kernel = "mul_{{[0-9]+}}"}
// CHECK: affine.store %{{.+}}, %[[B]]
// CHECK: tilec.kernel = "add_
// CHECK: affine.store %{{.+}}, %[[A]]
// CHECK: tilec.kernel = "add_
// CHECK: tilec.kernel = "add_
// CHECK: memref.dealloc %[[A]]
// CHECK: memref.dealloc %[[B]]
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %c = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], cons = affine_set<(d0, d1, d2) : ()>, lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>, var_names = ["i", "j", "k"]}
  %two = tile.constant dense<2.0> : tensor<f32>
  %s = tile.mul %c, %two : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %x = tile.add %s, %s : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = tile.add %x, %x : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tile.add %y, %y : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
