// tilec-spirv-attach-target: the module and each gpu.module get the
// spirv.target_env the device options allow (Vulkan, Shader, and the
// version, capabilities and extensions of the options), and each kernel the
// entry-point ABI of its known block size. A kernel without one is an
// error.
// RUN: tilec-opt --tilec-spirv-attach-target %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: tilec-opt '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<spirv_version=0,fp16=false>' --tilec-spirv-attach-target %s -split-input-file \
// RUN:   -verify-diagnostics | FileCheck %s --check-prefix=SMALL

// CHECK: module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Float16,
// CHECK-SAME: api=Vulkan
// CHECK: gpu.module @k attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Float16,
// CHECK: gpu.func @kern(%{{.*}}: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 2, 1>, spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 2, 1]>}
// SMALL: spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Float64,
// SMALL-NOT: Float16
// SMALL-SAME: api=Vulkan
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kern(%a: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 2, 1>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @+1 {{kernel 'unsized' has no known_block_size: its work-group size must be fixed for SPIR-V}}
    gpu.func @unsized(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
