//===- Lexer.cpp - Hand-written lexer for .tile files ---------------------===//
//
// docs/language.md section 2. The lexer never stops at an error: it reports
// it, skips the offending text and carries on, so that a file with three bad
// characters gets three diagnostics. Tokens that were malformed but still
// have an obvious role (an out-of-range number, a name starting with '_') are
// produced anyway, which keeps the parser from piling up follow-on errors.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstdlib>

using namespace tilec;

std::string tilec::describeToken(const Token &tok) {
  if (tok.is(TokenKind::Eof))
    return "end of file";
  return "'" + tok.spelling.str() + "'";
}

namespace {
bool isLetter(char c) { return llvm::isAlpha(c); }
bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }
bool isDigit(char c) { return llvm::isDigit(c); }

/// `c` as a diagnostic shows it: itself if printable ASCII, else '\xNN'.
std::string showByte(unsigned char c) {
  if (c >= 0x20 && c < 0x7f)
    return std::string(1, char(c));
  static const char hex[] = "0123456789abcdef";
  return std::string("\\x") + hex[c >> 4] + hex[c & 15];
}

/// The length of the valid UTF-8 sequence at [p, end), or 0 if there is none.
unsigned utf8Length(const char *p, const char *end) {
  unsigned char lead = *p;
  unsigned length = lead >= 0xf0 && lead <= 0xf4   ? 4
                    : lead >= 0xe0                 ? 3
                    : lead >= 0xc2 && lead <= 0xdf ? 2
                                                   : 0;
  if (lead >= 0xf5)
    length = 0;
  if (length == 0 || end - p < length)
    return 0;
  for (unsigned i = 1; i < length; ++i)
    if ((static_cast<unsigned char>(p[i]) & 0xc0) != 0x80)
      return 0;
  return length;
}

TokenKind keywordKind(llvm::StringRef text, TokenKind fallback) {
  return llvm::StringSwitch<TokenKind>(text)
      .Case("function", TokenKind::KwFunction)
      .Case("default", TokenKind::KwDefault)
      .Case("no_defract", TokenKind::KwNoDefract)
      .Case("no_reduce", TokenKind::KwNoReduce)
      .Default(fallback);
}
} // namespace

Lexer::Lexer(unsigned bufferId, DiagnosticEngine &diag) : diag(diag) {
  const llvm::MemoryBuffer *buffer =
      diag.getSourceMgr().getMemoryBuffer(bufferId);
  cur = buffer->getBufferStart();
  end = buffer->getBufferEnd();
  if (end - cur >= 3 && llvm::StringRef(cur, 3) == "\xEF\xBB\xBF")
    cur += 3;
}

Token Lexer::make(TokenKind kind, const char *start, const char *stop) {
  Token tok;
  tok.kind = kind;
  tok.spelling = llvm::StringRef(start, stop - start);
  cur = stop;
  return tok;
}

void Lexer::error(const char *pos, const llvm::Twine &message) {
  diag.error(locOf(pos), message);
  lastError = pos;
}

