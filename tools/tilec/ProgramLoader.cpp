//===- ProgramLoader.cpp - From the command line to a typed program -------===//
//
// Part of the tilec driver; see ProgramLoader.h.
//
//===----------------------------------------------------------------------===//

#include "ProgramLoader.h"
#include "DriverError.h"
#include "SourceLoading.h"
#include "StageTiming.h"

#include "tilec/Frontend/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

using namespace tilec;
using namespace tilec::driver;

ProgramLoader::ProgramLoader(const ProgramOptions &options)
    : options(options), diag(sourceMgr) {
  if (options.timePasses)
    enableStageTiming();
  for (const std::string &text : options.defines) {
    llvm::Expected<Define> define = parseDefine(text);
    if (!define)
      failWith(ExitCode::UsageError, define.takeError());
    bindOptions.defines.push_back(std::move(*define));
  }
}

/// "main, conv", naming an unnamed function too: the list that helps
/// someone who mistyped --entry.
static std::string describeFunctions(const ast::Module &module) {
  std::vector<std::string> names = functionNames(module);
  bool hasUnnamed = llvm::any_of(
      module.functions, [](const ast::Function &f) { return f.name.empty(); });
  if (names.empty())
    return "only an unnamed function";
  std::string text = fmt::format("{}", fmt::join(names, ", "));
  if (hasUnnamed)
    text += " and an unnamed function";
  return text;
}

const ast::Function &ProgramLoader::parse() {
  TimedStage stage("parse");
  unsigned bufferId = loadSource(options.inputPath, sourceMgr);
  module = parseModule(bufferId, diag);
  // A module with parse errors is incomplete; checking it would only add
  // follow-on errors (Parser.h).
  if (diag.reachedErrorLimit())
    diag.note(llvm::SMLoc(), "too many errors emitted, stopping now");
  if (diag.hadError() || !checkModule(module, diag))
    failInput();
  llvm::StringRef fileName =
      sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier();
  report(fmt::format("parsed '{}': {} function(s)", fileName.str(),
                     module.functions.size()));

  entry = findEntry(module, options.entry);
  // The parser rejects a file without functions, so only a wrong --entry
  // finds nothing; stay safe should that ever change.
  if (!entry && options.entry.empty())
    failInput(fmt::format("'{}' defines no function", fileName.str()));
  if (!entry)
    failUsage(fmt::format("no function named '{}'; the file defines {}",
                          options.entry, describeFunctions(module)));
  return *entry;
}

void ProgramLoader::setInputFiles(std::map<std::string, InputFile> files) {
  bindOptions.inputFiles = std::move(files);
}

std::map<std::string, InputFile> ProgramLoader::takeInputFiles() {
  return std::move(bindOptions.inputFiles);
}

typed::Program ProgramLoader::bind() {
  TimedStage stage("bind");
  std::optional<typed::Program> program =
      bindProgram(module, *entry, bindOptions, diag);
  if (!program || diag.hadError())
    failInput();
  report(fmt::format("bound {}: {} input(s), {} output(s), {} statement(s)",
                     entryDisplayName(), program->inputs.size(),
                     program->outputs.size(), program->statements.size()));
  return std::move(*program);
}

std::string ProgramLoader::entryDisplayName() const {
  if (!entry || entry->name.empty())
    return "the unnamed function";
  return fmt::format("'{}'", entry->name);
}

void ProgramLoader::report(const std::string &message) const {
  if (options.verbose)
    llvm::errs() << "tilec: " << message << "\n";
}
