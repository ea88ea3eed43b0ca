//===- UnbuiltCommands.cpp - Subcommands this build does not have ---------===//
//
// `bench` and `autotune` (CLI.md) need code generation for the devices and
// the cost model. Until those exist the subcommands are registered, so
// `tilec --help` lists them honestly and using one gives this error rather
// than a confusing parse failure.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "DriverError.h"

using namespace tilec::driver;

void tilec::driver::runUnbuiltCommand(const std::string &name) {
  failUsage("'tilec " + name +
            "' is not implemented yet; available: 'tilec FILE', 'tilec run' "
            "and 'tilec devices'");
}
