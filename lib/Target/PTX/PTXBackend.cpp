//===- PTXBackend.cpp - The ptx target ------------------------------------===//
//
// The PTX backend as the registry sees it (Target/TargetBackend.h): the
// gpu level lowered to one PTX module (PTXTarget.h) for the compute
// capability of its #tilec.gpu_target, with the launch manifest of
// lib/Target/GPU, run by the CUDA runtime, whose driver compiles the PTX.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX/PTXBackend.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/GPU/GPUTargetBackend.h"
#include "tilec/Target/PTX/PTXTarget.h"
#include "tilec/Target/StageTiming.h"

#include "mlir/IR/DialectRegistry.h"

using namespace tilec;

namespace {

class PTXBackend : public GPUTargetBackend {
public:
  llvm::StringRef name() const override { return "ptx"; }
  llvm::StringRef runtime() const override { return "cuda"; }
  llvm::StringRef artefactExtension() const override { return ".ptx"; }
  llvm::ArrayRef<EmitStage> emitStages() const override { return stages; }
  llvm::StringRef codeGenStageName() const override { return "PTX"; }
  llvm::StringRef optLevelIgnoredReason() const override {
    return "whose kernels are always optimised at -O3 and again by the "
           "CUDA driver when it loads them";
  }

  void registerDialects(mlir::DialectRegistry &registry) const override {
    GPUTargetBackend::registerDialects(registry);
    registerNVVMLevelDialects(registry);
  }

  llvm::Expected<Artefact>
  serialize(mlir::ModuleOp module,
            const ArtefactRequest &request) const override {
    TimedStage stage(codeGenStageName());
    mlir::FailureOr<PTXArtefact> ptx = compileToPTX(module, request.context);
    if (mlir::failed(ptx))
      return inputError();
    Artefact artefact;
    artefact.bytes = std::move(ptx->ptx);
    artefact.manifest = std::move(ptx->manifest);
    return artefact;
  }

  /// --emit=nvvm: the kernels in the LLVM and NVVM dialects; --emit=ptx:
  /// the PTX text.
  llvm::Error printStage(llvm::StringRef stage, mlir::ModuleOp module,
                         const ArtefactRequest &request,
                         llvm::raw_ostream &os) const override {
    if (stage == "nvvm")
      return mlir::succeeded(printNVVM(module, os)) ? llvm::Error::success()
                                                     : inputError();
    if (stage == "ptx")
      return mlir::succeeded(printPTX(module, os)) ? llvm::Error::success()
                                                    : inputError();
    return GPUTargetBackend::printStage(stage, module, request, os);
  }

private:
  static constexpr EmitStage stages[] = {{"nvvm", "gpu"}, {"ptx", "gpu"}};
};

} // namespace

void tilec::registerPTXBackend() {
  registerTargetBackend(std::make_unique<PTXBackend>());
}
