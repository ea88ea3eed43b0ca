//===- TargetBackend.h - One interface for every code generator -*- C++ -*-===//
//
// A backend is one class (docs/architecture.md, "Three things that exist
// once"): its name and aliases, the runtime whose devices run its code, its
// artefact's extension, the `--emit` stages it prints and the phase of
// lib/Pipelines each follows, and its cache-key fields. Tools ask the
// registry instead of switching over targets, so adding a backend is one
// class next to its lib/Target/<Name> code and one registration line.
//
// Registering: lib/InitAll's registerAllTargetBackends() holds one line per
// built-in backend (opencl, spirv, llvm-x86 and the announced ptx). A
// backend outside the tree (a test-only one in test/lib) calls
// registerTargetBackend from a static initializer in its library:
//
//   static tilec::TargetBackendRegistration<MyBackend> registration;
//
// and any tool that links that library then finds it by name: nothing in
// the tool changes. Names are unique; registering a name twice keeps the
// first.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_TARGETBACKEND_H
#define TILEC_TARGET_TARGETBACKEND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tilec {

/// What kind of code a backend makes, which decides the phases before it:
/// GPU backends start from the gpu level (buildLoopsToGPUPipeline), CPU
/// backends from the loop level.
enum class BackendKind { GPU, CPU };

/// A form that `--emit=NAME` prints for this backend only, and the common
/// phase whose output it starts from.
struct EmitStage {
  llvm::StringRef name;  ///< "cl", "spirv-asm", "llvm", "asm"
  llvm::StringRef after; ///< "gpu" or "loops"
};

class TargetBackend {
public:
  virtual ~TargetBackend();

  /// The canonical --target spelling: "opencl".
  virtual llvm::StringRef name() const = 0;
  /// Other accepted spellings ("llvm" for llvm-x86).
  virtual llvm::ArrayRef<llvm::StringRef> aliases() const { return {}; }
  /// Whether this build generates code for it; an announced backend
  /// (docs/cli.md names it) that has not landed is listed but refused.
  virtual bool available() const { return true; }
  virtual BackendKind kind() const = 0;
  /// The runtime whose devices run its code, as rt::DeviceInfo::runtime
  /// names it ("opencl", "vulkan", "cpu").
  virtual llvm::StringRef runtime() const = 0;
  /// The extension of the kernel file or object a compile writes (".cl").
  virtual llvm::StringRef artefactExtension() const = 0;
  /// The --emit stages only this backend prints.
  virtual llvm::ArrayRef<EmitStage> emitStages() const { return {}; }
  /// The name of the stage that makes its artefact, for --time-passes
  /// ("OpenCL C").
  virtual llvm::StringRef codeGenStageName() const = 0;
  /// Why -O means nothing for this backend, for the warning that says so
  /// ("whose kernels the OpenCL driver optimises when it builds them"); empty
  /// when -O applies.
  virtual llvm::StringRef optLevelIgnoredReason() const = 0;

  /// Whether `stage` is one of emitStages().
  bool emits(llvm::StringRef stage) const;
  /// Whether `spelling` is the name or an alias.
  bool isCalled(llvm::StringRef spelling) const;
};

/// Adds `backend` to the registry (a second backend of the same name is
/// dropped). Safe to call from static initializers.
void registerTargetBackend(std::unique_ptr<TargetBackend> backend);

/// Registers a backend from a static initializer of its library.
template <typename Backend> struct TargetBackendRegistration {
  TargetBackendRegistration() {
    registerTargetBackend(std::make_unique<Backend>());
  }
};

/// Registers a backend docs/cli.md announces but this build does not
/// generate code for (available() is false): listed in help texts and
/// refused with "not implemented yet".
void registerAnnouncedTargetBackend(llvm::StringRef name, BackendKind kind,
                                    llvm::StringRef runtime,
                                    llvm::StringRef artefactExtension);

/// Every registered backend, in registration order.
std::vector<const TargetBackend *> targetBackends();

/// The backend called `spelling` (its name or an alias), or null.
const TargetBackend *lookupTargetBackend(llvm::StringRef spelling);

/// The backend whose name is `name`, which must be registered.
const TargetBackend &getTargetBackend(llvm::StringRef name);

} // namespace tilec

#endif // TILEC_TARGET_TARGETBACKEND_H
