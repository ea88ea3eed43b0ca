//===- Reporter.h - Where lib/Compiler's messages go ------------*- C++ -*-===//
//
// lib/Compiler never prints (docs/architecture.md, "Rules of thumb"): what
// a compile has to say that is not its result goes to a Reporter the tool
// supplies. `tilec` writes warnings as "tilec: warning: TEXT" and remarks
// (what -v shows) as "tilec: TEXT" on stderr; a unit test can collect them.
// Errors are not reported here: they are the llvm::Error values of
// CompileError.h, which the tool turns into messages and exit codes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_REPORTER_H
#define TILEC_COMPILER_REPORTER_H

#include "llvm/ADT/Twine.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec::compiler {

class Reporter {
public:
  virtual ~Reporter();
  /// Something is off but the compile goes on (an unusable schedule file,
  /// a cache folder that cannot be written).
  virtual void warning(const llvm::Twine &message) = 0;
  /// What the compile did, for -v ("schedule: ...", "cache hit: ...");
  /// library code only calls it when asked to be verbose.
  virtual void remark(const llvm::Twine &message) = 0;
  /// Where MLIR and front-end diagnostics are rendered (file:line:col with
  /// a caret); the library installs its handlers on this stream.
  virtual llvm::raw_ostream &diagnostics() = 0;
};

/// A Reporter that drops warnings and remarks and discards diagnostics:
/// for callers that only want the result (and for unit tests).
Reporter &silentReporter();

} // namespace tilec::compiler

#endif // TILEC_COMPILER_REPORTER_H
