//===- GLSLEmitter.h - The gpu level as GLSL compute shaders ----*- C++ -*-===//
//
// The GLSL target (lib/Target/GLSL): one GLSL 4.30 compute shader per
// kernel function of the gpu level, all in one text, each starting at a
// line `//--- shader NAME` (rt::splitShaders in the GL runtime finds them).
// The kernels' code is the gpu level's, as for OpenCL C; what GLSL lacks
// is expanded first by buildGPUToGLSLPipeline (lib/Pipelines).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GLSL_GLSLEMITTER_H
#define TILEC_TARGET_GLSL_GLSLEMITTER_H

#include "mlir/Support/LLVM.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec {

/// Writes the shaders of `module`, a gpu level as buildGPUToGLSLPipeline
/// leaves it; errors are emitted on the ops GLSL (or the device of the
/// module's #tilec.gpu_target) cannot express.
mlir::LogicalResult emitGLSL(mlir::ModuleOp module, llvm::raw_ostream &os);

/// Runs buildGPUToGLSLPipeline on a clone of the gpu level `module` and
/// writes its shaders (what the glsl target's artefact holds).
mlir::LogicalResult compileToGLSL(mlir::ModuleOp module,
                                  llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_TARGET_GLSL_GLSLEMITTER_H
