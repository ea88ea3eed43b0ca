//===- GPUPipeline.cpp - The loop level to the gpu level ------------------===//
//
// buildLoopsToGPUPipeline and its tilec-opt registration
// (`tilec-pipeline-gpu`, with the device facts as options).
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipelines/Pipelines.h"

#include "PipelineRegistration.h"

#include "tilec/Pipelines/Phase.h"

#include "tilec/Conversion/LoopsToGPU/TargetOptions.h"
#include "tilec/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {

/// The options of `tilec-pipeline-gpu`: GPUTargetOptions, named as the
/// passes name them.
struct GPUPipelineOptions : public PassPipelineOptions<GPUPipelineOptions> {
  Option<int64_t> maxWorkGroupSize{*this, "max-workgroup-size",
                                   llvm::cl::desc("Work-items per work-group"),
                                   llvm::cl::init(256)};
  Option<int64_t> maxWorkItemSizeX{*this, "max-workitem-size-x",
                                   llvm::cl::desc("Work-items along x"),
                                   llvm::cl::init(256)};
  Option<int64_t> maxWorkItemSizeY{*this, "max-workitem-size-y",
                                   llvm::cl::desc("Work-items along y"),
                                   llvm::cl::init(256)};
  Option<int64_t> maxWorkItemSizeZ{*this, "max-workitem-size-z",
                                   llvm::cl::desc("Work-items along z"),
                                   llvm::cl::init(64)};
  Option<int64_t> localMemBytes{
      *this, "local-mem-bytes",
      llvm::cl::desc("Local memory per work-group in bytes"),
      llvm::cl::init(16384)};
  Option<int64_t> computeUnits{*this, "compute-units",
                               llvm::cl::desc("Compute units of the device"),
                               llvm::cl::init(8)};
  Option<int64_t> preferredVectorWidth{
      *this, "preferred-vector-width",
      llvm::cl::desc("Preferred vector width for floats"), llvm::cl::init(1)};
  Option<int64_t> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("Work-items per subgroup (warp, wavefront)"),
      llvm::cl::init(32)};
};

} // namespace

void tilec::buildLoopsToGPUPipeline(OpPassManager &pm,
                                    const GPUTargetOptions &target) {
  pm.addNestedPass<func::FuncOp>(createTilecGPUDefaultSchedulePass(
      optionsFromTarget<TilecGPUDefaultSchedulePassOptions>(target)));
  pm.addPass(createTilecMapKernelsToGPUPass(
      optionsFromTarget<TilecMapKernelsToGPUPassOptions>(target)));
  // Equal kernels (a network's repeated blocks) are compiled once.
  pm.addPass(createTilecDedupGPUKernelsPass());
  // The kernels hold no affine op any more; this lowers any the host code
  // holds outside kernel nests, so that the gpu level has none.
  pm.addPass(createLowerAffinePass());
}

void tilec::pipelines::registerGPUPipeline() {
  PassPipelineRegistration<GPUPipelineOptions>(
      pipelineName(Phase::GPU),
      "Map the loop level to the gpu level: default schedules, work-groups "
      "and work-items, one gpu.module of kernels launched in order",
      [](OpPassManager &pm, const GPUPipelineOptions &options) {
        buildLoopsToGPUPipeline(pm, targetFromOptions(options));
      });
}
