//===- LexerTest.cpp - Tokens and lexical errors (docs/language.md 2) -----===//

#include "FrontendTestHelpers.h"

#include "tilec/Frontend/Lexer.h"

#include <catch2/catch.hpp>

using namespace tilec;
using tilec::test::Source;

namespace {
/// Lexes all of `src` into tokens (without the final Eof).
std::vector<Token> lexAll(Source &src) {
  Lexer lexer(src.bufferId, src.diag);
  std::vector<Token> tokens;
  for (Token t = lexer.next(); !t.is(TokenKind::Eof); t = lexer.next())
    tokens.push_back(t);
  return tokens;
}

std::vector<TokenKind> kinds(const std::vector<Token> &tokens) {
  std::vector<TokenKind> result;
  for (const Token &t : tokens)
    result.push_back(t.kind);
  return result;
}
} // namespace

TEST_CASE("lexer: names, escapes and keywords", "[lexer]") {
  Source src("function X' y_2 #bias $N $default default no_defract no_reduce f32");
  std::vector<Token> t = lexAll(src);
  REQUIRE(src.errors().empty());
  using K = TokenKind;
  CHECK(kinds(t) == std::vector<K>{K::KwFunction, K::ValueId, K::IndexId,
                                   K::ValueId, K::IndexId, K::IndexId,
                                   K::KwDefault, K::KwNoDefract, K::KwNoReduce,
                                   K::IndexId});
  CHECK(t[1].text == "X'");
  CHECK(t[3].text == "bias");
  CHECK(t[4].text == "N");
  CHECK(t[5].text == "default");
}

TEST_CASE("lexer: numbers", "[lexer]") {
  Source src("010 0.5 2e3 2.5E+3 1e-5 2i 2ex 9223372036854775807");
  std::vector<Token> t = lexAll(src);
  REQUIRE(src.errors().empty());
  using K = TokenKind;
  CHECK(kinds(t) == std::vector<K>{K::Int, K::Float, K::Float, K::Float,
                                   K::Float, K::Int, K::IndexId, K::Int,
                                   K::IndexId, K::Int});
  CHECK(t[0].intValue == 10);
  CHECK(t[2].floatValue == 2000.0);
  CHECK(t[3].floatValue == 2500.0);
  CHECK(t[6].text == "i");
  CHECK(t[8].text == "ex");
  CHECK(t[9].intValue == INT64_MAX);
}

TEST_CASE("lexer: malformed and out-of-range numbers", "[lexer]") {
  Source src(".5 5. 1.e3 1.5.2 99999999999999999999 1e999");
  lexAll(src);
  CHECK(src.errors() ==
        std::vector<std::string>{
            "malformed number '.5'; write 0.5",
            "malformed number '5.'; write 5.0",
            "malformed number '1.e3'; write 1.0e3",
            "malformed number '1.5.2'",
            "integer literal is too large (maximum 9223372036854775807)",
            "floating-point literal is out of range"});
}

TEST_CASE("lexer: operators take the longest match", "[lexer]") {
  Source src("[[ ]] -> << >> <= >= == != = < > ~ & | ^ ? : ; ,");
  std::vector<Token> t = lexAll(src);
  REQUIRE(src.errors().empty());
  using K = TokenKind;
  CHECK(kinds(t) == std::vector<K>{K::LAttr, K::RAttr, K::Arrow, K::Shl,
                                   K::Shr, K::Le, K::Ge, K::EqEq, K::Ne,
                                   K::Assign, K::Lt, K::Gt, K::Tilde, K::Amp,
                                   K::Pipe, K::Caret, K::Question, K::Colon,
                                   K::Semi, K::Comma});
}

TEST_CASE("lexer: comments, BOM and CRLF", "[lexer]") {
  Source src("\xEF\xBB\xBF// line\r\nA /* a\nb */ B\r\n");
  std::vector<Token> t = lexAll(src);
  REQUIRE(src.errors().empty());
  REQUIRE(t.size() == 2);
  CHECK(t[1].text == "B");
}

TEST_CASE("lexer: invalid characters are reported and skipped", "[lexer]") {
  static const char text[] = "A % ! @ \" \\ ` . \x01 \xff \xc3\xa9 B";
  Source src(llvm::StringRef(text, sizeof(text) - 1));
  std::vector<Token> t = lexAll(src);
  CHECK(t.size() == 2);
  std::vector<std::string> errors = src.errors();
  REQUIRE(errors.size() == 10);
  CHECK(errors[0] == "unexpected character '%'");
  CHECK(errors[1] == "unexpected character '!'");
  CHECK(errors[6] == "unexpected character '.'");
  CHECK(errors[7] == "unexpected character '\\x01'");
  CHECK(errors[8] == "unexpected character '\\xff'");
  CHECK(errors[9] == "unexpected character '\xc3\xa9'");
  // Every error is at its own column.
  CHECK(src.diag.recorded()[0].col == 3);
}

TEST_CASE("lexer: NUL bytes and bad names", "[lexer]") {
  Source src(llvm::StringRef("A\0B #9 $ x _T", 13));
  std::vector<Token> t = lexAll(src);
  CHECK(src.errors() == std::vector<std::string>{
                            "unexpected character '\\x00'",
                            "'#' must be followed by a letter",
                            "'$' must be followed by a letter",
                            "names cannot begin with '_'"});
  // `_T` is still one token, so the parser sees no extra error.
  CHECK(t.back().text == "_T");
}

TEST_CASE("lexer: unterminated comment", "[lexer]") {
  Source src("A\n  /* never closed");
  lexAll(src);
  REQUIRE(src.errors() ==
          std::vector<std::string>{"unterminated '/*' comment"});
  CHECK(src.diag.recorded()[0].line == 2);
  CHECK(src.diag.recorded()[0].col == 3);
}
