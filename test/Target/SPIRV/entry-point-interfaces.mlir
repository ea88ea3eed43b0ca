// tilec-spirv-entry-point-interfaces on a minimal spirv.module of two
// kernels with a Workgroup array each: for a device that takes SPIR-V 1.4
// (spirv_version=5, a Vulkan 1.2 device) each entry point lists the global
// variables it uses, those of the functions it calls included, and no
// other kernel's, and the module becomes 1.4; at SPIR-V 1.3 (the default
// profile, a Vulkan 1.1 device) the module is left as it was.
// RUN: tilec-opt --pass-pipeline='builtin.module(tilec-kernel-set-gpu-target{target=#tilec.gpu_target<spirv_version=5>},spirv.module(tilec-spirv-entry-point-interfaces))' %s \
// RUN:   | FileCheck %s
// RUN: tilec-opt --pass-pipeline='builtin.module(spirv.module(tilec-spirv-entry-point-interfaces))' %s \
// RUN:   | FileCheck %s --check-prefix=V13

// CHECK: requires #spirv.vce<v1.4, [Shader], [SPV_KHR_storage_buffer_storage_class]>
// CHECK-DAG: spirv.EntryPoint "GLCompute" @a, @id, @shared_a{{$}}
// CHECK-DAG: spirv.EntryPoint "GLCompute" @b, @id, @shared_b{{$}}
// V13: requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>
// V13-DAG: spirv.EntryPoint "GLCompute" @a, @id{{$}}
// V13-DAG: spirv.EntryPoint "GLCompute" @b, @id{{$}}
module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
    spirv.GlobalVariable @id built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @shared_a : !spirv.ptr<!spirv.array<1024 x f32>, Workgroup>
    spirv.GlobalVariable @shared_b : !spirv.ptr<!spirv.array<2048 x f32>, Workgroup>
    spirv.func @touch_a() "None" {
      %p = spirv.mlir.addressof @shared_a : !spirv.ptr<!spirv.array<1024 x f32>, Workgroup>
      spirv.Return
    }
    spirv.func @a() "None" {
      %i = spirv.mlir.addressof @id : !spirv.ptr<vector<3xi32>, Input>
      spirv.FunctionCall @touch_a() : () -> ()
      spirv.Return
    }
    spirv.func @b() "None" {
      %i = spirv.mlir.addressof @id : !spirv.ptr<vector<3xi32>, Input>
      %p = spirv.mlir.addressof @shared_b : !spirv.ptr<!spirv.array<2048 x f32>, Workgroup>
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @a, @id
    spirv.EntryPoint "GLCompute" @b, @id
    spirv.ExecutionMode @a "LocalSize", 1, 1, 1
    spirv.ExecutionMode @b "LocalSize", 1, 1, 1
  }
}
