//===- PipelineRun.cpp - How a compile runs its MLIR pipelines -----------===//
//
// See PipelineRun.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PipelineRun.h"

#include "mlir/IR/Verifier.h"

mlir::LogicalResult tilec::runCompilePipeline(mlir::PassManager &pm,
                                              mlir::Operation *op) {
  pm.enableVerifier(false);
  if (mlir::failed(pm.run(op)))
    return mlir::failure();
  return mlir::verify(op);
}
