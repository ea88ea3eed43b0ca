// tilec-spirv-check-device: a kernel that needs a capability the device
// lacks is an error on the kernel naming the capability and why it is
// needed; on a device with it the IR is unchanged. (Its loop budget has
// loop-budget.mlir.)
// RUN: tilec-opt --tilec-spirv-check-device %s | FileCheck %s
// RUN: tilec-opt '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<fp16=false>' --tilec-spirv-check-device %s -verify-diagnostics -o /dev/null

// CHECK: gpu.func @half(%[[A:.*]]: memref<4xf16>) kernel
// CHECK: arith.addf %{{.*}}, %{{.*}} : f16
module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @+1 {{kernel 'half' needs the SPIR-V capability Float16 (f16 values), which the target device lacks}}
    gpu.func @half(%a: memref<4xf16>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf16>
      %w = arith.addf %v, %v : f16
      memref.store %w, %a[%i] : memref<4xf16>
      gpu.return
    }
  }
}
