//===- ProgramLoader.cpp - From a file to a typed program -----------------===//
//
// Part of lib/Compiler; see ProgramLoader.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/ProgramLoader.h"
#include "SourceLoading.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Compiler/Reporter.h"
#include "tilec/Target/StageTiming.h"

#include "tilec/Autodiff/Autodiff.h"
#include "tilec/Frontend/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

using namespace tilec;
using namespace tilec::compiler;

ProgramLoader::ProgramLoader(const ProgramOptions &options,
                             Reporter &reporter)
    : options(options), reporter(reporter),
      diag(sourceMgr, reporter.diagnostics()) {
  if (options.timePasses)
    enableStageTiming();
  for (const std::string &text : options.defines) {
    llvm::Expected<Define> define = parseDefine(text);
    if (!define) {
      defineError = llvm::toString(define.takeError());
      return;
    }
    bindOptions.defines.push_back(std::move(*define));
  }
  if (!options.defaultType.empty()) {
    std::optional<DType> type = parseDType(options.defaultType);
    if (!type || !isFloat(*type)) {
      defineError = fmt::format("--default-type '{}' is not a float type "
                                "(f16, bf16, f32 or f64)",
                                options.defaultType);
      return;
    }
    bindOptions.defaultType = *type;
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

llvm::Expected<const ast::Function &> ProgramLoader::parse() {
  if (!defineError.empty())
    return usageError(defineError);
  TimedStage stage("parse");
  llvm::Expected<unsigned> loaded = loadSource(options.inputPath, sourceMgr);
  if (!loaded)
    return loaded.takeError();
  unsigned bufferId = *loaded;
  module = parseModule(bufferId, diag);
  // A module with parse errors is incomplete; checking it would only add
  // follow-on errors (Parser.h).
  if (diag.reachedErrorLimit())
    diag.note(llvm::SMLoc(), "too many errors emitted, stopping now");
  if (diag.hadError() || !checkModule(module, diag))
    return inputError();
  llvm::StringRef fileName =
      sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier();
  report(fmt::format("parsed '{}': {} function(s)", fileName.str(),
                     module.functions.size()));

  entry = findEntry(module, options.entry);
  // The parser rejects a file without functions, so only a wrong --entry
  // finds nothing; stay safe should that ever change.
  if (!entry && options.entry.empty())
    return inputError(fmt::format("'{}' defines no function", fileName.str()));
  if (!entry)
    return usageError(fmt::format("no function named '{}'; the file defines {}",
                          options.entry, describeFunctions(module)));
  return *entry;
}

void ProgramLoader::setInputFiles(std::map<std::string, InputFile> files) {
  bindOptions.inputFiles = std::move(files);
}

std::map<std::string, InputFile> ProgramLoader::takeInputFiles() {
  return std::move(bindOptions.inputFiles);
}

llvm::Expected<typed::Program> ProgramLoader::bind() {
  TimedStage stage("bind");
  std::optional<typed::Program> program =
      bindProgram(module, *entry, bindOptions, diag);
  if (!program || diag.hadError())
    return inputError();
  // Every consumer (interpreter, MLIRGen, printers) sees grad expanded.
  if (!autodiff::expandGrads(*program, diag))
    return inputError();
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
    reporter.remark(message);
}
