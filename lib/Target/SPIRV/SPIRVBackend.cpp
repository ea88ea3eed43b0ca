//===- SPIRVBackend.cpp - The spirv target's facts ------------------------===//
//
// The SPIR-V backend as the registry sees it (Target/TargetBackend.h): the
// gpu level lowered to one Vulkan SPIR-V module (SPIRVTarget.h) with the
// launch manifest of lib/Target/GPU, run by the Vulkan runtime.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/SPIRVBackend.h"
#include "tilec/Target/TargetBackend.h"

using namespace tilec;

namespace {

class SPIRVBackend : public TargetBackend {
public:
  llvm::StringRef name() const override { return "spirv"; }
  BackendKind kind() const override { return BackendKind::GPU; }
  llvm::StringRef runtime() const override { return "vulkan"; }
  llvm::StringRef artefactExtension() const override { return ".spv"; }
  llvm::ArrayRef<EmitStage> emitStages() const override { return stages; }
  llvm::StringRef codeGenStageName() const override { return "SPIR-V"; }
  llvm::StringRef optLevelIgnoredReason() const override {
    return "whose kernels the Vulkan driver optimises when it builds them";
  }

private:
  static constexpr EmitStage stages[] = {{"spirv-asm", "gpu"}};
};

} // namespace

void tilec::registerSPIRVBackend() {
  registerTargetBackend(std::make_unique<SPIRVBackend>());
}
