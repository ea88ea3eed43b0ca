// RUN: tilec-opt %s -split-input-file -convert-tile-to-loops | FileCheck %s

// Reshape reads its operand at the delinearised row-major position.
// CHECK-LABEL: func.func @reshape
// CHECK: affine.for %[[I:.+]] = 0 to 3 {
// CHECK: affine.for %[[J:.+]] = 0 to 4 {
// CHECK: affine.load %{{.+}}[(%[[I]] * 4 + %[[J]]) floordiv 6, (%[[I]] * 4 + %[[J]]) mod 6]
func.func @reshape(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %r = tile.reshape %x : tensor<2x6xf32> -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// Gather clamps each index into [0, d0) and loads with memref.load.
// CHECK-LABEL: func.func @gather
// CHECK: %[[IDX:.+]] = affine.load %{{.+}} : memref<2xi32>
// CHECK: arith.extsi %[[IDX]] : i32 to i64
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: %[[R:.+]] = arith.index_cast
// CHECK: memref.load %{{.+}}[%[[R]], %{{.+}}] : memref<5x3xf32>
func.func @gather(%v: tensor<5x3xf32>, %i: tensor<2xsi32>) -> tensor<2x3xf32> {
  %r = tile.gather %v, %i : (tensor<5x3xf32>, tensor<2xsi32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Scatter zeroes its output, then adds each update at its clamped row.
// CHECK-LABEL: func.func @scatter
// CHECK: {tilec.kernel = "scatter_0.init"}
// CHECK: arith.minui
// CHECK: memref.load
// CHECK: arith.addf
// CHECK: memref.store
// CHECK: {tilec.kernel = "scatter_0"}
func.func @scatter(%e: tensor<4x3xf32>, %i: tensor<4xui32>, %v: tensor<6xf32>) -> tensor<6x3xf32> {
  %r = tile.scatter %e, %i, %v : (tensor<4x3xf32>, tensor<4xui32>, tensor<6xf32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

// -----

// prng: 2048 lanes, each stepping taus88 ceil(count / 2048) times and
// writing element step * 2048 + lane when it exists.
// CHECK-LABEL: func.func @prng
// CHECK: affine.for %[[L:.+]] = 0 to 2048 {
// CHECK: affine.for %[[S:.+]] = 0 to 2 iter_args
// CHECK: affine.if #{{.+}}(%[[L]], %[[S]])
// CHECK: arith.uitofp
// CHECK: affine.store
// CHECK: } {tilec.kernel = "prng_0"}
func.func @prng(%s: tensor<3x2048xui32>) -> (tensor<3000xf32>, tensor<3x2048xui32>) {
  %v, %n = tile.prng %s : (tensor<3x2048xui32>) -> (tensor<3000xf32>, tensor<3x2048xui32>)
  return %v, %n : tensor<3000xf32>, tensor<3x2048xui32>
}

// -----

// A non-splat constant lives in a private global and is read in place.
// CHECK: memref.global "private" constant @__tilec_constant_0 : memref<3xi8> = dense<[1, 0, 1]>
// CHECK-LABEL: func.func @constants
// CHECK: %[[G:.+]] = memref.get_global @__tilec_constant_0
// CHECK: affine.load %[[G]]
func.func @constants(%x: tensor<3xi1>) -> tensor<3xi1> {
  %c = tile.constant dense<[true, false, true]> : tensor<3xi1>
  %r = tile.bit_and %x, %c : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return %r : tensor<3xi1>
}
