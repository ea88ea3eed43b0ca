//===- SPIRVPipeline.cpp - The gpu level to SPIR-V, and its registration --===//
//
// buildGPUToSPIRVPipeline and its tilec-opt registration
// (`tilec-pipeline-spirv`, with the device facts as options).
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipelines/Pipelines.h"

#include "PipelineRegistration.h"

#include "tilec/Pipelines/Phase.h"
#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {

/// The options of `tilec-pipeline-spirv`: SPIRVTargetOptions, named as the
/// passes (tilec/Target/SPIRV/Passes.td) name them.
struct SPIRVPipelineOptions : public PassPipelineOptions<SPIRVPipelineOptions> {
  tilec::SPIRVTargetOptions defaults;
  Option<int> versionMinor{*this, "version-minor",
                           llvm::cl::desc("SPIR-V version 1.<minor>"),
                           llvm::cl::init(defaults.versionMinor)};
  Option<bool> fp16{*this, "fp16", llvm::cl::desc("Float16 arithmetic"),
                    llvm::cl::init(defaults.fp16)};
  Option<bool> fp64{*this, "fp64", llvm::cl::desc("Float64 arithmetic"),
                    llvm::cl::init(defaults.fp64)};
  Option<bool> int8{*this, "int8", llvm::cl::desc("Int8 arithmetic"),
                    llvm::cl::init(defaults.int8)};
  Option<bool> int16{*this, "int16", llvm::cl::desc("Int16 arithmetic"),
                     llvm::cl::init(defaults.int16)};
  Option<bool> int64{*this, "int64", llvm::cl::desc("Int64 arithmetic"),
                     llvm::cl::init(defaults.int64)};
  Option<bool> storage8Bit{*this, "storage-8bit",
                           llvm::cl::desc("8-bit storage-buffer access"),
                           llvm::cl::init(defaults.storage8Bit)};
  Option<bool> storage16Bit{*this, "storage-16bit",
                            llvm::cl::desc("16-bit storage-buffer access"),
                            llvm::cl::init(defaults.storage16Bit)};
  Option<bool> subgroups{*this, "subgroups",
                         llvm::cl::desc("Subgroup operations"),
                         llvm::cl::init(defaults.subgroups)};
  Option<int> subgroupSize{*this, "subgroup-size",
                           llvm::cl::desc("Work-items per subgroup"),
                           llvm::cl::init(defaults.subgroupSize)};
  Option<bool> infNanPreserve16{
      *this, "inf-nan-preserve-16",
      llvm::cl::desc("f16 infinities, NaNs and signed zeros kept on request"),
      llvm::cl::init(defaults.infNanPreserve16)};
  Option<bool> infNanPreserve32{
      *this, "inf-nan-preserve-32",
      llvm::cl::desc("f32 infinities, NaNs and signed zeros kept on request"),
      llvm::cl::init(defaults.infNanPreserve32)};
  Option<bool> infNanPreserve64{
      *this, "inf-nan-preserve-64",
      llvm::cl::desc("f64 infinities, NaNs and signed zeros kept on request"),
      llvm::cl::init(defaults.infNanPreserve64)};
  Option<bool> denormPreserve16{
      *this, "denorm-preserve-16",
      llvm::cl::desc("f16 subnormals kept on request"),
      llvm::cl::init(defaults.denormPreserve16)};
  Option<bool> denormPreserve32{
      *this, "denorm-preserve-32",
      llvm::cl::desc("f32 subnormals kept on request"),
      llvm::cl::init(defaults.denormPreserve32)};
  Option<bool> denormPreserve64{
      *this, "denorm-preserve-64",
      llvm::cl::desc("f64 subnormals kept on request"),
      llvm::cl::init(defaults.denormPreserve64)};
  Option<uint64_t> maxLoopIterations{
      *this, "max-loop-iterations",
      llvm::cl::desc("Loop iterations one invocation may run (0: no limit)"),
      llvm::cl::init(defaults.maxLoopIterations)};
};

} // namespace

void tilec::buildGPUToSPIRVPipeline(OpPassManager &pm,
                                    const SPIRVTargetOptions &options) {
  pm.addPass(createTilecSPIRVCheckDevicePass(
      optionsFromSPIRVTarget<TilecSPIRVCheckDevicePassOptions>(options)));
  pm.addPass(createTilecSPIRVInlineConstantTensorsPass());
  pm.addPass(createTilecSPIRVLegalizeBoolArithPass());
  // bf16 computes in f32, and so do math functions on f16 (Vulkan's f16
  // precision for them is far below the interpreter's).
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"bf16"};
  kernels.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  pm.addPass(createTilecSPIRVExpandPowFPass());
  pm.addPass(createTilecSPIRVExpandDivisionByZeroPass());
  pm.addPass(createTilecSPIRVExpandF64MathPass(
      optionsFromSPIRVTarget<TilecSPIRVExpandF64MathPassOptions>(options)));
  pm.addPass(createTilecSPIRVEmulateBF16Pass());
  pm.addPass(createTilecSPIRVAttachTargetPass(
      optionsFromSPIRVTarget<TilecSPIRVAttachTargetPassOptions>(options)));
  pm.addPass(createTilecConvertGPUToSPIRVPass());
  OpPassManager &spirvModule = pm.nest<spirv::ModuleOp>();
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(createTilecSPIRVFloatControlsPass(
      optionsFromSPIRVTarget<TilecSPIRVFloatControlsPassOptions>(options)));
  // One constant and one address per value, for a readable --emit=spirv-asm.
  spirvModule.addPass(createCanonicalizerPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
}

void tilec::pipelines::registerSPIRVPipeline() {
  PassPipelineRegistration<SPIRVPipelineOptions>(
      pipelineName(Phase::SPIRV),
      "Lower the gpu level to one Vulkan spirv.module (every kernel an entry "
      "point) beside the gpu.module",
      [](OpPassManager &pm, const SPIRVPipelineOptions &options) {
        buildGPUToSPIRVPipeline(pm, spirvTargetFromOptions(options));
      });
}
