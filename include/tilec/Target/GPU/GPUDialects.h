//===- GPUDialects.h - The dialects of the gpu level ------------*- C++ -*-===//
//
// Part of lib/Target/GPU, shared by every GPU backend: what a context needs
// loaded to parse or build gpu-level MLIR (docs/architecture.md, "Pipeline").
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GPU_GPUDIALECTS_H
#define TILEC_TARGET_GPU_GPUDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tilec {

/// Registers the dialects of the gpu level (func, gpu, scf, arith, math,
/// memref, vector), so that gpu-level MLIR can be parsed.
void registerGPULevelDialects(mlir::DialectRegistry &registry);

} // namespace tilec

#endif // TILEC_TARGET_GPU_GPUDIALECTS_H
