//===- NarrowFloats.h - f16 and bf16 computed in f32 ------------*- C++ -*-===//
//
// What the GPU pipelines that lower through MLIR (SPIR-V, NVVM) do alike
// with the narrow floats, so that they compute as the interpreter does.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_PIPELINES_NARROWFLOATS_H
#define TILEC_LIB_PIPELINES_NARROWFLOATS_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tilec::pipelines {

/// Adds to `pm` (a pass manager on the module) the passes that compute
/// bf16 arithmetic and the math functions of f16 and bf16 in f32, rounded
/// once per operation: no GPU API has bf16 arithmetic everywhere, and
/// their f16 math functions are far less accurate than the interpreter's.
void addNarrowFloatsInF32(mlir::OpPassManager &pm);

} // namespace tilec::pipelines

#endif // TILEC_LIB_PIPELINES_NARROWFLOATS_H
