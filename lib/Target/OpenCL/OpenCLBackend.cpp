//===- OpenCLBackend.cpp - The opencl target ------------------------------===//
//
// The OpenCL backend as the registry sees it (Target/TargetBackend.h): the
// gpu level emitted as OpenCL C 1.2 (OpenCLEmitter.h) with the launch
// manifest of lib/Target/GPU, run by an OpenCL runtime.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/OpenCL/OpenCLBackend.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/StageTiming.h"
#include "tilec/Target/GPU/GPUTargetBackend.h"
#include "tilec/Target/GPU/ManifestBuilder.h"
#include "tilec/Target/OpenCL/OpenCLEmitter.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilec;

namespace {

class OpenCLBackend : public GPUTargetBackend {
public:
  llvm::StringRef name() const override { return "opencl"; }
  llvm::StringRef runtime() const override { return "opencl"; }
  llvm::StringRef artefactExtension() const override { return ".cl"; }
  llvm::ArrayRef<EmitStage> emitStages() const override { return stages; }
  llvm::StringRef codeGenStageName() const override { return "OpenCL C"; }
  llvm::StringRef optLevelIgnoredReason() const override {
    return "whose kernels the OpenCL driver optimises when it builds them";
  }

  llvm::Expected<Artefact>
  serialize(mlir::ModuleOp module,
            const ArtefactRequest &request) const override {
    TimedStage stage(codeGenStageName());
    Artefact artefact;
    llvm::raw_string_ostream os(artefact.bytes);
    if (mlir::failed(emitOpenCL(module, os)))
      return inputError();
    ManifestContext context = request.context;
    context.target = name().str();
    mlir::FailureOr<rt::Manifest> manifest = buildManifest(module, context);
    if (mlir::failed(manifest))
      return inputError();
    artefact.manifest = std::move(*manifest);
    return artefact;
  }

  /// --emit=cl: the kernels alone.
  llvm::Error printStage(llvm::StringRef stage, mlir::ModuleOp module,
                         const ArtefactRequest &request,
                         llvm::raw_ostream &os) const override {
    if (stage != "cl")
      return GPUTargetBackend::printStage(stage, module, request, os);
    if (mlir::failed(emitOpenCL(module, os)))
      return inputError();
    return llvm::Error::success();
  }

private:
  static constexpr EmitStage stages[] = {{"cl", "gpu"}};
};

} // namespace

void tilec::registerOpenCLBackend() {
  registerTargetBackend(std::make_unique<OpenCLBackend>());
}
