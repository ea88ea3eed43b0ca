//===- Lexer.h - Hand-written lexer for .tile files -------------*- C++ -*-===//
//
// Splits a buffer into the tokens of docs/language.md section 2, longest match
// first. Lexical errors (invalid characters, malformed or out-of-range
// numbers, bad names, unterminated comments) are reported to the
// DiagnosticEngine and lexing continues, so one run reports several.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_LEXER_H
#define TILEC_FRONTEND_LEXER_H

#include "tilec/Frontend/Token.h"
#include "tilec/Support/Diagnostics.h"

namespace tilec {

class Lexer {
public:
  /// Lexes buffer `bufferId` of diag's SourceMgr.
  Lexer(unsigned bufferId, DiagnosticEngine &diag);

  /// The next token; Eof (located at the end of the buffer) forever after the
  /// last one.
  Token next();

  /// Where the most recent lexical error was reported (null if none). The
  /// parser uses it to avoid a syntax error that only echoes it.
  const char *lastErrorPos() const { return lastError; }

private:
  void skipWhitespaceAndComments();
  Token lexName(const char *start, TokenKind kind, const char *nameStart);
  Token lexEscapedName(const char *start);
  Token lexUnderscoreName(const char *start);
  Token lexNumber(const char *start);
  void reportInvalidCharacter(const char *start);
  Token make(TokenKind kind, const char *start, const char *end);
  void error(const char *pos, const llvm::Twine &message);
  llvm::SMLoc locOf(const char *p) const {
    return llvm::SMLoc::getFromPointer(p);
  }

  DiagnosticEngine &diag;
  const char *cur;
  const char *end;
  const char *lastError = nullptr;
};

} // namespace tilec

#endif // TILEC_FRONTEND_LEXER_H
