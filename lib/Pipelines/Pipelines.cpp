//===- Pipelines.cpp - The pass pipelines of tilec ------------------------===//
//
// The tile dialect to the loop level, and the registration of every
// pipeline. The tile-level passes run per function; the conversion runs on
// the module because it replaces functions and adds constant globals.
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipelines/Pipelines.h"

#include "PipelineRegistration.h"

#include "tilec/Pipelines/Phase.h"
#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Kernel/Transforms/Passes.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tilec::buildTileToLoopsPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(tile::createTileComputeBoundsPass());
  pm.addNestedPass<func::FuncOp>(tile::createTileReindexSinkPass());
  pm.addNestedPass<func::FuncOp>(tile::createTileFuseElementwisePass());
  pm.addPass(createConvertTileToLoopsPass());
  pm.addNestedPass<func::FuncOp>(createReuseTemporaryBuffersPass());
  pm.addNestedPass<func::FuncOp>(createFingerprintKernelsPass());
}

void tilec::registerTilecPipelines() {
  PassPipelineRegistration<>(
      pipelineName(Phase::Loops),
      "Lower the tile dialect to the loop level (bounds, per-cell output "
      "indices, fusion, loops, buffer planning, fingerprints)",
      [](OpPassManager &pm) { buildTileToLoopsPipeline(pm); });
  pipelines::registerGPUPipeline();
  pipelines::registerSPIRVPipeline();
  pipelines::registerGLSLPipeline();
  pipelines::registerLLVMPipeline();
  pipelines::registerNVVMPipeline();
}
