//===- Targets.h - Targets and --emit kinds of this build -------*- C++ -*-===//
//
// docs/cli.md names every target and intermediate form tilec will have; this
// build implements every --emit kind but only some of the targets. One table
// records which, so that --help, --version and the error for an unavailable
// target all tell the same truth, and a later back end is switched on in one
// place.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_TARGETS_H
#define TILEC_TOOLS_TILEC_TARGETS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec::driver {

struct CompileOptions;

enum class Target { OpenCL, SPIRV, LLVMX86, PTX, Interp };
enum class EmitKind { AST, Tile, Loops, GPU, LLVM, Asm, CL, SPIRVAsm, PlaidML };

/// The canonical spelling: "opencl", "llvm-x86", "interp".
llvm::StringRef targetName(Target target);
/// The spelling used with --emit: "ast", "spirv-asm".
llvm::StringRef emitKindName(EmitKind kind);

/// Parses a --target value ("llvm" is an alias of "llvm-x86"). An unknown
/// name is a usage error listing the known ones.
Target parseTarget(llvm::StringRef name);
/// Parses an --emit value; an unknown kind is a usage error.
EmitKind parseEmitKind(llvm::StringRef name);

/// Usage errors unless the choice works in this build: a target that
/// `tilec FILE` can compile for, a target `tilec run` can execute on.
void requireCompileTarget(Target target);
void requireRunTarget(Target target);

/// -O sets the optimisation level of the code LLVM makes for llvm-x86 (the
/// object file, --emit=llvm|asm, the JIT of `tilec run` and `bench`). When
/// it was `given` for a target or an --emit kind that makes no such code,
/// says so on stderr: accepting it silently would suggest it did something.
void warnIfOptLevelIgnored(bool given, int level, Target target,
                           std::optional<EmitKind> emit);

/// All of --schedule for a plain compile (`tilec FILE`, including
/// --emit=loops): compiler::applyScheduleFileForCompile with the target's
/// name and the flags. Does nothing without --schedule.
llvm::Error applyScheduleOption(Target target, const CompileOptions &options,
                                mlir::ModuleOp module);

/// Help texts for --target and --emit that say what is available.
std::string compileTargetHelp();
std::string runTargetHelp();
std::string emitKindHelp();
/// One line for --version: what this build can do.
std::string buildCapabilities();

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_TARGETS_H
