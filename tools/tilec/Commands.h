//===- Commands.h - The commands of the tilec driver ------------*- C++ -*-===//
//
// One function per command of CLI.md. Each returns normally on success and
// throws a DriverError (DriverError.h) with the right exit code otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_COMMANDS_H
#define TILEC_TOOLS_TILEC_COMMANDS_H

#include "Options.h"

#include <string>

namespace tilec::driver {

/// `tilec FILE [...]`: compile FILE, or print an intermediate form (--emit).
void runCompileCommand(const CompileOptions &options);
/// `tilec run FILE [...]`: execute FILE and report its outputs.
void runRunCommand(const RunOptions &options);
/// Declares `tilec devices [--json]`; `json` receives the flag.
CLI::App *addDevicesCommand(CLI::App &app, bool &json);
/// `tilec devices`: lists the devices of every runtime on stdout.
void runDevicesCommand(bool json);
/// A subcommand of CLI.md that this build lacks: a usage error saying so.
[[noreturn]] void runUnbuiltCommand(const std::string &name);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_COMMANDS_H
