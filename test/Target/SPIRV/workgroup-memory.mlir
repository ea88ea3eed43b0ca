// A workgroup attribution (what a staged schedule makes) becomes a
// Workgroup variable, and gpu.barrier a control barrier. The binary passes
// spirv-val.
// REQUIRES: spirv-val
// RUN: tilec-opt %s --tilec-pipeline-spirv | FileCheck %s
// RUN: tilec-translate --tilec-to-spirv %s -o %t.spv && spirv-val --target-env vulkan1.1 %t.spv

// CHECK: spirv.GlobalVariable @[[$SHARED:__workgroup_mem__[0-9]+]] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32>)>, Workgroup>
// CHECK-LABEL: spirv.func @row_sum()
// CHECK: spirv.mlir.addressof @[[$SHARED]]
// CHECK: spirv.Store "Workgroup"
// CHECK: spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
// CHECK: spirv.Load "Workgroup"
// CHECK: spirv.ExecutionMode @row_sum "LocalSize", 64, 1, 1

module attributes {gpu.container_module} {
  func.func @main(%x: memref<4x64xf32>, %s: memref<4xf32>)
      attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["S"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @tilec_kernels::@row_sum blocks in (%c4, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%x : memref<4x64xf32>, %s : memref<4xf32>)
    return
  }
  gpu.module @tilec_kernels {
    gpu.func @row_sum(%x: memref<4x64xf32>, %s: memref<4xf32>)
        workgroup(%partial : memref<64xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>,
                    tilec.kernel = "row_sum", tilec.fingerprint = "0123456789abcdef"} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %row = gpu.block_id x
      %v = memref.load %x[%row, %t] : memref<4x64xf32>
      memref.store %v, %partial[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
          %p = memref.load %partial[%i] : memref<64xf32, #gpu.address_space<workgroup>>
          %a = arith.addf %acc, %p : f32
          scf.yield %a : f32
        }
        memref.store %sum, %s[%row] : memref<4xf32>
      }
      gpu.return
    }
  }
}
