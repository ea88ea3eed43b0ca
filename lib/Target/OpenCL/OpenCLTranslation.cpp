//===- OpenCLTranslation.cpp - tilec-to-opencl and its manifest -----------===//
//
// See OpenCLTranslation.h. The manifest's context is lib/Target/GPU's
// (ManifestTranslation.h), shared with the SPIR-V backend.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/OpenCL/OpenCLTranslation.h"
#include "tilec/Runtime/Manifest.h"
#include "tilec/Target/GPU/GPUDialects.h"
#include "tilec/Target/GPU/ManifestTranslation.h"
#include "tilec/Target/OpenCL/OpenCLEmitter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

void tilec::registerOpenCLTranslations() {
  registerManifestTranslationOptions();
  TranslateFromMLIRRegistration source(
      "tilec-to-opencl", "the gpu level as OpenCL C 1.2 (tilec --emit=cl)",
      [](ModuleOp module, llvm::raw_ostream &os) {
        return emitOpenCL(module, os);
      },
      registerGPULevelDialects);
  TranslateFromMLIRRegistration manifest(
      "tilec-to-opencl-manifest",
      "the launch manifest of the gpu level's OpenCL kernels (K.cl.json)",
      [](ModuleOp module, llvm::raw_ostream &os) -> LogicalResult {
        FailureOr<rt::Manifest> manifest =
            buildManifest(module, translationManifestContext(module));
        if (failed(manifest))
          return failure();
        os << rt::printManifest(*manifest);
        return success();
      },
      registerGPULevelDialects);
}
