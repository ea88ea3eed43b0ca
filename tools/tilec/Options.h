//===- Options.h - The flags of tilec's commands ----------------*- C++ -*-===//
//
// What each command reads from the command line (docs/cli.md), as plain structs
// that CLI11 fills in, and the functions that declare the flags. Flags that
// several commands share (the input file, -D, --entry, -v) are declared by
// one function so they are spelt and documented the same everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_OPTIONS_H
#define TILEC_TOOLS_TILEC_OPTIONS_H

#include "tilec/Compiler/CompileCache.h"
#include "Targets.h"

#include "tilec/Compiler/ProgramInputs.h"
#include "tilec/Compiler/ProgramLoader.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tilec::driver {

/// Which program to load and how to bind it (lib/Compiler's): every
/// command that compiles takes these.
using compiler::ProgramOptions;

/// `tilec FILE [...]`: compile, or stop early with --emit.
struct CompileOptions {
  ProgramOptions program;
  std::string target = kDefaultTarget;
  std::string emit;   ///< empty: produce the target's artefact
  std::string output; ///< empty: stdout for --emit, else derived from FILE
  std::string schedule; ///< --schedule: a schedule file (docs/schedules.md)
  std::string deviceId; ///< --device-id: whose entries of the file to use
  std::string device;      ///< opencl/spirv: specialise on this device
  std::string devicesFrom; ///< take --device from this device list
  int optLevel = 2;
  bool optLevelGiven = false; ///< -O was on the command line
  std::string cpu = "native"; ///< llvm-x86: the CPU to generate code for
  bool printDebugInfo = false; ///< MLIR --emit kinds: print op locations
  std::string cacheDir; ///< --cache-dir; empty: the environment's choice
  bool noCache = false; ///< --no-cache
};

/// `tilec run FILE [...]`: execute and report the outputs.
struct RunOptions {
  ProgramOptions program;
  std::string target = kDefaultTarget;
  std::string device;
  uint64_t seed = 0;
  std::vector<std::string> inputs; ///< "NAME=file.npy"
  std::string outputDir;           ///< empty: write no files
  bool check = false;
  int optLevel = 2; ///< llvm-x86: -O0 .. -O3, as for compile
  bool optLevelGiven = false; ///< -O was on the command line
  std::string schedule; ///< --schedule: entries for the device run on
};

/// `tilec grad FILE --wrt=... [...]`: the gradient program, or its check
/// against finite differences (docs/training.md).
struct GradOptions {
  ProgramOptions program;
  std::vector<std::string> wrt; ///< parameter names
  std::string of;               ///< the loss output; empty: the only one
  bool vjp = false;             ///< seed inputs D_<out>, L = sum(out * seed)
  std::string output;           ///< -o; empty: stdout
  bool check = false;
  uint64_t seed = 0;
  double eps = 1e-6;
  unsigned dirs = 4;
};

/// `tilec train FILE --data NAME=F.npy ... --batch=B [...]`: run a training
/// step function for epochs (docs/training.md).
struct TrainOptions {
  ProgramOptions program;
  std::string target = kDefaultTarget;
  std::string device;
  std::vector<std::string> data; ///< "NAME=file.npy"
  std::vector<std::string> init; ///< "NAME=file.npy"
  int64_t batch = 0;
  unsigned epochs = 1;
  bool shuffle = false;
  uint64_t seed = 0;
  std::string saveDir;
  bool json = false;
  int optLevel = 2;
  bool optLevelGiven = false;
};

/// `tilec autotune FILE [...]`: measure candidate schedules, keep the best
/// (docs/autotune.md).
struct AutotuneOptions {
  ProgramOptions program;
  std::string target = kDefaultTarget;
  std::string device;
  std::string output; ///< the schedule file
  double budgetSeconds = 0; ///< 0: no budget
  unsigned top = 8;
  unsigned repeat = 5;
  uint64_t seed = 0;
  bool force = false;        ///< retune kernels the file already has
  std::string exportDir;     ///< --export-candidates DIR
  std::string importDir;     ///< --import DIR
  std::string devicesFrom;   ///< --devices-from FILE (with --export-candidates)
  bool fakeTimer = false;    ///< hidden, for tests: deterministic times
  unsigned stopAfter = 0;    ///< hidden, for tests: stop after N kernels
  unsigned wrongCandidate = 0; ///< hidden, for tests: candidate K is wrong
};

/// `tilec bench FILE [...]`: time each kernel on a device (docs/bench.md).
struct BenchOptions {
  ProgramOptions program;
  std::string target = kDefaultTarget;
  std::string device;
  unsigned repeat = 20;
  unsigned warmup = 2;
  uint64_t seed = 0;
  std::vector<std::string> inputs; ///< "NAME=file.npy"
  std::string schedule;            ///< a schedule file's entries to use
  int optLevel = 2;                ///< llvm-x86: the JIT's -O level
  bool optLevelGiven = false;      ///< -O was on the command line
  bool json = false;
};

/// `tilec devices [--probe] [--json]`.
struct DevicesOptions {
  bool json = false;
  bool probe = false; ///< measure peak bandwidth and compute rate, cache them
  std::string device; ///< with --probe: only this device (--device rules)
};

/// Splits the `--input NAME=FILE.npy` flags; a malformed or repeated one is a
/// usage error.
std::vector<compiler::InputFlag>
parseInputFlags(const std::vector<std::string> &flags);

/// The cache settings of a plain compile's flags.
compiler::CacheSettings cacheSettingsOf(const CompileOptions &options);

/// Rejects `--entry=` and the like: an empty value would silently mean "the
/// default", which is never what the user meant.
CLI::Validator nonEmpty();
/// Declares -O0 .. -O3, spelt and documented alike by every command that
/// compiles; `given` records whether it was used (the level means something
/// for llvm-x86 code only, and the commands warn when it was given for
/// anything else); `note` ends the help text.
void addOptLevelOption(CLI::App &app, int &optLevel, bool &given,
                       const std::string &note);

/// The paragraph on exit codes that ends every help text.
const char *exitCodeHelp();

/// Declares FILE, -D, --entry and -v on `app`. FILE is required when the
/// command cannot do anything without it.
void addProgramOptions(CLI::App &app, ProgramOptions &options,
                       bool fileRequired);
/// Declares the compile flags (and the program flags) on the top-level app.
void addCompileOptions(CLI::App &app, CompileOptions &options);
/// Adds the `run` subcommand to `app`.
CLI::App *addRunCommand(CLI::App &app, RunOptions &options);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_OPTIONS_H
