// tilec-ptx-mark-restrict-buffers: every buffer argument is 16-byte aligned;
// one that no other argument of the kernel shares is noalias, and readonly
// when the kernel only reads it. A buffer passed twice (A as both arguments
// of @twice) stays without noalias.
// RUN: tilec-opt --tilec-ptx-mark-restrict-buffers %s | FileCheck %s

module attributes {gpu.container_module} {
  func.func @main(%a: memref<64xf32>, %b: memref<64xf32>) attributes {tilec.entry, tilec.input_names = ["A"], tilec.output_names = ["B"]} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf32>, %b : memref<64xf32>)
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%b : memref<64xf32>, %b : memref<64xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @copy(%x: memref<64xf32>, %y: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<64xf32>
      memref.store %v, %y[%t] : memref<64xf32>
      gpu.return
    }
    gpu.func @twice(%x: memref<64xf32>, %y: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<64xf32>
      memref.store %v, %y[%t] : memref<64xf32>
      gpu.return
    }
  }
}
// CHECK: gpu.func @copy(%{{.*}}: memref<64xf32> {llvm.align = 16 : i64, llvm.noalias, llvm.readonly}, %{{.*}}: memref<64xf32> {llvm.align = 16 : i64, llvm.noalias})
// CHECK: gpu.func @twice(%{{.*}}: memref<64xf32> {llvm.align = 16 : i64}, %{{.*}}: memref<64xf32> {llvm.align = 16 : i64})
