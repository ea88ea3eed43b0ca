//===- CompileError.h - How a compile fails ---------------------*- C++ -*-===//
//
// Every failure of a compile (lib/Compiler, and the backends it calls
// through TargetBackend.h) is an llvm::Error holding a CompileError: what
// kind of problem it is (the tool maps kinds to the exit codes of
// docs/cli.md, "Exit codes and errors") and its message. An empty message
// means the problem was already shown as diagnostics (on the MLIR context's
// handler or lib/Compiler's Reporter) and nothing more should be printed.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_COMPILEERROR_H
#define TILEC_TARGET_COMPILEERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tilec {

enum class ErrorKind {
  Input,   ///< the program or an input file is wrong
  Usage,   ///< the request is wrong (a flag, a target, a device name)
  Runtime, ///< a device, runtime, resource or I/O failure
};

class CompileError : public llvm::ErrorInfo<CompileError> {
public:
  static char ID;
  CompileError(ErrorKind kind, std::string message)
      : errorKind(kind), messageText(std::move(message)) {}
  ErrorKind kind() const { return errorKind; }
  const std::string &text() const { return messageText; }
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  ErrorKind errorKind;
  std::string messageText;
};

/// The program or an input is wrong; without a message, the diagnostics
/// already said why.
llvm::Error inputError(const llvm::Twine &message = "");
/// The request is wrong.
llvm::Error usageError(const llvm::Twine &message);
/// A runtime, resource or I/O failure.
llvm::Error runtimeError(const llvm::Twine &message);
/// `error` (consumed) as a CompileError of `kind` with its text, unless it
/// already is a CompileError.
llvm::Error withKind(ErrorKind kind, llvm::Error error);

} // namespace tilec

#endif // TILEC_TARGET_COMPILEERROR_H
