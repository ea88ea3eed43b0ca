// tilec-pipeline-nvvm on a minimal gpu level: the kernel becomes an
// llvm.func marked nvvm.kernel taking one bare pointer per memref (aligned,
// restrict, the input read-only), thread
// ids the NVVM special registers, exp of f32 the software f32 version (no
// libdevice call), sqrt an intrinsic; the host function is left alone.
// RUN: tilec-opt --tilec-pipeline-nvvm %s | FileCheck %s

module attributes {gpu.container_module} {
  func.func @main(%arg0: memref<64xf32>, %arg1: memref<64xf32>) attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["Y"]} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @tilec_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>)
    return
  }
  gpu.module @tilec_kernels {
    gpu.func @k(%arg0: memref<64xf32>, %arg1: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %t = gpu.thread_id x
      %x = memref.load %arg0[%t] : memref<64xf32>
      %e = math.exp %x : f32
      %s = math.sqrt %e : f32
      memref.store %s, %arg1[%t] : memref<64xf32>
      gpu.return
    }
  }
}
// CHECK: func.func @main
// CHECK: gpu.launch_func @tilec_kernels::@k
// CHECK: gpu.module @tilec_kernels
// CHECK: llvm.func @k(%{{.*}}: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias, llvm.readonly}, %{{.*}}: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias})
// CHECK-SAME: nvvm.kernel
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.call_intrinsic "llvm.roundeven"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.fma"(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK: llvm.bitcast %{{.*}} : i32 to f32
// CHECK: llvm.call_intrinsic "llvm.sqrt"
// CHECK-NOT: llvm.call @__nv_
// CHECK-NOT: math.
