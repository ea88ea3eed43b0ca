// RUN: tilec-opt %s -split-input-file -convert-tile-to-loops | FileCheck %s

// A matmul: the output map is a permutation, so each cell reduces over k in
// registers (iter_args) and is stored once; no guard is needed.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: memref<2x3xf32>, %[[B:.+]]: memref<3x4xf32>, %[[O:.+]]: memref<2x4xf32>)
// CHECK-SAME: attributes {tilec.entry}
// CHECK: affine.for %[[I:.+]] = 0 to 2 {
// CHECK: affine.for %[[J:.+]] = 0 to 4 {
// CHECK: %[[SUM:.+]] = affine.for %[[K:.+]] = 0 to 3 iter_args(%[[ACC:.+]] = %{{.+}}) -> (f32) {
// CHECK-NOT: affine.if
// CHECK: %[[X:.+]] = affine.load %[[A]][%[[I]], %[[K]]]
// CHECK: %[[Y:.+]] = affine.load %[[B]][%[[K]], %[[J]]]
// CHECK: %[[P:.+]] = arith.mulf %[[X]], %[[Y]]
// CHECK: %[[S:.+]] = arith.addf %[[ACC]], %[[P]]
// CHECK: affine.yield %[[S]]
// CHECK: affine.store %[[SUM]], %[[O]][%[[I]], %[[J]]]
// CHECK: } {tilec.kernel = "contract_0"}
// CHECK: return
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %c = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {combine_type = f32, sink = affine_map<(d0, d1, d2) -> (d0, d1)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], cons = affine_set<(d0, d1, d2) : ()>, lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>, var_names = ["i", "j", "k"]}
  return %c : tensor<2x4xf32>
}

// -----

// Max pool with padding: the access 2*x + k - 1 mixes two variables, so it is
// guarded; max starts from the lowest i32 and keeps a "touched" flag, so
// untouched cells hold 0.
// CHECK-LABEL: func.func @maxpool
// CHECK: affine.for %[[X:.+]] = 0 to 3 {
// CHECK: %[[LOW:.+]] = arith.constant -2147483648 : i32
// CHECK: %[[F0:.+]] = arith.constant false
// CHECK: %[[R:.+]]:2 = affine.for %[[K:.+]] = 0 to 3 iter_args(%[[ACC:.+]] = %[[LOW]], %[[T:.+]] = %[[F0]]) -> (i32, i1)
// CHECK: affine.if #{{.+}}(%[[X]], %[[K]]) -> (i32, i1) {
// CHECK: arith.maxsi %[[ACC]]
// CHECK: } else {
// CHECK: affine.yield %[[ACC]], %[[T]]
// CHECK: %[[V:.+]] = arith.select %[[R]]#1, %[[R]]#0
// CHECK: affine.store %[[V]]
func.func @maxpool(%i: tensor<5xsi32>) -> tensor<3xsi32> {
  %o = tile.contract max, none (%i) : (tensor<5xsi32>) -> tensor<3xsi32> {combine_type = si32, sink = affine_map<(d0, d1) -> (d0)>, srcs = [affine_map<(d0, d1) -> (d0 * 2 + d1 - 1)>], cons = affine_set<(d0, d1) : (d1 >= 0, -d1 + 2 >= 0)>, lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 2, 2>, var_names = ["x", "k"]}
  return %o : tensor<3xsi32>
}

// -----

// Upsampling U[2*i] = X[i]: the output map is not a permutation, so the
// contraction initialises its output to 0 and stores each contribution.
// CHECK-LABEL: func.func @upsample
// CHECK: affine.for %{{.+}} = 0 to 8 {
// CHECK: affine.store %{{.+}}, %[[U:.+]][%{{.+}}]
// CHECK: } {tilec.kernel = "contract_0.init"}
// CHECK: affine.for %[[I:.+]] = 0 to 4 {
// CHECK: %[[V:.+]] = affine.load %{{.+}}[%[[I]]]
// CHECK: affine.store %[[V]], %[[U]][%[[I]] * 2]
// CHECK: } {tilec.kernel = "contract_0"}
func.func @upsample(%x: tensor<4xf32>) -> tensor<8xf32> {
  %u = tile.contract assign, none (%x) : (tensor<4xf32>) -> tensor<8xf32> {combine_type = f32, sink = affine_map<(d0) -> (d0 * 2)>, srcs = [affine_map<(d0) -> (d0)>], cons = affine_set<(d0) : ()>, lower_bounds = array<i64: 0>, upper_bounds = array<i64: 3>, var_names = ["i"]}
  return %u : tensor<8xf32>
}

// -----

