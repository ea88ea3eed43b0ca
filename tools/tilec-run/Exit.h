//===- Exit.h - How tilec-run ends and what it prints -----------*- C++ -*-===//
//
// The exit codes of docs/cli.md and the two ways tilec-run talks to the user,
// shared by running a manifest and timing a tuning folder.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_RUN_EXIT_H
#define TILEC_TOOLS_TILEC_RUN_EXIT_H

#include <string>

namespace tilec::run {

enum ExitCode {
  Success = 0,
  InputError = 1,
  UsageError = 2,
  RuntimeFailure = 3
};

/// Prints "tilec-run: error: MESSAGE" (and a usage hint for UsageError) on
/// stderr and returns `code`.
int fail(int code, const std::string &message);

/// Writes `text` to stdout; a failure to write (closed pipe, full disk) is a
/// runtime failure, not a silent success.
int print(const std::string &text);

} // namespace tilec::run

#endif // TILEC_TOOLS_TILEC_RUN_EXIT_H
