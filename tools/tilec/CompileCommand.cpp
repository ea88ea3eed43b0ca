//===- CompileCommand.cpp - tilec FILE [-o OUT] [--emit=K] ----------------===//
//
// The default command. Command-line choices are checked before the file is
// read, so a wrong flag is reported as such (exit code 2) however broken the
// program is. Only `--emit=ast` produces output in this build: it prints
// the bound program of phase 2 (TILE-LANGUAGE.md 1.3).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "DriverError.h"
#include "Output.h"
#include "ProgramLoader.h"
#include "Targets.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace tilec;
using namespace tilec::driver;

void tilec::driver::runCompileCommand(const CompileOptions &options) {
  if (options.program.inputPath.empty())
    failUsage("no input file; usage: tilec FILE.tile [options], or "
              "'tilec --help'");

  // The target is checked even when --emit makes it irrelevant, so that a
  // misspelt name never passes silently.
  Target target = parseTarget(options.target);
  std::optional<EmitKind> emit;
  if (!options.emit.empty()) {
    emit = parseEmitKind(options.emit);
    requireEmitKind(*emit);
  }
  if (!options.schedule.empty())
    failUsage("--schedule is not implemented yet: schedules drive code "
              "generation, which this build lacks");
  if (!emit)
    requireCompileTarget(target);

  ProgramLoader loader(options.program);
  loader.parse();
  typed::Program program = loader.bind();

  // --emit=ast is the only kind requireEmitKind lets through so far.
  std::string text;
  llvm::raw_string_ostream os(text);
  typed::printProgram(program, os);
  os.flush();
  writeOutputFile(options.output.empty() ? "-" : options.output, text);
}
