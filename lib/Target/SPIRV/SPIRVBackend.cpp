//===- SPIRVBackend.cpp - The spirv target --------------------------------===//
//
// The SPIR-V backend as the registry sees it (Target/TargetBackend.h): the
// gpu level lowered to one Vulkan SPIR-V module (SPIRVTarget.h) for the
// device of its #tilec.gpu_target, with the launch manifest of
// lib/Target/GPU, run by the Vulkan runtime.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/SPIRVBackend.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/StageTiming.h"
#include "tilec/Target/GPU/GPUTargetBackend.h"
#include "tilec/Target/SPIRV/SPIRVTarget.h"

using namespace tilec;

namespace {

class SPIRVBackend : public GPUTargetBackend {
public:
  llvm::StringRef name() const override { return "spirv"; }
  llvm::StringRef runtime() const override { return "vulkan"; }
  llvm::StringRef artefactExtension() const override { return ".spv"; }
  llvm::ArrayRef<EmitStage> emitStages() const override { return stages; }
  llvm::StringRef codeGenStageName() const override { return "SPIR-V"; }
  llvm::StringRef optLevelIgnoredReason() const override {
    return "whose kernels the Vulkan driver optimises when it builds them";
  }

  llvm::Expected<Artefact>
  serialize(mlir::ModuleOp module,
            const ArtefactRequest &request) const override {
    TimedStage stage(codeGenStageName());
    mlir::FailureOr<SPIRVArtefact> spirv =
        compileToSPIRV(module, request.context);
    if (mlir::failed(spirv))
      return inputError();
    Artefact artefact;
    const auto *words = reinterpret_cast<const char *>(spirv->binary.data());
    artefact.bytes.assign(words, words + 4 * spirv->binary.size());
    artefact.manifest = std::move(spirv->manifest);
    return artefact;
  }

  /// --emit=spirv-asm: the spirv.module in MLIR's form.
  llvm::Error printStage(llvm::StringRef stage, mlir::ModuleOp module,
                         const ArtefactRequest &request,
                         llvm::raw_ostream &os) const override {
    if (stage != "spirv-asm")
      return GPUTargetBackend::printStage(stage, module, request, os);
    if (mlir::failed(printSPIRVAssembly(module, os)))
      return inputError();
    return llvm::Error::success();
  }

private:
  static constexpr EmitStage stages[] = {{"spirv-asm", "gpu"}};
};

} // namespace

void tilec::registerSPIRVBackend() {
  registerTargetBackend(std::make_unique<SPIRVBackend>());
}
