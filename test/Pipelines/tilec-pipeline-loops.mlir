// RUN: tilec-opt %s -tilec-pipeline-loops | FileCheck %s

// The whole tile-to-loops pipeline: the matmul fuses into %s, which reads
// it twice in one kernel (one reduction); %s is read by two kernels, so it
// gets a buffer; %e and %n, read once, fuse into their readers; every
// kernel carries a fingerprint.
// CHECK-LABEL: func.func @main
// CHECK-SAME: attributes {tilec.entry}
// CHECK: %[[S:.+]] = memref.alloc() : memref<2x4xf32>
// CHECK-NOT: memref.alloc
// CHECK: iter_args
// CHECK-NOT: iter_args
// CHECK: affine.store %{{.+}}, %[[S]]
// CHECK: {tilec.fingerprint = "{{[0-9a-f]+}}", tilec.kernel = "add_0"}
// CHECK: math.exp
// CHECK: affine.store %{{.+}}, %arg2
// CHECK: {tilec.fingerprint = "{{[0-9a-f]+}}", tilec.kernel = "add_1"}
// CHECK: arith.negf
// CHECK: affine.store %{{.+}}, %arg3
// CHECK: {tilec.fingerprint = "{{[0-9a-f]+}}", tilec.kernel = "add_2"}
// CHECK: memref.dealloc %[[S]]
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %c = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], cons = affine_set<(d0, d1, d2) : ()>, lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>, var_names = ["i", "j", "k"]}
  %s = tile.add %c, %c : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %e = tile.exp %s : tensor<2x4xf32>
  %x = tile.add %e, %s : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %n = tile.neg %s : tensor<2x4xf32>
  %y = tile.add %n, %x : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %x, %y : tensor<2x4xf32>, tensor<2x4xf32>
}
