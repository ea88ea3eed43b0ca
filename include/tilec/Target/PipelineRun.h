//===- PipelineRun.h - How a compile runs its MLIR pipelines ----*- C++ -*-===//
//
// Every pass manager of a compile runs through runCompilePipeline: MLIR's
// verifier checks the result once, not after each pass. On MobileNet's
// unrolled GPU kernels, verifying after every pass was 11% of the compile.
// tilec-opt, which the pass tests drive, still verifies after each pass.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PIPELINERUN_H
#define TILEC_TARGET_PIPELINERUN_H

#include "mlir/Pass/PassManager.h"

namespace tilec {

/// Runs `pm` on `op` and verifies what it made; a pass's failure or invalid
/// IR (a compiler bug, reported through the context's diagnostics) fails.
mlir::LogicalResult runCompilePipeline(mlir::PassManager &pm,
                                       mlir::Operation *op);

} // namespace tilec

#endif // TILEC_TARGET_PIPELINERUN_H
