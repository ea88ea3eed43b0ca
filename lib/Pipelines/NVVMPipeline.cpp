//===- NVVMPipeline.cpp - The gpu level to the NVVM dialect ---------------===//
//
// buildGPUToNVVMPipeline and its tilec-opt registration
// (`tilec-pipeline-nvvm`). Every math function leaves the pipeline as
// arith ops or an LLVM intrinsic NVPTX selects natively: upstream's
// lowering would call libdevice's __nv_* functions, which only the CUDA
// toolkit ships, and tilec compiles PTX without one.
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipelines/Pipelines.h"

#include "NarrowFloats.h"
#include "PipelineRegistration.h"

#include "tilec/Pipelines/Phase.h"
#include "tilec/Target/GPU/Passes.h"
#include "tilec/Target/PTX/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tilec::buildGPUToNVVMPipeline(OpPassManager &pm) {
  // Constant tensors the manifest gives no buffer: globals of the module.
  TilecGPUInlineConstantTensorsPassOptions constants;
  constants.asGlobal = true;
  pm.addPass(createTilecGPUInlineConstantTensorsPass(constants));
  // Buffers no other argument shares: noalias (and readonly), as OpenCL's
  // restrict, so reads go through the read-only data cache.
  pm.addPass(createTilecPTXMarkRestrictBuffersPass());
  // sm_80 has no bf16 arithmetic of its own.
  pipelines::addNarrowFloatsInF32(pm);
  // exp of f32 in f32; log, sin, ..., pow computed in f64 and rounded once
  // (NVIDIA GPUs all have f64); the rest are LLVM intrinsics NVPTX selects exactly
  // (sqrt.rn, cvt.rmi, abs, ...; tilec-ptx-math-to-intrinsics), and rsqrt
  // becomes 1 / sqrt.
  pm.addPass(createTilecGPUExpandPowFPass());
  pm.addPass(createTilecGPUExpandSoftwareMathPass());
  // A nest of its own: passes added to an earlier nest would run before
  // the module passes above.
  OpPassManager &lowering = pm.nest<gpu::GPUModuleOp>();
  math::MathExpandOpsPassOptions expand;
  expand.opMnemonics = {"rsqrt"};
  lowering.addPass(math::createMathExpandOpsPass(expand));
  pm.addPass(createTilecPTXMathToIntrinsicsPass());
  // Tensor cores: bf16 mma.sync by hand, the rest of nvgpu upstream's.
  pm.addPass(createTilecPTXLowerBF16MmaPass());
  // Tiles above 48 KiB (deep cp.async pipelines) in dynamic shared memory.
  pm.addPass(createTilecPTXDynamicSharedMemoryPass());
  // From here on the kernels are lowered in parallel, each in a module.
  pm.addPass(createTilecPTXSplitKernelModulesPass());
  OpPassManager &toNVVM = pm.nest<gpu::GPUModuleOp>();
  toNVVM.addPass(createConvertNVGPUToNVVMPass());
  toNVVM.addPass(createSCFToControlFlowPass());
  // Every memref argument is one pointer: the shapes are static, and the
  // CUDA runtime passes one device pointer per manifest argument.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 64;
  nvvm.useBarePtrCallConv = true;
  toNVVM.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // wgmma's tiles start at whole 128-byte swizzle atoms; its NVVM ops
  // (wgmma, its fences and waits, fence.proxy) have no LLVM intrinsic and
  // become inline PTX.
  toNVVM.addPass(createTilecPTXAlignSwizzledSharedMemoryPass());
  toNVVM.addPass(createConvertNVVMToLLVMPass());
  toNVVM.addPass(createReconcileUnrealizedCastsPass());
  toNVVM.addPass(createCanonicalizerPass());
}

void tilec::pipelines::registerNVVMPipeline() {
  PassPipelineRegistration<>(
      pipelineName(Phase::NVVM),
      "Lower the gpu level's gpu.module to the LLVM and NVVM dialects (every "
      "memref argument a bare pointer, no libdevice call), for the PTX back "
      "end",
      [](OpPassManager &pm) { buildGPUToNVVMPipeline(pm); });
}
