//===- ManifestTranslation.cpp - What manifest translations share ---------===//
//
// See ManifestTranslation.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/ManifestTranslation.h"
#include "tilec/Support/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"

#include "llvm/Support/CommandLine.h"

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
