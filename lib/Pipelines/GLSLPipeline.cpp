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

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void tilec::buildGPUToGLSLPipeline(OpPassManager &pm) {
  pipelines::addNarrowFloatsInF32(pm);
  pm.addPass(createTilecGPUExpandPowFPass());
  pm.addPass(createTilecGPUExpandDivisionByZeroPass());
  pm.addPass(createTilecGPUExpandSoftwareMathPass());
}

void tilec::pipelines::registerGLSLPipeline() {
  PassPipelineRegistration<>(
      pipelineName(Phase::GLSL),
      "Prepare the gpu level for GLSL compute shaders (f16 and bf16 math in "
      "f32, C's pow, IEEE division by a constant zero, software math), for "
      "the device of the module's #tilec.gpu_target",
      [](OpPassManager &pm) { buildGPUToGLSLPipeline(pm); });
}
