//===- OpenCLBackend.cpp - The opencl target's facts ----------------------===//
//
// The OpenCL backend as the registry sees it (Target/TargetBackend.h): the
// gpu level emitted as OpenCL C 1.2 (OpenCLEmitter.h) with the launch
// manifest of lib/Target/GPU, run by an OpenCL runtime.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/OpenCL/OpenCLBackend.h"
#include "tilec/Target/TargetBackend.h"

using namespace tilec;

namespace {

class OpenCLBackend : public TargetBackend {
public:
  llvm::StringRef name() const override { return "opencl"; }
  BackendKind kind() const override { return BackendKind::GPU; }
  llvm::StringRef runtime() const override { return "opencl"; }
  llvm::StringRef artefactExtension() const override { return ".cl"; }
  llvm::ArrayRef<EmitStage> emitStages() const override { return stages; }
  llvm::StringRef codeGenStageName() const override { return "OpenCL C"; }
  llvm::StringRef optLevelIgnoredReason() const override {
    return "whose kernels the OpenCL driver optimises when it builds them";
  }

private:
  static constexpr EmitStage stages[] = {{"cl", "gpu"}};
};

} // namespace

void tilec::registerOpenCLBackend() {
  registerTargetBackend(std::make_unique<OpenCLBackend>());
}
