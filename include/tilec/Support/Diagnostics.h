//===- Diagnostics.h - clang-style diagnostics for .tile files --*- C++ -*-===//
//
// Every user-facing error of the front end goes through a DiagnosticEngine:
// `FILE:LINE:COL: error: message`, the source line and a caret (printed by
// llvm::SourceMgr), followed by notes that point at related places. The
// engine also records what it printed so unit tests can inspect it, and
// stops printing after a limit (docs/language.md 9.1: "may stop after 20").
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_DIAGNOSTICS_H
#define TILEC_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tilec {

enum class DiagKind { Error, Warning, Note };

/// One printed diagnostic, kept for tests.
struct RecordedDiag {
  DiagKind kind;
  unsigned line = 0, col = 0; ///< 0 when the diagnostic has no location
  std::string message;
};

class DiagnosticEngine {
public:
  /// Diagnostics are printed to `os` (stderr by default) with locations
  /// resolved in `sourceMgr`.
  explicit DiagnosticEngine(llvm::SourceMgr &sourceMgr,
                            llvm::raw_ostream &os = llvm::errs());

  /// Reports an error at `loc` (an invalid SMLoc prints without location).
  void error(llvm::SMLoc loc, const llvm::Twine &message);
  void warning(llvm::SMLoc loc, const llvm::Twine &message);
  /// A note attached to the diagnostic printed just before it.
  void note(llvm::SMLoc loc, const llvm::Twine &message);

  unsigned errorCount() const { return numErrors; }
  bool hadError() const { return numErrors != 0; }
  /// True once the error limit is reached; parsers stop recovering then.
  bool reachedErrorLimit() const { return numErrors >= errorLimit; }

  const std::vector<RecordedDiag> &recorded() const { return diags; }
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  void emit(DiagKind kind, llvm::SMLoc loc, const llvm::Twine &message);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  std::vector<RecordedDiag> diags;
  unsigned numErrors = 0;
  unsigned errorLimit = 20;
  bool suppressingNotes = false; ///< the last error was past the limit
};

} // namespace tilec

#endif // TILEC_SUPPORT_DIAGNOSTICS_H
