// An op the emitter cannot translate is an error on that op, and nothing
// is printed, or written to -o.
// RUN: not tilec-translate --tilec-to-opencl %s > %t.cl 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: count 0 < %t.cl
// RUN: rm -f %t.out.cl && not tilec-translate --tilec-to-opencl %s -o %t.out.cl 2> /dev/null
// RUN: test ! -e %t.out.cl

// CHECK:      unsupported-op.mlir:{{[0-9]+}}:25: error: operation 'arith.addui_extended' cannot be translated to OpenCL C
// CHECK-NEXT: %sum, %overflow = arith.addui_extended
// CHECK-NOT: error

module attributes {gpu.container_module} {
  func.func @main(%X: memref<4xi32>, %Y: memref<4xi32>)
      attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["Y"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@carry blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%X : memref<4xi32>, %Y : memref<4xi32>)
    return
  }
  gpu.module @k {
    gpu.func @carry(%x: memref<4xi32>, %y: memref<4xi32>) kernel
        attributes {tilec.fingerprint = "0123456789abcdef"} {
      %t = gpu.thread_id x
      %0 = memref.load %x[%t] : memref<4xi32>
      %sum, %overflow = arith.addui_extended %0, %0 : i32, i1
      memref.store %sum, %y[%t] : memref<4xi32>
      gpu.return
    }
  }
}
