//===- TargetBackend.h - One interface for every code generator -*- C++ -*-===//
//
// A backend is one class (docs/architecture.md, "Three things that exist
// once"): its name and aliases, the runtime whose devices run its code, its
// artefact's extension, the `--emit` stages it prints, the dialects its
// compile holds, how a device profile marks the module it compiles (the
// target attribute), its serializer (the module as an artefact: kernel file
// and manifest, or object and C header), its cache-key fields and its
// runtime. lib/Compiler drives every backend through this interface and
// the tools ask the registry, so adding a backend is one class next to its
// lib/Target/<Name> code and one registration line; nothing switches over
// targets.
//
// The phases before a backend are the common ones of lib/Pipelines, chosen
// by its kind: a GPU backend serializes the gpu level (after the loop level
// is scheduled for the device and mapped by buildLoopsToGPUPipeline); a CPU
// backend serializes the scheduled loop level and runs its own pipeline.
//
// Registering: lib/InitAll's registerAllTargetBackends() holds one line per
// built-in backend. A backend outside the tree (the test-only one in
// test/lib) registers from a static initializer of its library:
//
//   static tilec::TargetBackendRegistration<MyBackend> registration;
//
// and any tool that links that library finds it by name: nothing in the tool
// changes. Names are unique; registering a name twice keeps the first.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_TARGETBACKEND_H
#define TILEC_TARGET_TARGETBACKEND_H

#include "tilec/Runtime/Device.h"
#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Target/Artefact.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {

/// What kind of code a backend makes, which decides the phases before it:
/// GPU backends start from the gpu level (buildLoopsToGPUPipeline) and
/// their kernels get GPU schedules; CPU backends start from the loop level
/// and their kernels get CPU schedules.
enum class BackendKind { GPU, CPU };

/// A form that `--emit=NAME` prints for this backend only, and the common
/// phase whose output it starts from.
struct EmitStage {
  llvm::StringRef name;  ///< "cl", "spirv-asm", "llvm", "asm"
  llvm::StringRef after; ///< "gpu" or "loops"
};

/// One field of the compile cache's key: the artefact depends on it.
using CacheKeyField = std::pair<std::string, std::string>;

class TargetBackend {
public:
  virtual ~TargetBackend();

  //===--------------------------------------------------------------------===//
  // What the backend is
  //===--------------------------------------------------------------------===//

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

  //===--------------------------------------------------------------------===//
  // How it compiles
  //===--------------------------------------------------------------------===//

  /// Adds the dialects a compile for this backend holds, from the loop
  /// level to what it serializes.
  virtual void registerDialects(mlir::DialectRegistry &registry) const {}
  /// Checks what `request` asks before anything is compiled: a usage
  /// error when it cannot be met (a CPU LLVM does not know).
  virtual llvm::Error checkRequest(const ArtefactRequest &request) const {
    return llvm::Error::success();
  }
  /// Whether the backend's code computes every index in 32 bits, whatever
  /// the IR's index type (GLSL's int): the GPU mapping then narrows only
  /// kernels that compute in wider integers to 32 bits (for the others the
  /// narrowing would only add casts). False by default.
  virtual bool indexIs32Bit() const { return false; }
  /// Marks the loop-level `module` with the device it is compiled for; GPU
  /// backends put `device` on it as its #tilec.gpu_target, which every GPU
  /// pass reads. The default does nothing.
  virtual void attachTarget(mlir::ModuleOp module,
                            const schedule::DeviceProfile &device) const {}
  /// The artefact of `module` (the gpu level for a GPU backend, the
  /// scheduled loop level for a CPU one), which is left unchanged; its
  /// stages are timed for --time-passes (StageTiming.h). Failures
  /// are CompileErrors (CompileError.h): an input error without a message
  /// when diagnostics were emitted on the module's ops, a runtime error when
  /// the backend itself failed.
  virtual llvm::Expected<Artefact>
  serialize(mlir::ModuleOp module, const ArtefactRequest &request) const = 0;
  /// Prints `stage` (one of emitStages()) of `module`, which is left
  /// unchanged; failures as for serialize.
  virtual llvm::Error printStage(llvm::StringRef stage, mlir::ModuleOp module,
                                 const ArtefactRequest &request,
                                 llvm::raw_ostream &os) const;
  /// What the artefact depends on besides the module and the request's
  /// context and output path, for the compile cache's key (the CPU
  /// backend: the target triple, CPU, features and -O). None by default.
  virtual llvm::Expected<std::vector<CacheKeyField>>
  cacheKeyFields(const ArtefactRequest &request) const {
    return std::vector<CacheKeyField>();
  }
  /// The runtime that loads this backend's artefacts (those serialized
  /// with `forRuntime`): by default the one called runtime() among the
  /// runtimes of this build (rt::allRuntimes); `optLevel` is -O for a
  /// runtime that compiles (the host JIT). Null when this build has none.
  virtual std::unique_ptr<rt::Runtime> createRuntime(unsigned optLevel) const;

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
