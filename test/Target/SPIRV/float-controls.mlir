// tilec-spirv-float-controls on a minimal spirv.module: the entry point
// asks for SignedZeroInfNanPreserve for each float width its function
// computes with (f32 and f64 here, never f16, which it does not use), where
// the device grants it; subnormals only where asked for and granted.
// RUN: tilec-opt --pass-pipeline='builtin.module(spirv.module(tilec-spirv-float-controls))' %s \
// RUN:   | FileCheck %s
// RUN: tilec-opt --pass-pipeline='builtin.module(tilec-kernel-set-gpu-target{target=#tilec.gpu_target<inf_nan_preserve_64=false>},spirv.module(tilec-spirv-float-controls))' %s \
// RUN:   | FileCheck %s --check-prefix=NO64
// RUN: tilec-opt --pass-pipeline='builtin.module(tilec-kernel-set-gpu-target{target=#tilec.gpu_target<denorm_preserve_32=true>},spirv.module(tilec-spirv-float-controls))' %s \
// RUN:   | FileCheck %s --check-prefix=DENORM

// CHECK-NOT: "SignedZeroInfNanPreserve", 16
// CHECK-DAG: spirv.ExecutionMode @k "SignedZeroInfNanPreserve", 32
// CHECK-DAG: spirv.ExecutionMode @k "SignedZeroInfNanPreserve", 64
// CHECK-DAG: spirv.ExecutionMode @k "LocalSize", 1, 1, 1
// NO64: spirv.ExecutionMode @k "SignedZeroInfNanPreserve", 32
// NO64-NOT: "SignedZeroInfNanPreserve", 64
// DENORM-DAG: spirv.ExecutionMode @k "DenormPreserve", 32
// DENORM-DAG: spirv.ExecutionMode @k "SignedZeroInfNanPreserve", 32
module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, Float64], [SPV_KHR_storage_buffer_storage_class]> {
    spirv.func @k() "None" {
      %x = spirv.Constant 1.0 : f32
      %y = spirv.FAdd %x, %x : f32
      %d = spirv.Constant 1.0 : f64
      %e = spirv.FMul %d, %d : f64
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @k
    spirv.ExecutionMode @k "LocalSize", 1, 1, 1
  }
}
