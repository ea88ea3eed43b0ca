// RUN: tilec-opt %s -split-input-file -convert-tile-to-loops | FileCheck %s

// Broadcasting: the [3] operand is read at the last index only; the rank-0
// constant becomes an arith.constant in the nest.
// CHECK-LABEL: func.func @broadcast_add
// CHECK-SAME: (%[[A:.+]]: memref<2x3xf32>, %[[B:.+]]: memref<3xf32>, %[[O:.+]]: memref<2x3xf32>)
// CHECK: affine.for %[[I:.+]] = 0 to 2 {
// CHECK: affine.for %[[J:.+]] = 0 to 3 {
// CHECK: %[[X:.+]] = affine.load %[[A]][%[[I]], %[[J]]]
// CHECK: %[[Y:.+]] = affine.load %[[B]][%[[J]]]
// CHECK: %[[S:.+]] = arith.addf %[[X]], %[[Y]]
// CHECK: affine.store %[[S]], %[[O]][%[[I]], %[[J]]]
// CHECK: } {tilec.kernel = "add_0"}
func.func @broadcast_add(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = tile.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Integer division never traps: a zero divisor and MIN / -1 are replaced by
// 1 before the divsi, and a zero divisor gives 0.
// CHECK-LABEL: func.func @int_div
// CHECK: %[[X:.+]] = affine.load
// CHECK: %[[Y:.+]] = affine.load
// CHECK: %[[Z:.+]] = arith.cmpi eq, %[[Y]], %{{.+}} : i32
// CHECK: %[[BAD:.+]] = arith.ori %[[Z]], %{{.+}}
// CHECK: %[[SAFE:.+]] = arith.select %[[BAD]], %{{.+}}, %[[Y]]
// CHECK: %[[Q:.+]] = arith.divsi %[[X]], %[[SAFE]]
// CHECK: arith.select %[[Z]], %{{.+}}, %[[Q]]
func.func @int_div(%a: tensor<4xsi32>, %b: tensor<4xsi32>) -> tensor<4xsi32> {
  %r = tile.div %a, %b : (tensor<4xsi32>, tensor<4xsi32>) -> tensor<4xsi32>
  return %r : tensor<4xsi32>
}

// -----

// Unsigned types pick unsigned operations; shifts by a count outside
// [0, width) give a full shift's result instead of poison.
// CHECK-LABEL: func.func @unsigned_shr
// CHECK: %[[OK:.+]] = arith.cmpi ult, %{{.+}}, %{{.+}} : i8
// CHECK: %[[C:.+]] = arith.select %[[OK]]
// CHECK: %[[S:.+]] = arith.shrui %{{.+}}, %[[C]] : i8
// CHECK: arith.select %[[OK]], %[[S]]
func.func @unsigned_shr(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %r = tile.shr %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %r : tensor<4xui8>
}

// -----

// Bool is stored as i8 and is i1 in registers; a float condition is true
// when unordered-not-equal to 0 (NaN is true).
// CHECK-LABEL: func.func @select_bool
// CHECK-SAME: memref<4xi8>
// CHECK: %[[C:.+]] = affine.load %{{.+}} : memref<4xf32>
// CHECK: %[[T:.+]] = arith.cmpf une, %[[C]]
// CHECK: %[[S:.+]] = arith.select %[[T]], %{{.+}}, %{{.+}} : i1
// CHECK: %[[W:.+]] = arith.extui %[[S]] : i1 to i8
// CHECK: affine.store %[[W]]
func.func @select_bool(%c: tensor<4xf32>, %a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %r = tile.select %c, %a, %b : (tensor<4xf32>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

// Float to integer conversion: out-of-range values and NaN give 0 rather
// than poison; f16 math runs in f32.
// CHECK-LABEL: func.func @casts
// CHECK: arith.cmpf oge
// CHECK: arith.cmpf olt
// CHECK: arith.fptosi %{{.+}} : f32 to i64
// CHECK: arith.trunci %{{.+}} : i64 to i16
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: math.exp %{{.+}} : f32
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @casts(%a: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xsi16>, tensor<4xf16>) {
  %r = tile.cast %a : tensor<4xf32> -> tensor<4xsi16>
  %e = tile.exp %h : tensor<4xf16>
  return %r, %e : tensor<4xsi16>, tensor<4xf16>
}

// -----

// An output that is an input, or returned twice, is copied into its
// out-parameter; index is computed in place from the induction variable.
// CHECK-LABEL: func.func @outputs
// CHECK-SAME: (%[[IN:.+]]: memref<3xi32>, %[[O1:.+]]: memref<3xi32>, %[[O2:.+]]: memref<3xi32>, %[[O3:.+]]: memref<3xi32>)
// CHECK: arith.index_cast %{{.+}} : index to i32
// CHECK: {tilec.kernel = "index_0"}
// CHECK: {tilec.kernel = "copy_output"}
// CHECK: {tilec.kernel = "copy_output"}
func.func @outputs(%in: tensor<3xsi32>) -> (tensor<3xsi32>, tensor<3xsi32>, tensor<3xsi32>) {
  %i = tile.index 0 : tensor<3xsi32>
  return %i, %in, %i : tensor<3xsi32>, tensor<3xsi32>, tensor<3xsi32>
}
