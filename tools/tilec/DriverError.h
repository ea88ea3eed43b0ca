//===- DriverError.h - How a tilec command stops early ----------*- C++ -*-===//
//
// The driver's commands are straight-line code: when something is wrong they
// throw a DriverError that carries the exit code of docs/cli.md, and only main()
// catches it. The libraries never throw (they are built without exceptions);
// their failures reach the driver as llvm::Error values (lib/Compiler's hold
// a CompileError, whose kind orFail maps to an exit code) or as diagnostics
// the DiagnosticEngine has already printed.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_DRIVERERROR_H
#define TILEC_TOOLS_TILEC_DRIVERERROR_H

#include "tilec/Target/CompileError.h"
#include "tilec/Compiler/Reporter.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <stdexcept>
#include <string>

namespace tilec::driver {

/// The exit codes of docs/cli.md, "Exit codes and errors".
enum class ExitCode : int {
  Success = 0,
  InputError = 1,     ///< the program or an input file was wrong
  UsageError = 2,     ///< the command line was wrong
  RuntimeFailure = 3, ///< a device, runtime, resource or I/O failure
};

/// Thrown by the commands, caught in main(). An empty message means the
/// problem was already reported (as diagnostics) and nothing more is printed.
class DriverError : public std::runtime_error {
public:
  DriverError(ExitCode code, const std::string &message)
      : std::runtime_error(message), exitCode(code) {}
  ExitCode code() const { return exitCode; }

private:
  ExitCode exitCode;
};

/// The command line is wrong: exit code 2.
[[noreturn]] void failUsage(const llvm::Twine &message);
/// The input is wrong: exit code 1. Without a message, the diagnostics that
/// were printed already said why.
[[noreturn]] void failInput(const llvm::Twine &message = "");
/// A runtime, resource or I/O failure: exit code 3.
[[noreturn]] void failRuntime(const llvm::Twine &message);
/// Fails with `code` and the text of `error` (which is consumed).
[[noreturn]] void failWith(ExitCode code, llvm::Error error);

/// Fails with the exit code of a lib/Compiler error's kind (input 1, usage
/// 2, runtime 3; any other error is a runtime failure) and its text; does
/// nothing on success.
void orFail(llvm::Error error);
/// The value of `result`, or orFail's DriverError.
template <typename T> T orFail(llvm::Expected<T> result) {
  if (!result)
    orFail(result.takeError());
  return std::move(*result);
}

/// The driver's Reporter for lib/Compiler: warnings as "tilec: warning:
/// TEXT" and remarks as "tilec: TEXT" on stderr, diagnostics on stderr.
compiler::Reporter &driverReporter();

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_DRIVERERROR_H
