//===- ProgramLoader.h - From a file to a typed program ---------*- C++ -*-===//
//
// Part of lib/Compiler: the front-end steps every compiling command shares
// (docs/language.md 1.3): read the file, parse and check it (phase 1), pick
// the entry function, and bind it with the -D values and any input files
// (phase 2). Diagnostics go to the Reporter's stream as they are found; a
// step that reported one fails with an input error without a message, a
// bad request (-D, --entry) with a usage error.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_PROGRAMLOADER_H
#define TILEC_COMPILER_PROGRAMLOADER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/Diagnostics.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <string>
#include <vector>

namespace tilec::compiler {

class Reporter;

/// Which program to load and how to bind it: every command that compiles
/// takes these.
struct ProgramOptions {
  std::string inputPath;            ///< "-" reads stdin
  std::vector<std::string> defines; ///< the text after each -D
  std::string entry;                ///< empty: main, else the last function
  bool verbose = false;
  bool timePasses = false; ///< --time-passes: report each stage's time
  /// --allow-tf32: f32 sums of products may run on tensor cores in TF32,
  /// and the interpreter's bounds allow it (ReferenceRules).
  bool allowTF32 = false;
  /// --default-type: the element type of entry inputs that declare none
  /// (f16, bf16, f32 or f64; empty: f32), so that one model file runs in
  /// several precisions.
  std::string defaultType;
};

class ProgramLoader {
public:
  /// Checks the -D flags at once: a malformed one is the usage error that
  /// parse() returns, before any file is read. `reporter` gets the
  /// diagnostics and, with options.verbose, a remark per step.
  ProgramLoader(const ProgramOptions &options, Reporter &reporter);
  ProgramLoader(const ProgramLoader &) = delete;
  ProgramLoader &operator=(const ProgramLoader &) = delete;

  /// Phase 1 and the choice of the entry function; returns the entry.
  llvm::Expected<const ast::Function &> parse();
  /// The files of `tilec run --input`, read before binding because they
  /// bind sizes and types.
  void setInputFiles(std::map<std::string, InputFile> files);
  /// Phase 2 for the entry chosen by parse(), with every grad expanded
  /// (lib/Autodiff).
  llvm::Expected<typed::Program> bind();
  /// Hands the input files back after bind(), so their tensors can be run
  /// without being copied.
  std::map<std::string, InputFile> takeInputFiles();

  /// The entry's name for messages: "main", or "the unnamed function".
  std::string entryDisplayName() const;

  /// The options the program was loaded with (its path, -D, -v).
  const ProgramOptions &programOptions() const { return options; }

  /// The source buffers, for turning SMLocs into MLIR locations.
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

  /// The diagnostics of this program's source, for steps after binding
  /// (tilec grad's differentiation).
  DiagnosticEngine &diagnostics() { return diag; }

  /// Where this program's compile reports to.
  Reporter &getReporter() const { return reporter; }

private:
  /// A -v remark.
  void report(const std::string &message) const;

  const ProgramOptions &options;
  Reporter &reporter;
  std::string defineError; ///< the first malformed -D, for parse()
  BindOptions bindOptions; ///< the -D values and input files
  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diag;
  ast::Module module;
  const ast::Function *entry = nullptr;
};

} // namespace tilec::compiler

#endif // TILEC_COMPILER_PROGRAMLOADER_H