// An output index with an offset, O[i + 3]: still one nest over all the
// output's cells. The cells no assignment writes (0 to 2) take the default
// from the affine.if's else branch; no flag buffer, no second nest.
// CHECK-LABEL: func.func @sum_default
// CHECK-SAME: (%[[X:.+]]: memref<3xf32>, %[[D:.+]]: memref<6xf32>, %[[O:.+]]: memref<6xf32>)
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[C:.+]] = 0 to 6 {
// CHECK: %[[DEF:.+]] = affine.load %[[D]][%[[C]]]
// CHECK: %[[V:.+]] = affine.if #{{.+}}(%[[C]]) -> f32 {
// CHECK: affine.load %[[X]][%[[C]] - 3]
// CHECK: } else {
// CHECK: affine.yield %[[DEF]] : f32
// CHECK: affine.store %[[V]], %[[O]][%[[C]]]
// CHECK-NEXT: } {tilec.kernel = "contract_0"}
// CHECK-NEXT: return
func.func @sum_default(%x: tensor<3xf32>, %d: tensor<6xf32>) -> tensor<6xf32> {
  %u = tile.contract sum, none (%x) init(%d) : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32> {combine_type = f32, sink = affine_map<(d0) -> (d0 + 3)>, srcs = [affine_map<(d0) -> (d0)>], cons = affine_set<(d0) : ()>, lower_bounds = array<i64: 0>, upper_bounds = array<i64: 2>, var_names = ["i"]}
  return %u : tensor<6xf32>
}

// -----

// Softmax's row maximum Mx[b, 0] = >(L[b, v]): a constant output index of a
// size-1 axis needs no guard, and since every v contributes, max needs no
// "touched" flag: one nest, the reduction in iter_args from -inf.
// CHECK-LABEL: func.func @row_max
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[B:.+]] = 0 to 2 {
// CHECK: affine.for %[[Z:.+]] = 0 to 1 {
// CHECK: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[M:.+]] = affine.for %[[V:.+]] = 0 to 8 iter_args(%[[ACC:.+]] = %[[NEGINF]]) -> (f32) {
// CHECK-NOT: affine.if
// CHECK: arith.maxnumf %[[ACC]]
// CHECK: affine.store %[[M]], %{{.+}}[%[[B]], %[[Z]]]
// CHECK: } {tilec.kernel = "contract_0"}
// CHECK-NEXT: return
func.func @row_max(%l: tensor<2x8xf32>) -> tensor<2x1xf32> {
  %m = tile.contract max, none (%l) : (tensor<2x8xf32>) -> tensor<2x1xf32> {combine_type = f32, sink = affine_map<(d0, d1) -> (d0, 0)>, srcs = [affine_map<(d0, d1) -> (d0, d1)>], cons = affine_set<(d0, d1) : ()>, lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 7>, var_names = ["b", "v"]}
  return %m : tensor<2x1xf32>
}

// -----

// E[i, 2] of a [3, 4] output with prod: the constant index is an equality
// guard on the cell; the other cells hold 0 (not prod's identity 1).
// CHECK-LABEL: func.func @prod_column
// CHECK: affine.for %[[I:.+]] = 0 to 3 {
// CHECK: affine.for %[[J:.+]] = 0 to 4 {
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK: %[[V:.+]] = affine.if #{{.+}}(%[[I]], %[[J]]) -> i32 {
// CHECK: affine.for %{{.+}} = 0 to 5 iter_args(%{{.+}} = %[[ONE]]) -> (i32)
// CHECK: arith.muli
// CHECK: } else {
// CHECK: affine.yield %[[ZERO]] : i32
// CHECK: affine.store %[[V]]
// CHECK: } {tilec.kernel = "contract_0"}
// CHECK-NEXT: return
func.func @prod_column(%x: tensor<3x5xsi32>) -> tensor<3x4xsi32> {
  %e = tile.contract prod, none (%x) : (tensor<3x5xsi32>) -> tensor<3x4xsi32> {combine_type = si32, sink = affine_map<(d0, d1) -> (d0, 2)>, srcs = [affine_map<(d0, d1) -> (d0, d1)>], cons = affine_set<(d0, d1) : ()>, lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 2, 4>, var_names = ["i", "k"]}
  return %e : tensor<3x4xsi32>
}

// -----

// A sum with `default` over a strided output map O[2 * i]: not one
// assignment per cell, so the output is initialised, accumulated in memory
// with a flag buffer telling the cells that received contributions from
// those that keep the default, and finished by a last nest.
// CHECK-LABEL: func.func @sum_default_strided
// CHECK: %[[FLAGS:.+]] = memref.alloc() : memref<6xi8>
// CHECK: tilec.kernel = "contract_0.init"
// CHECK: affine.store %{{.+}}, %[[FLAGS]]
// CHECK: tilec.kernel = "contract_0"
// CHECK: affine.for %{{.+}} = 0 to 6 {
// CHECK: affine.load %[[FLAGS]]
// CHECK: arith.select
// CHECK: tilec.kernel = "contract_0.final"
// CHECK: memref.dealloc %[[FLAGS]]
func.func @sum_default_strided(%x: tensor<3xf32>, %d: tensor<6xf32>) -> tensor<6xf32> {
  %u = tile.contract sum, none (%x) init(%d) : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32> {combine_type = f32, sink = affine_map<(d0) -> (d0 * 2)>, srcs = [affine_map<(d0) -> (d0)>], cons = affine_set<(d0) : ()>, lower_bounds = array<i64: 0>, upper_bounds = array<i64: 2>, var_names = ["i"]}
  return %u : tensor<6xf32>
}

// -----

// A rational index: (y + 1 - t) / 2 reads only where y + 1 - t is even, an
// equality guard with mod; bool inputs summed count as i32.
// CHECK-LABEL: func.func @deconv
// CHECK: affine.if #{{.+}}(%{{.+}}, %{{.+}}) -> i32 {
// CHECK: arith.extui %{{.+}} : i1 to i32
// CHECK: arith.addi
func.func @deconv(%x: tensor<4xi1>, %k: tensor<4xi1>) -> tensor<8xsi32> {
  %y = tile.contract sum, mul (%x, %k) : (tensor<4xi1>, tensor<4xi1>) -> tensor<8xsi32> {combine_type = i1, sink = affine_map<(d0, d1) -> (d0)>, srcs = [affine_map<(d0, d1) -> ((d0 - d1 + 1) floordiv 2)>, affine_map<(d0, d1) -> (d1)>], cons = affine_set<(d0, d1) : ((d0 - d1 + 1) mod 2 == 0)>, lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 7, 3>, var_names = ["y", "t"]}
  return %y : tensor<8xsi32>
}
