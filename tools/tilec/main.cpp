//===- main.cpp - The tilec command-line driver ---------------------------===//
//
// Declares the commands of docs/cli.md, lets CLI11 parse the command line, runs
// the chosen command and turns every way of stopping into the exit codes of
// docs/cli.md: 0 success, 1 the input was wrong, 2 the command line was wrong,
// 3 a runtime failure. This is the only place that catches exceptions.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "DriverError.h"
#include "Options.h"
#include "Targets.h"

#include "tilec/Target/StageTiming.h"
#include "tilec/InitAll.h"
#include "tilec/Support/Version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <exception>
#include <new>

using namespace tilec::driver;
using namespace tilec;
using namespace tilec::compiler;

namespace {

constexpr const char *tilecVersion = tilec::kTilecVersion;

std::string versionText() {
  return fmt::format("tilec {} (LLVM {})\n{}", tilecVersion,
                     LLVM_VERSION_STRING, buildCapabilities());
}

/// CLI11's parse errors in the form of tilec's own errors.
std::string formatParseFailure(const CLI::App *, const CLI::Error &error) {
  return fmt::format("tilec: error: {}\nrun 'tilec --help' for usage\n",
                     error.what());
}

/// Options written before a subcommand belong to the compile command, and
/// would silently do nothing for `run`: `tilec -D N=3 run x.tile`.
void rejectOptionsBeforeSubcommand(const CLI::App &app,
                                   const CLI::App &subcommand) {
  for (const CLI::Option *option : app.get_options()) {
    if (option->count() == 0)
      continue;
    failUsage(fmt::format("'{}' is given before the subcommand '{}'; write "
                          "everything after it: 'tilec {} ...'",
                          option->get_name(), subcommand.get_name(),
                          subcommand.get_name()));
  }
}

/// Flushes stdout and reports a failure to write it (a closed pipe, a full
/// disk) instead of letting raw_ostream abort at exit.
int finishStdout(int exitCode) {
  llvm::outs().flush();
  if (!llvm::outs().has_error())
    return exitCode;
  llvm::outs().clear_error();
  llvm::errs() << "tilec: error: cannot write to stdout\n";
  return exitCode == 0 ? static_cast<int>(ExitCode::RuntimeFailure) : exitCode;
}

int runDriver(int argc, char **argv) {
  CLI::App app("tilec: compiles and runs programs written in the Tile tensor "
               "language",
               "tilec");
  app.set_version_flag("--version", versionText);
  app.failure_message(formatParseFailure);
  app.footer(std::string("Examples:\n"
                         "  tilec model.tile --emit=ast -D N=64    check a "
                         "program, print it bound\n"
                         "  tilec run model.tile --target=interp   run it on "
                         "the reference interpreter\n"
                         "  tilec run --help                       the flags "
                         "of run\n\n") +
             exitCodeHelp());

  CompileOptions compileOptions;
  addCompileOptions(app, compileOptions);
  RunOptions runOptions;
  CLI::App *run = addRunCommand(app, runOptions);
  BenchOptions benchOptions;
  CLI::App *bench = addBenchCommand(app, benchOptions);
  AutotuneOptions autotuneOptions;
  CLI::App *autotune = addAutotuneCommand(app, autotuneOptions);
  DevicesOptions devicesOptions;
  CLI::App *devices = addDevicesCommand(app, devicesOptions);
  GradOptions gradOptions;
  CLI::App *grad = addGradCommand(app, gradOptions);
  TrainOptions trainOptions;
  CLI::App *train = addTrainCommand(app, trainOptions);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &error) {
    // --help and --version end parsing with a "success" exception.
    int code = app.exit(error);
    return code == 0 ? 0 : static_cast<int>(ExitCode::UsageError);
  }

  for (CLI::App *subcommand : app.get_subcommands()) {
    rejectOptionsBeforeSubcommand(app, *subcommand);
    if (subcommand == run) {
      runRunCommand(runOptions);
      return 0;
    }
    if (subcommand == autotune) {
      runAutotuneCommand(autotuneOptions);
      return 0;
    }
    if (subcommand == bench) {
      runBenchCommand(benchOptions);
      return 0;
    }
    if (subcommand == devices) {
      runDevicesCommand(devicesOptions);
      return 0;
    }
    if (subcommand == grad) {
      runGradCommand(gradOptions);
      return 0;
    }
    if (subcommand == train) {
      runTrainCommand(trainOptions);
      return 0;
    }
  }
  runCompileCommand(compileOptions);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // Before the flags are declared: their help texts list the backends.
  tilec::registerAllTargetBackends();
  int exitCode;
  try {
    exitCode = runDriver(argc, argv);
    printStageTiming(llvm::errs());
  } catch (const DriverError &error) {
    llvm::outs().flush();
    if (*error.what())
      llvm::errs() << "tilec: error: " << error.what() << "\n";
    exitCode = static_cast<int>(error.code());
  } catch (const std::bad_alloc &) {
    llvm::outs().flush();
    llvm::errs() << "tilec: error: out of memory\n";
    exitCode = static_cast<int>(ExitCode::RuntimeFailure);
  } catch (const std::exception &error) {
    // A bug in the driver (CLI11 and fmt report misuse by throwing); still
    // no crash, and a message to report.
    llvm::outs().flush();
    llvm::errs() << "tilec: internal error: " << error.what() << "\n";
    exitCode = static_cast<int>(ExitCode::RuntimeFailure);
  }
  return finishStdout(exitCode);
}
