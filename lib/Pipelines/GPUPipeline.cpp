//===- GPUPipeline.cpp - The loop level to the gpu level ------------------===//
//
// buildLoopsToGPUPipeline and its tilec-opt registration
// (`tilec-pipeline-gpu`; the device is the module's #tilec.gpu_target).
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipelines/Pipelines.h"

#include "PipelineRegistration.h"

#include "tilec/Pipelines/Phase.h"

#include "tilec/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tilec::buildLoopsToGPUPipeline(OpPassManager &pm, bool indexIs32Bit) {
  // Nests that `tilec` scheduled were fused and flattened before (ModuleStages.h);
  // tilec-opt's are here, before their defaults.
  pm.addNestedPass<func::FuncOp>(createTilecGPUFuseRowsPass());
  pm.addNestedPass<func::FuncOp>(createTilecGPUFlattenContractionsPass());
  // Before the defaults: the kernel that aggregates the slices has none.
  pm.addNestedPass<func::FuncOp>(createTilecGPUSplitReductionsPass());
  pm.addNestedPass<func::FuncOp>(createTilecGPUDefaultSchedulePass());
  pm.addPass(createTilecMapKernelsToGPUPass());
  // Equal kernels (a network's repeated blocks) are compiled once.
  pm.addPass(createTilecDedupGPUKernelsPass());
  // The kernels hold no affine op any more; this lowers any the host code
  // holds outside kernel nests, so that the gpu level has none.
  pm.addPass(createLowerAffinePass());
  // Index arithmetic in 32 bits wherever the ranges of the ids, the known
  // work-group and grid sizes and the loop bounds prove it fits: fewer
  // registers for addresses in OpenCL C, the same values.
  // Before that, what the ranges decide is folded: the sign tests of
  // floordiv and mod (an implicit GEMM's indices: ids and loop variables,
  // never negative) and the selects they feed.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>().nest<gpu::GPUFuncOp>();
  kernels.addPass(arith::createArithIntRangeOpts());
  kernels.addPass(createCanonicalizerPass());
  TilecGPUNarrowIntegersPassOptions narrowing;
  narrowing.indexIs32Bit = indexIs32Bit;
  kernels.addPass(createTilecGPUNarrowIntegersPass(narrowing));
}

void tilec::pipelines::registerGPUPipeline() {
  PassPipelineRegistration<>(
      pipelineName(Phase::GPU),
      "Map the loop level to the gpu level for the device of the module's "
      "#tilec.gpu_target: default schedules, work-groups and work-items, one "
      "gpu.module of kernels launched in order",
      [](OpPassManager &pm) { buildLoopsToGPUPipeline(pm); });
}
