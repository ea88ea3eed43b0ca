//===- GPUIRBackend.cpp - A test-only backend: the gpu level as text ------===//
//
// The dry run of the backend interface (docs/architecture.md, "Three things
// that exist once"): a GPU backend whose artefact is the gpu-level module
// itself, printed. It lives outside lib/, registers itself from a static
// initializer, and reaches `--target=test-gpu-ir` of tilec-test-backends,
// the tilec driver built from the same sources with this library linked in;
// nothing in the driver names it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/GPUTargetBackend.h"
#include "tilec/Target/StageTiming.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilec;

namespace {

class GPUIRBackend : public GPUTargetBackend {
public:
  llvm::StringRef name() const override { return "test-gpu-ir"; }
  /// No device runs it: run, bench and autotune find none.
  llvm::StringRef runtime() const override { return "none"; }
  llvm::StringRef artefactExtension() const override { return ".mlir"; }
  llvm::StringRef codeGenStageName() const override { return "gpu-level IR"; }
  llvm::StringRef optLevelIgnoredReason() const override {
    return "which prints IR";
  }

  llvm::Expected<Artefact>
  serialize(mlir::ModuleOp module,
            const ArtefactRequest &request) const override {
    TimedStage stage(codeGenStageName());
    Artefact artefact;
    llvm::raw_string_ostream os(artefact.bytes);
    module->print(os);
    return artefact;
  }
};

TargetBackendRegistration<GPUIRBackend> registration;

} // namespace
