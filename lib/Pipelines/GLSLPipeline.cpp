//===- GLSLPipeline.cpp - The gpu level made ready for GLSL ---------------===//
//
// buildGPUToGLSLPipeline and its tilec-opt registration
// (`tilec-pipeline-glsl`; the device is the module's #tilec.gpu_target).
// GLSL's built-in functions are GLSL.std.450's, so the gpu level is
// prepared as for SPIR-V, up to the point where SPIR-V converts: the
// emitter of lib/Target/GLSL then writes what is left.
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipelines/Pipelines.h"

#include "NarrowFloats.h"
#include "PipelineRegistration.h"

#include "tilec/Pipelines/Phase.h"
#include "tilec/Target/GPU/Passes.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
/// NVIDIA's GLSL compiler, unlike the LLVM-based ones behind OpenCL, keeps
/// much of what the shader says: a division repeated in every tap of a
/// convolution's gather, a loop over three taps, an `if` around each load
/// of a padded gather. So the shaders are given short loops unrolled
/// (tilec-gpu-unroll-small-loops), guarded loads as loads of a safe element
/// and a select (tilec-gpu-speculate-guarded-loads) and the arithmetic
/// already cleaned: integer ops unsigned where the ranges prove it equal,
/// common subexpressions computed once, loop invariants hoisted. (The
/// cleanup took the H200's 3x3 convolutions from 0.54-0.69 of the OpenCL
/// kernel's speed to 0.80-0.91.) The canonicalizer walks bottom-up: top-down
/// it took 0.71 s of MobileNet's 1 s compile without a device (the unrolled
/// kernels' loops asked again and again whether they are dead), bottom-up
/// 0.11 s, with the same kernels (constants in another order).
void addKernelCleanup(OpPassManager &pm) {
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>().nest<gpu::GPUFuncOp>();
  kernels.addPass(arith::createArithUnsignedWhenEquivalentPass());
  GreedyRewriteConfig bottomUp;
  bottomUp.setUseTopDownTraversal(false);
  kernels.addPass(createCanonicalizerPass(bottomUp));
  kernels.addPass(createCSEPass());
  kernels.addPass(createLoopInvariantCodeMotionPass());
}
} // namespace

void tilec::buildGPUToGLSLPipeline(OpPassManager &pm) {
  pipelines::addNarrowFloatsInF32(pm);
  pm.addPass(createTilecGPUExpandPowFPass());
  pm.addPass(createTilecGPUExpandDivisionByZeroPass());
  pm.addPass(createTilecGPUExpandSoftwareMathPass());
  pm.addPass(createTilecGPUUnrollSmallLoopsPass());
  pm.addPass(createTilecGPUSpeculateGuardedLoadsPass());
  addKernelCleanup(pm);
}

void tilec::pipelines::registerGLSLPipeline() {
  PassPipelineRegistration<>(
      pipelineName(Phase::GLSL),
      "Prepare the gpu level for GLSL compute shaders (f16 and bf16 math in "
      "f32, C's pow, IEEE division by a constant zero, software math), for "
      "the device of the module's #tilec.gpu_target",
      [](OpPassManager &pm) { buildGPUToGLSLPipeline(pm); });
}
