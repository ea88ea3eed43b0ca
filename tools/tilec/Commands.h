//===- Commands.h - The commands of the tilec driver ------------*- C++ -*-===//
//
// One function per command of docs/cli.md. Each returns normally on success and
// throws a DriverError (DriverError.h) with the right exit code otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_COMMANDS_H
#define TILEC_TOOLS_TILEC_COMMANDS_H

#include "Options.h"

namespace tilec::driver {

/// `tilec FILE [...]`: compile FILE, or print an intermediate form (--emit).
void runCompileCommand(const CompileOptions &options);
/// `tilec run FILE [...]`: execute FILE and report its outputs.
void runRunCommand(const RunOptions &options);
/// Declares `tilec devices [--probe] [--json]`.
CLI::App *addDevicesCommand(CLI::App &app, DevicesOptions &options);
/// `tilec devices`: lists the devices of every runtime on stdout, with the
/// peaks `--probe` measures (and caches) or cached ones.
void runDevicesCommand(const DevicesOptions &options);
/// Adds the `bench` subcommand to `app`.
CLI::App *addBenchCommand(CLI::App &app, BenchOptions &options);
/// `tilec bench FILE [...]`: times each kernel on a device.
void runBenchCommand(const BenchOptions &options);
/// Adds the `autotune` subcommand to `app`.
CLI::App *addAutotuneCommand(CLI::App &app, AutotuneOptions &options);
/// `tilec autotune FILE [...]`: measures schedules, writes the best.
void runAutotuneCommand(const AutotuneOptions &options);

/// Adds the `grad` subcommand to `app`.
CLI::App *addGradCommand(CLI::App &app, GradOptions &options);
/// `tilec grad FILE --wrt=...`: prints the gradient program as Tile, or
/// with --check compares it with finite differences.
void runGradCommand(const GradOptions &options);

/// Adds the `train` subcommand to `app`.
CLI::App *addTrainCommand(CLI::App &app, TrainOptions &options);
/// `tilec train FILE ...`: compiles a step function once and runs it over
/// the data for some epochs, the carried tensors staying on the device.
void runTrainCommand(const TrainOptions &options);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_COMMANDS_H
