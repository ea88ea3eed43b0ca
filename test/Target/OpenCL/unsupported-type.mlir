// A type OpenCL C cannot represent is an error on the op that makes it.
// RUN: not tilec-translate --tilec-to-opencl %s 2>&1 | FileCheck %s

// CHECK:      unsupported-type.mlir:{{[0-9]+}}:12: error: type 'i128' has no OpenCL C equivalent
// CHECK-NEXT: arith.extsi %0 : i64 to i128

module attributes {gpu.container_module} {
  func.func @main(%X: memref<4xi64>, %Y: memref<4xi64>)
      attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["Y"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@wide blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%X : memref<4xi64>, %Y : memref<4xi64>)
    return
  }
  gpu.module @k {
    gpu.func @wide(%x: memref<4xi64>, %y: memref<4xi64>) kernel
        attributes {tilec.fingerprint = "0123456789abcdef"} {
      %t = gpu.thread_id x
      %0 = memref.load %x[%t] : memref<4xi64>
      %1 = arith.extsi %0 : i64 to i128
      %2 = arith.trunci %1 : i128 to i64
      memref.store %2, %y[%t] : memref<4xi64>
      gpu.return
    }
  }
}
