//===- GLSLTranslation.cpp - tilec-to-glsl --------------------------------===//
//
// See GLSLTranslation.h. The manifest is every GPU target's
// (tilec-to-opencl-manifest prints it).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GLSL/GLSLTranslation.h"
#include "tilec/Target/GLSL/GLSLEmitter.h"
#include "tilec/Target/GPU/GPUDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;

void tilec::registerGLSLTranslations() {
  TranslateFromMLIRRegistration shaders(
      "tilec-to-glsl",
      "the gpu level as GLSL compute shaders (tilec --emit=glsl without "
      "the tilec-pipeline-glsl preparation)",
      [](ModuleOp module, llvm::raw_ostream &os) {
        return emitGLSL(module, os);
      },
      registerGPULevelDialects);
}
