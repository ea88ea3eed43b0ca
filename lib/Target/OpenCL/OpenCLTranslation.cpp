//===- OpenCLTranslation.cpp - gpu-to-opencl and its manifest -------------===//
//
// See OpenCLTranslation.h. The manifest context is the one the driver fills
// for a file it compiles without a device, so a translation's manifest is
// the driver's, field for field.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/OpenCL/OpenCLTranslation.h"
#include "tilec/Runtime/Manifest.h"
#include "tilec/Support/Version.h"
#include "tilec/Target/OpenCL/ManifestBuilder.h"
#include "tilec/Target/OpenCL/OpenCLEmitter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// --manifest-artefact, created on first use (no static registrars).
static llvm::cl::opt<std::string> &manifestArtefact() {
  static llvm::cl::opt<std::string> option(
      "manifest-artefact",
      llvm::cl::desc("the kernel file a manifest translation records "
                     "(default: none)"));
  return option;
}

void tilec::registerManifestTranslationOptions() { (void)manifestArtefact(); }

tilec::ManifestContext tilec::translationManifestContext(ModuleOp module) {
  ManifestContext context;
  context.artefact = manifestArtefact();
  if (auto file = dyn_cast<FileLineColLoc>(module.getLoc()))
    context.program = file.getFilename().str();
  context.tilecVersion = kTilecVersion;
  return context;
}

void tilec::registerOpenCLTranslations() {
  registerManifestTranslationOptions();
  TranslateFromMLIRRegistration source(
      "gpu-to-opencl", "the gpu level as OpenCL C 1.2 (tilec --emit=cl)",
      [](ModuleOp module, llvm::raw_ostream &os) {
        return emitOpenCL(module, os);
      },
      registerGPULevelDialects);
  TranslateFromMLIRRegistration manifest(
      "gpu-to-opencl-manifest",
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
