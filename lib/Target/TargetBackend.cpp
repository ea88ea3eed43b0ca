//===- TargetBackend.cpp - The registry of backends -----------------------===//
//
// See TargetBackend.h. The registry is a function-local static so that
// static initializers of other libraries may register into it whatever the
// order of initialisation.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/TargetBackend.h"
#include "tilec/Target/CompileError.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>

using namespace tilec;

TargetBackend::~TargetBackend() = default;

bool TargetBackend::emits(llvm::StringRef stage) const {
  return llvm::any_of(emitStages(),
                      [&](const EmitStage &own) { return own.name == stage; });
}

bool TargetBackend::isCalled(llvm::StringRef spelling) const {
  return spelling == name() || llvm::is_contained(aliases(), spelling);
}

llvm::Error TargetBackend::printStage(llvm::StringRef stage, mlir::ModuleOp,
                                      const ArtefactRequest &,
                                      llvm::raw_ostream &) const {
  return usageError("target '" + name() + "' does not print --emit=" + stage);
}

std::unique_ptr<rt::Runtime> TargetBackend::createRuntime(unsigned) const {
  for (std::unique_ptr<rt::Runtime> &candidate : rt::allRuntimes())
    if (candidate->name() == runtime())
      return std::move(candidate);
  return nullptr;
}

namespace {

/// A backend that is announced but not built.
class AnnouncedBackend : public TargetBackend {
public:
  AnnouncedBackend(llvm::StringRef name, BackendKind kind,
                   llvm::StringRef runtime, llvm::StringRef extension)
      : backendName(name.str()), backendKind(kind),
        runtimeName(runtime.str()), extension(extension.str()) {}
  llvm::StringRef name() const override { return backendName; }
  bool available() const override { return false; }
  BackendKind kind() const override { return backendKind; }
  llvm::StringRef runtime() const override { return runtimeName; }
  llvm::StringRef artefactExtension() const override { return extension; }
  llvm::StringRef codeGenStageName() const override { return ""; }
  llvm::StringRef optLevelIgnoredReason() const override {
    return "which has no code generation in this build";
  }
  llvm::Expected<Artefact> serialize(mlir::ModuleOp,
                                     const ArtefactRequest &) const override {
    return usageError("target '" + name() + "' is not implemented yet");
  }

private:
  std::string backendName;
  BackendKind backendKind;
  std::string runtimeName, extension;
};

} // namespace

static std::vector<std::unique_ptr<TargetBackend>> &registry() {
  static std::vector<std::unique_ptr<TargetBackend>> backends;
  return backends;
}

void tilec::registerTargetBackend(std::unique_ptr<TargetBackend> backend) {
  if (!lookupTargetBackend(backend->name()))
    registry().push_back(std::move(backend));
}

void tilec::registerAnnouncedTargetBackend(llvm::StringRef name,
                                           BackendKind kind,
                                           llvm::StringRef runtime,
                                           llvm::StringRef artefactExtension) {
  registerTargetBackend(
      std::make_unique<AnnouncedBackend>(name, kind, runtime, artefactExtension));
}

std::vector<const TargetBackend *> tilec::targetBackends() {
  std::vector<const TargetBackend *> backends;
  for (const std::unique_ptr<TargetBackend> &backend : registry())
    backends.push_back(backend.get());
  return backends;
}

const TargetBackend *tilec::lookupTargetBackend(llvm::StringRef spelling) {
  for (const std::unique_ptr<TargetBackend> &backend : registry())
    if (backend->isCalled(spelling))
      return backend.get();
  return nullptr;
}

const TargetBackend &tilec::getTargetBackend(llvm::StringRef name) {
  const TargetBackend *backend = lookupTargetBackend(name);
  assert(backend && "the backend is not registered");
  return *backend;
}
