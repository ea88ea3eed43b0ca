//===- FrontendTestHelpers.h - Shared set-up for front-end tests -*- C++ -*-===//
//
// Holds one source buffer and a DiagnosticEngine that prints into a string,
// so lexer, parser and check tests can inspect what was reported.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_FRONTENDTESTHELPERS_H
#define TILEC_TEST_UNIT_FRONTENDTESTHELPERS_H

#include "tilec/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

#include <string>

namespace tilec::test {

/// A source text with its diagnostics engine.
struct Source {
  llvm::SourceMgr sourceMgr;
  std::string printed;
  llvm::raw_string_ostream os{printed};
  DiagnosticEngine diag{sourceMgr, os};
  unsigned bufferId;

  explicit Source(llvm::StringRef text) {
    bufferId = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "test.tile"),
        llvm::SMLoc());
  }

  /// The recorded errors' messages, in order.
  std::vector<std::string> errors() const {
    std::vector<std::string> result;
    for (const RecordedDiag &d : diag.recorded())
      if (d.kind == DiagKind::Error)
        result.push_back(d.message);
    return result;
  }
  /// The first recorded diagnostic of `kind`, or nullptr.
  const RecordedDiag *first(DiagKind kind) const {
    for (const RecordedDiag &d : diag.recorded())
      if (d.kind == kind)
        return &d;
    return nullptr;
  }
};

/// Parses and, if parsing succeeded, runs the phase-1 checks.
inline ast::Module parseAndCheck(Source &src) {
  ast::Module module = parseModule(src.bufferId, src.diag);
  if (!src.diag.hadError())
    checkModule(module, src.diag);
  return module;
}

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_FRONTENDTESTHELPERS_H
