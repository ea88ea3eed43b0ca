//===- WriteSPIRV.cpp - tilec-write-spirv ---------------------------------===//
//
// What `tilec --target=spirv -o OUT` writes, from tilec-opt: lets the lit
// tests validate the binaries and read the manifests of compileToSPIRV.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "tilec/Support/FileIO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/Support/Path.h"

#include <string_view>

namespace tilec {
#define GEN_PASS_DEF_TILECWRITESPIRVPASS
#include "Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

struct WriteSPIRVPass : tilec::impl::TilecWriteSPIRVPassBase<WriteSPIRVPass> {
  using TilecWriteSPIRVPassBase::TilecWriteSPIRVPassBase;
  TILEC_SPIRV_DEVICE_OPTIONS_PUBLIC(TilecWriteSPIRVPassBase);

  void runOnOperation() override {
    markAllAnalysesPreserved();
    ModuleOp module = getOperation();
    tilec::ManifestContext context;
    context.artefact = llvm::sys::path::filename(output).str();
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr("tilec.entry"))
        context.entry = func.getName().str();
    FailureOr<tilec::SPIRVArtefact> artefact = tilec::compileToSPIRV(
        module, tilec::spirvTargetFromOptions(*this), context);
    if (failed(artefact))
      return signalPassFailure();
    std::string_view words(
        reinterpret_cast<const char *>(artefact->binary.data()),
        artefact->binary.size() * sizeof(uint32_t));
    tilec::Status status = tilec::writeFileAtomically(output, words);
    if (status)
      status = tilec::rt::writeManifest(output + ".json", artefact->manifest);
    if (!status) {
      module.emitError() << status.message();
      return signalPassFailure();
    }
  }
};

} // namespace
