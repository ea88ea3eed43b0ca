//===- ProgramLoader.h - From the command line to a typed program -*- C++
//-*-===//
//
// The front-end steps every compiling command shares (docs/language.md 1.3):
// read the file, parse and check it (phase 1), pick the entry function, and
// bind it with the -D values and any input files (phase 2). Diagnostics go to
// stderr as they are found; a step that reported an error stops the command
// with exit code 1, a command-line problem with exit code 2.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_PROGRAMLOADER_H
#define TILEC_TOOLS_TILEC_PROGRAMLOADER_H

#include "Options.h"

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/Diagnostics.h"

#include "llvm/Support/SourceMgr.h"

#include <map>
#include <string>
#include <vector>

namespace tilec::driver {

class ProgramLoader {
public:
  /// Checks the -D flags at once: a malformed one is a usage error, found
  /// before any file is read.
  explicit ProgramLoader(const ProgramOptions &options);
  ProgramLoader(const ProgramLoader &) = delete;
  ProgramLoader &operator=(const ProgramLoader &) = delete;

  /// Phase 1 and the choice of the entry function; returns the entry.
  const ast::Function &parse();
  /// The files of `tilec run --input`, read before binding because they
  /// bind sizes and types.
  void setInputFiles(std::map<std::string, InputFile> files);
  /// Phase 2 for the entry chosen by parse().
  typed::Program bind();
  /// Hands the input files back after bind(), so their tensors can be run
  /// without being copied.
  std::map<std::string, InputFile> takeInputFiles();

  /// The entry's name for messages: "main", or "the unnamed function".
  std::string entryDisplayName() const;

  /// The options the program was loaded with (its path, -D, -v).
  const ProgramOptions &programOptions() const { return options; }

  /// The source buffers, for turning SMLocs into MLIR locations.
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  /// Prints a -v line on stderr.
  void report(const std::string &message) const;

  const ProgramOptions &options;
  BindOptions bindOptions; ///< the -D values and input files
  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diag;
  ast::Module module;
  const ast::Function *entry = nullptr;
};

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_PROGRAMLOADER_H
