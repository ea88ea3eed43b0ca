//===- Options.h - The flags of tilec's commands ----------------*- C++ -*-===//
//
// What each command reads from the command line (CLI.md), as plain structs
// that CLI11 fills in, and the functions that declare the flags. Flags that
// several commands share (the input file, -D, --entry, -v) are declared by
// one function so they are spelt and documented the same everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_OPTIONS_H
#define TILEC_TOOLS_TILEC_OPTIONS_H

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tilec::driver {

/// Which program to load and how to bind it: every command that compiles
/// takes these.
struct ProgramOptions {
  std::string inputPath;            ///< "-" reads stdin
  std::vector<std::string> defines; ///< the text after each -D
  std::string entry;                ///< empty: main, else the last function
  bool verbose = false;
};

/// `tilec FILE [...]`: compile, or stop early with --emit.
struct CompileOptions {
  ProgramOptions program;
  std::string target = "opencl";
  std::string emit;   ///< empty: produce the target's artefact
  std::string output; ///< empty: stdout for --emit, else derived from FILE
  std::string schedule;
  int optLevel = 2;
  std::string cpu = "native"; ///< llvm-x86: the CPU to generate code for
  bool printDebugInfo = false; ///< MLIR --emit kinds: print op locations
};

/// `tilec run FILE [...]`: execute and report the outputs.
struct RunOptions {
  ProgramOptions program;
  std::string target = "opencl";
  std::string device;
  uint64_t seed = 0;
  std::vector<std::string> inputs; ///< "NAME=file.npy"
  std::string outputDir;           ///< empty: write no files
  bool check = false;
  int optLevel = 2; ///< llvm-x86: -O0 .. -O3, as for compile
};

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
/// Adds a subcommand of CLI.md that this build does not implement yet; it
/// accepts any arguments so that using it gives the clear error of
/// runUnbuiltCommand rather than a parse error.
CLI::App *addUnbuiltCommand(CLI::App &app, const std::string &name,
                            const std::string &description);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_OPTIONS_H
