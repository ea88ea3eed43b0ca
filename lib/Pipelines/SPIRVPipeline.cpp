//===- SPIRVPipeline.cpp - The gpu level to SPIR-V, and its registration --===//
//
// buildGPUToSPIRVPipeline and its tilec-opt registration
// (`tilec-pipeline-spirv`; the device is the module's #tilec.gpu_target).
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipelines/Pipelines.h"

#include "NarrowFloats.h"
#include "PipelineRegistration.h"

#include "tilec/Pipelines/Phase.h"
#include "tilec/Target/GPU/Passes.h"
#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tilec::buildGPUToSPIRVPipeline(OpPassManager &pm) {
  pm.addPass(createTilecSPIRVCheckDevicePass());
  pm.addPass(createTilecGPUInlineConstantTensorsPass());
  pm.addPass(createTilecSPIRVLegalizeBoolArithPass());
  pipelines::addNarrowFloatsInF32(pm);
  pm.addPass(createTilecGPUExpandPowFPass());
  pm.addPass(createTilecGPUExpandDivisionByZeroPass());
  pm.addPass(createTilecGPUExpandSoftwareMathPass());
  pm.addPass(createTilecSPIRVEmulateBF16Pass());
  pm.addPass(createTilecSPIRVAttachTargetPass());
  pm.addPass(createTilecConvertGPUToSPIRVPass());
  OpPassManager &spirvModule = pm.nest<spirv::ModuleOp>();
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(createTilecSPIRVFloatControlsPass());
  // One constant and one address per value, for a readable --emit=spirv-asm.
  spirvModule.addPass(createCanonicalizerPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
  spirvModule.addPass(createTilecSPIRVEntryPointInterfacesPass());
}

void tilec::pipelines::registerSPIRVPipeline() {
  PassPipelineRegistration<>(
      pipelineName(Phase::SPIRV),
      "Lower the gpu level to one Vulkan spirv.module (every kernel an entry "
      "point) beside the gpu.module, for the device of the module's "
      "#tilec.gpu_target",
      [](OpPassManager &pm) { buildGPUToSPIRVPipeline(pm); });
}
