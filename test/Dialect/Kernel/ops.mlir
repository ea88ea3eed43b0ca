// The tilec dialect's attributes print as they parse; a round trip through
// the generic form gives the same text.
// RUN: tilec-opt %s | FileCheck %s
// RUN: tilec-opt %s -mlir-print-op-generic | tilec-opt | FileCheck %s

// Every field, in any order; `unroll = 1` is the default, so it is left out.
// CHECK-LABEL: func.func @full
// CHECK-SAME: tilec.schedule = #tilec.schedule<block = [64, 64, 0], thread = [4, 8], vector = 4, stage = [true, false], order = [1, 0]>
func.func @full() attributes {tilec.schedule = #tilec.schedule<order = [1, 0], block = [64, 64, 0], thread = [4, 8], vector = 4, unroll = 1, stage = [true, false]>} {
  return
}

// No field: every default.
// CHECK-LABEL: func.func @defaults
// CHECK-SAME: tilec.schedule = #tilec.schedule<>
func.func @defaults() attributes {tilec.schedule = #tilec.schedule<>} {
  return
}

// Empty lists are defaults too.
// CHECK-LABEL: func.func @empty_lists
// CHECK-SAME: tilec.schedule = #tilec.schedule<unroll = 4>
func.func @empty_lists() attributes {tilec.schedule = #tilec.schedule<block = [], unroll = 4, order = []>} {
  return
}

// The discardable marks, each of its declared type.
// CHECK-LABEL: func.func @marks
// CHECK-SAME: tilec.entry
// CHECK-SAME: tilec.input_names = ["A"]
// CHECK-SAME: tilec.output_names = ["C"]
// CHECK: tilec.fingerprint = "00ff", tilec.kernel = "k", tilec.parallel
func.func @marks(%a: memref<4xf32>, %c: memref<4xf32>) attributes {tilec.entry, tilec.input_names = ["A"], tilec.output_names = ["C"]} {
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xf32>
    affine.store %v, %c[%i] : memref<4xf32>
  } {tilec.fingerprint = "00ff", tilec.kernel = "k", tilec.parallel}
  return
}
