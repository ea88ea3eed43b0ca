// Inputs that are not the loop level are rejected with a diagnostic.
// RUN: not tilec-translate --tilec-to-llvmir %s 2>&1 | FileCheck %s

// CHECK: error: argument 0 of the entry function must be a static, identity-layout memref
func.func @f(%X: memref<?xf32>, %Y: memref<4xf32>) attributes {tilec.entry} {
  return
}