void Lexer::skipWhitespaceAndComments() {
  while (cur != end) {
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++cur;
    } else if (c == '/' && end - cur >= 2 && cur[1] == '/') {
      while (cur != end && *cur != '\n')
        ++cur;
    } else if (c == '/' && end - cur >= 2 && cur[1] == '*') {
      const char *open = cur;
      llvm::StringRef rest(cur + 2, end - cur - 2);
      size_t close = rest.find("*/");
      if (close == llvm::StringRef::npos) {
        error(open, "unterminated '/*' comment");
        cur = end;
      } else {
        cur = rest.data() + close + 2;
      }
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  while (true) {
    skipWhitespaceAndComments();
    const char *start = cur;
    if (cur == end)
      return make(TokenKind::Eof, end, end);
    char c = *cur;
    char c1 = end - cur >= 2 ? cur[1] : '\0';
    auto two = [&](TokenKind kind) { return make(kind, start, start + 2); };
    auto one = [&](TokenKind kind) { return make(kind, start, start + 1); };

    if (isLetter(c))
      return lexName(start,
                     llvm::isUpper(c) ? TokenKind::ValueId : TokenKind::IndexId,
                     start);
    if (isDigit(c) || (c == '.' && isDigit(c1)))
      return lexNumber(start);
    switch (c) {
    case '#':
    case '$':
      if (isLetter(c1))
        return lexEscapedName(start);
      error(start,
                 llvm::Twine("'") + llvm::Twine(c) +
                     "' must be followed by a letter");
      ++cur;
      continue;
    case '_':
      return lexUnderscoreName(start);
    case '(': return one(TokenKind::LParen);
    case ')': return one(TokenKind::RParen);
    case '{': return one(TokenKind::LBrace);
    case '}': return one(TokenKind::RBrace);
    case '[': return c1 == '[' ? two(TokenKind::LAttr) : one(TokenKind::LBracket);
    case ']': return c1 == ']' ? two(TokenKind::RAttr) : one(TokenKind::RBracket);
    case ',': return one(TokenKind::Comma);
    case ';': return one(TokenKind::Semi);
    case ':': return one(TokenKind::Colon);
    case '?': return one(TokenKind::Question);
    case '+': return one(TokenKind::Plus);
    case '-': return c1 == '>' ? two(TokenKind::Arrow) : one(TokenKind::Minus);
    case '*': return one(TokenKind::Star);
    case '/': return one(TokenKind::Slash);
    case '~': return one(TokenKind::Tilde);
    case '&': return one(TokenKind::Amp);
    case '|': return one(TokenKind::Pipe);
    case '^': return one(TokenKind::Caret);
    case '<':
      if (c1 == '<') return two(TokenKind::Shl);
      return c1 == '=' ? two(TokenKind::Le) : one(TokenKind::Lt);
    case '>':
      if (c1 == '>') return two(TokenKind::Shr);
      return c1 == '=' ? two(TokenKind::Ge) : one(TokenKind::Gt);
    case '=': return c1 == '=' ? two(TokenKind::EqEq) : one(TokenKind::Assign);
    case '!':
      if (c1 == '=') return two(TokenKind::Ne);
      break;
    default:
      break;
    }
    reportInvalidCharacter(start);
  }
}

void Lexer::reportInvalidCharacter(const char *start) {
  unsigned length = static_cast<unsigned char>(*start) >= 0x80
                        ? utf8Length(start, end)
                        : 0;
  std::string shown = length ? std::string(start, length)
                             : showByte(static_cast<unsigned char>(*start));
  error(start, "unexpected character '" + shown + "'");
  switch (*start) {
  case '!':
    diag.note(locOf(start),
              "Tile has no '!': compare with 0 ('X == 0') or use '~' on a bool");
    break;
  case '%':
    diag.note(locOf(start), "for a remainder use 'mod(A, B)' on constants");
    break;
  default:
    break;
  }
  cur = start + (length ? length : 1);
}

Token Lexer::lexName(const char *start, TokenKind kind, const char *nameStart) {
  const char *p = nameStart;
  while (p != end && isNameChar(*p))
    ++p;
  if (p != end && *p == '\'')
    ++p;
  Token tok = make(kind, start, p);
  tok.text = std::string(nameStart, p - nameStart);
  if (start == nameStart)
    tok.kind = keywordKind(tok.text, kind);
  return tok;
}

Token Lexer::lexEscapedName(const char *start) {
  TokenKind kind = *start == '#' ? TokenKind::ValueId : TokenKind::IndexId;
  return lexName(start, kind, start + 1);
}

Token Lexer::lexUnderscoreName(const char *start) {
  // Report once, then keep the whole name as one token so that `_T = X;`
  // does not also produce a syntax error.
  error(start, "names cannot begin with '_'");
  const char *p = start;
  while (p != end && *p == '_')
    ++p;
  TokenKind kind = p != end && llvm::isUpper(*p) ? TokenKind::ValueId
                                                 : TokenKind::IndexId;
  return lexName(start, kind, start);
}

Token Lexer::lexNumber(const char *start) {
  // Take the longest run that looks like a number, then decide whether it is
  // a valid INT or FLOAT; `1.5.2`, `5.`, `.5` and `1.e3` are one malformed
  // token each rather than a cascade of smaller ones.
  const char *p = start;
  auto digits = [&] {
    const char *from = p;
    while (p != end && isDigit(*p))
      ++p;
    return p != from;
  };
  bool intPart = digits();
  int dots = 0;
  bool fracPart = false;
  while (p != end && *p == '.') {
    ++p;
    ++dots;
    fracPart = digits();
  }
  bool exponent = false;
  if (p != end && (*p == 'e' || *p == 'E')) {
    const char *q = p + 1;
    if (q != end && (*q == '+' || *q == '-'))
      ++q;
    if (q != end && isDigit(*q)) {
      p = q;
      digits();
      exponent = true;
    }
  }
  llvm::StringRef text(start, p - start);
  Token tok = make(TokenKind::Int, start, p);
  bool valid = intPart && (dots == 0 || (dots == 1 && fracPart));
  if (!valid) {
    std::string message = "malformed number '" + text.str() + "'";
    if (dots == 1 && !intPart)
      message += "; write 0" + text.str();
    else if (dots == 1 && !fracPart) {
      size_t dot = text.find('.');
      message += "; write " + text.substr(0, dot + 1).str() + "0" +
                 text.substr(dot + 1).str();
    }
    error(start, message);
    tok.kind = TokenKind::Float;
    return tok;
  }
  if (dots == 0 && !exponent) {
    uint64_t value = 0;
    if (text.getAsInteger(10, value) || value > uint64_t(INT64_MAX)) {
      error(start,
                 "integer literal is too large (maximum 9223372036854775807)");
      value = 0;
    }
    tok.intValue = static_cast<int64_t>(value);
    return tok;
  }
  tok.kind = TokenKind::Float;
  std::string copy = text.str();
  double value = std::strtod(copy.c_str(), nullptr);
  if (std::isinf(value)) {
    error(start, "floating-point literal is out of range");
    value = 0;
  }
  tok.floatValue = value;
  return tok;
}
