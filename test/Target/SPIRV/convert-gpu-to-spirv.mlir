// tilec-convert-gpu-to-spirv (after tilec-spirv-attach-target, which gives
// it the target environment and the work-group size): the gpu.module is
// cloned to a spirv.module beside it, the kernel a spirv.func whose buffer
// argument is a storage buffer bound at set 0, binding 0, the thread id a
// LocalInvocationId builtin; the host side and the gpu.module stay.
// RUN: tilec-opt --tilec-spirv-attach-target --tilec-convert-gpu-to-spirv %s | FileCheck %s

// CHECK: spirv.module @__spv__k Logical GLSL450
// CHECK: spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
// CHECK: spirv.func @twice(%[[A:.*]]: !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}) "None"
// CHECK: %[[ID:.*]] = spirv.CompositeExtract %{{.*}}[0 : i32] : vector<3xi32>
// CHECK: %[[IN:.*]] = spirv.AccessChain %[[A]][%{{.*}}, %[[ID]]]
// CHECK: %[[V:.*]] = spirv.Load "StorageBuffer" %[[IN]] : f32
// CHECK: %[[W:.*]] = spirv.FAdd %[[V]], %[[V]] : f32
// CHECK: spirv.Store "StorageBuffer" %{{.*}}, %[[W]] : f32
// CHECK: gpu.module @k
// CHECK: gpu.func @twice(%{{.*}}: memref<4xf32>) kernel
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @twice(%a: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
}
