//===- Pipelines.h - The pass pipelines of tilec ----------------*- C++ -*-===//
//
// The pipelines that `tilec` runs and `tilec-opt` exposes, so both compile
// a program the same way (CIRCT's Firtool and IREE's Passes.cpp pattern).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PIPELINES_PIPELINES_H
#define TILEC_PIPELINES_PIPELINES_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tilec {

/// tile dialect -> loop level: canonicalize, tile-compute-bounds,
/// tile-fuse-elementwise, convert-tile-to-loops, tile-plan-buffers and
/// tile-fingerprint-kernels. Runs on a module.
void buildTileToLoopsPipeline(mlir::OpPassManager &pm);

/// Registers the pipelines with the pass registry (`tilec-pipeline-loops`).
void registerTilecPipelines();

} // namespace tilec

#endif // TILEC_PIPELINES_PIPELINES_H
