//===- Diagnostics.cpp - clang-style diagnostics for .tile files ---------===//
//
// Printing is delegated to llvm::SourceMgr, which already produces the
// `file:line:col: kind: message`, source line and caret layout.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/Diagnostics.h"

using namespace tilec;

DiagnosticEngine::DiagnosticEngine(llvm::SourceMgr &sourceMgr,
                                   llvm::raw_ostream &os)
    : sourceMgr(sourceMgr), os(os) {}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message) {
  if (numErrors == errorLimit) {
    emit(DiagKind::Error, llvm::SMLoc(),
         "too many errors emitted, stopping now");
  }
  ++numErrors;
  suppressingNotes = numErrors > errorLimit;
  if (!suppressingNotes)
    emit(DiagKind::Error, loc, message);
}

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &message) {
  suppressingNotes = numErrors >= errorLimit;
  if (!suppressingNotes)
    emit(DiagKind::Warning, loc, message);
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  if (!suppressingNotes)
    emit(DiagKind::Note, loc, message);
}

void DiagnosticEngine::emit(DiagKind kind, llvm::SMLoc loc,
                            const llvm::Twine &message) {
  RecordedDiag rec{kind, 0, 0, message.str()};
  llvm::SourceMgr::DiagKind smKind = kind == DiagKind::Error
                                         ? llvm::SourceMgr::DK_Error
                                     : kind == DiagKind::Warning
                                         ? llvm::SourceMgr::DK_Warning
                                         : llvm::SourceMgr::DK_Note;
  if (loc.isValid() && sourceMgr.FindBufferContainingLoc(loc)) {
    auto lineCol = sourceMgr.getLineAndColumn(loc);
    rec.line = lineCol.first;
    rec.col = lineCol.second;
    sourceMgr.PrintMessage(os, loc, smKind, rec.message);
  } else {
    llvm::StringRef prefix = kind == DiagKind::Error     ? "error: "
                             : kind == DiagKind::Warning ? "warning: "
                                                         : "note: ";
    os << "tilec: " << prefix << rec.message << "\n";
  }
  diags.push_back(std::move(rec));
}
