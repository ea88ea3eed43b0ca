//===- Token.h - Tokens of the Tile language --------------------*- C++ -*-===//
//
// The tokens of docs/language.md section 2, as the lexer hands them to the
// parser: a kind, the exact source spelling (which also gives the location),
// and for names and numbers their meaning.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_TOKEN_H
#define TILEC_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>

namespace tilec {

enum class TokenKind {
  Eof,
  ValueId, ///< VALUE_ID or #name
  IndexId, ///< INDEX_ID or $name
  Int,
  Float,
  // Keywords (never produced for escaped names).
  KwFunction,
  KwDefault,
  KwNoDefract,
  KwNoReduce,
  // Punctuation and operators.
  LParen, RParen, LBracket, RBracket, LBrace, RBrace,
  LAttr,  ///< [[
  RAttr,  ///< ]]
  Comma, Semi, Colon, Question, Arrow,
  Plus, Minus, Star, Slash, Tilde, Amp, Pipe, Caret, Shl, Shr,
  Lt, Gt, Le, Ge, EqEq, Ne, Assign,
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  /// The source text of the token; its data() is the token's location.
  llvm::StringRef spelling;
  /// For names: the name without a '#' or '$' escape.
  std::string text;
  int64_t intValue = 0;
  double floatValue = 0;

  bool is(TokenKind k) const { return kind == k; }
  bool isName() const {
    return kind == TokenKind::ValueId || kind == TokenKind::IndexId;
  }
  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(spelling.data()); }
  /// Just past the token: where a missing token after it is reported.
  llvm::SMLoc endLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data() + spelling.size());
  }
};

/// How a diagnostic names a token: "';'", "'X'" or "end of file".
std::string describeToken(const Token &tok);

} // namespace tilec

#endif // TILEC_FRONTEND_TOKEN_H
