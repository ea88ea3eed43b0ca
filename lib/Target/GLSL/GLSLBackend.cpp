//===- GLSLBackend.cpp - The glsl target ----------------------------------===//
//
// The GLSL backend as the registry sees it (Target/TargetBackend.h): the
// gpu level prepared by buildGPUToGLSLPipeline and written as GLSL compute
// shaders (GLSLEmitter.h), with the launch manifest of lib/Target/GPU, run
// by the OpenGL runtime (lib/Runtime/GL) through EGL.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GLSL/GLSLBackend.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/GLSL/GLSLEmitter.h"
#include "tilec/Target/GPU/GPUTargetBackend.h"
#include "tilec/Target/GPU/ManifestBuilder.h"
#include "tilec/Target/StageTiming.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilec;

namespace {

class GLSLBackend : public GPUTargetBackend {
public:
  llvm::StringRef name() const override { return "glsl"; }
  llvm::StringRef runtime() const override { return "gl"; }
  llvm::StringRef artefactExtension() const override { return ".glsl"; }
  llvm::ArrayRef<EmitStage> emitStages() const override { return stages; }
  llvm::StringRef codeGenStageName() const override { return "GLSL"; }
  /// GL addresses buffers with int (ShaderEmitter: index is int).
  bool indexIs32Bit() const override { return true; }
  llvm::StringRef optLevelIgnoredReason() const override {
    return "whose shaders the OpenGL driver optimises when it compiles them";
  }

  llvm::Expected<Artefact>
  serialize(mlir::ModuleOp module,
            const ArtefactRequest &request) const override {
    TimedStage stage(codeGenStageName());
    Artefact artefact;
    llvm::raw_string_ostream os(artefact.bytes);
    if (mlir::failed(compileToGLSL(module, os)))
      return inputError();
    ManifestContext context = request.context;
    context.target = name().str();
    mlir::FailureOr<rt::Manifest> manifest = buildManifest(module, context);
    if (mlir::failed(manifest))
      return inputError();
    artefact.manifest = std::move(*manifest);
    return artefact;
  }

  /// --emit=glsl: the shaders alone.
  llvm::Error printStage(llvm::StringRef stage, mlir::ModuleOp module,
                         const ArtefactRequest &request,
                         llvm::raw_ostream &os) const override {
    if (stage != "glsl")
      return GPUTargetBackend::printStage(stage, module, request, os);
    if (mlir::failed(compileToGLSL(module, os)))
      return inputError();
    return llvm::Error::success();
  }

private:
  static constexpr EmitStage stages[] = {{"glsl", "gpu"}};
};

} // namespace

void tilec::registerGLSLBackend() {
  registerTargetBackend(std::make_unique<GLSLBackend>());
}
