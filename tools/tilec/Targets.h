//===- Targets.h - The --target and --emit choices of this build -*- C++ -*-===//
//
// What `--target` and `--emit` may name, taken from the backend registry
// (Target/TargetBackend.h) so that --help, --version and the error for an
// unavailable target all tell the same truth and a new backend needs no
// edit here. The one target that is no backend is the reference
// interpreter, which `tilec run` executes. The --emit forms are the
// program's (ast, plaidml), the common levels (tile, loops, and gpu for GPU
// backends) and each backend's own stages.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_TARGETS_H
#define TILEC_TOOLS_TILEC_TARGETS_H

#include "tilec/Target/TargetBackend.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tilec::driver {

/// The --target of every command that does not name one.
constexpr const char *kDefaultTarget = "opencl";

/// A --target value: a registered backend, or the reference interpreter.
class TargetChoice {
public:
  static TargetChoice interpreter() { return TargetChoice(nullptr); }
  static TargetChoice of(const TargetBackend &backend) {
    return TargetChoice(&backend);
  }
  bool isInterpreter() const { return !backend; }
  /// The backend; must not be the interpreter.
  const TargetBackend &getBackend() const { return *backend; }
  /// The canonical spelling: "opencl", "interp".
  llvm::StringRef name() const;

private:
  explicit TargetChoice(const TargetBackend *backend) : backend(backend) {}
  const TargetBackend *backend;
};

/// Parses a --target value (a backend's name or alias, or "interp"). An
/// unknown name is a usage error listing the known ones.
TargetChoice parseTarget(llvm::StringRef name);
/// Checks an --emit value (a usage error listing the forms otherwise) and
/// that `target` makes it: `--emit=cl needs --target=opencl`.
void checkEmitKind(llvm::StringRef emit, TargetChoice target);
/// Whether `emit` is made by a backend (the gpu level or a backend's own
/// stage) rather than before any (ast, plaidml, tile, loops).
bool isBackendEmitKind(llvm::StringRef emit);

/// Usage errors unless the choice works in this build: a target that
/// `tilec FILE` can compile for; one that `tilec run` can execute on; one
/// whose code runs on a device (bench, autotune: `command` names it).
void requireCompileTarget(TargetChoice target);
void requireRunTarget(TargetChoice target);
void requireDeviceTarget(TargetChoice target, llvm::StringRef command);

/// -O sets the optimisation level of the code a CPU backend makes (the
/// object file, --emit=llvm|asm, the JIT of `tilec run` and `bench`). When
/// it was `given` for a target or an --emit kind that makes no such code,
/// says so on stderr: accepting it silently would suggest it did something.
void warnIfOptLevelIgnored(bool given, int level, TargetChoice target,
                           std::optional<std::string> emit);

/// Help texts for --target and --emit that say what is available.
std::string compileTargetHelp();
std::string runTargetHelp();
std::string emitKindHelp();
/// --target of the commands that run compiled code on a device (bench,
/// autotune, train), and `what` said of it: "where to measure".
std::string deviceTargetHelp(llvm::StringRef what);
/// The names of the targets that compile, as "a, b or c".
std::string compileTargetNames();
/// One line for --version: what this build can do.
std::string buildCapabilities();

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_TARGETS_H
