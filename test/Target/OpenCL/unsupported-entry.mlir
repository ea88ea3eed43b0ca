// The entry function of the gpu level only allocates and launches: anything
// else (here a host-side copy) is an error, since no manifest can say it.
// RUN: not tilec-translate --tilec-to-opencl %s 2>&1 | FileCheck %s

// CHECK:      unsupported-entry.mlir:{{[0-9]+}}:5: error: unsupported operation in the entry function at the gpu level
// CHECK-NEXT: memref.copy %X, %Y

module attributes {gpu.container_module} {
  func.func @main(%X: memref<4xf32>, %Y: memref<4xf32>)
      attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["Y"]} {
    memref.copy %X, %Y : memref<4xf32> to memref<4xf32>
    return
  }
}
