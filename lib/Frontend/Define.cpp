//===- Define.cpp - -D flags and the entry function -----------------------===//
//
// Parses the text of `-D NAME=VALUE` (docs/language.md 4.4): a size or
// constant ("N=64", "X=-0.5") or a bare parameter's type and shape
// ("X=f16[2,3]", "X=[8]", "X=[]"). A malformed value is a command-line error.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Sema.h"

#include "llvm/ADT/StringExtras.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace tilec;

static llvm::Error malformed(llvm::StringRef text, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "malformed -D '" + text + "': " + why);
}

static bool isNameStart(char c) { return llvm::isAlpha(c); }
static bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// Parses a decimal integer (no sign) that fits int64.
static std::optional<int64_t> parseCount(llvm::StringRef s) {
  s = s.trim();
  if (s.empty() || !llvm::all_of(s, llvm::isDigit))
    return std::nullopt;
  uint64_t v;
  if (s.getAsInteger(10, v) || v > uint64_t(INT64_MAX))
    return std::nullopt;
  return int64_t(v);
}

static llvm::Error parseTypeShape(llvm::StringRef text, llvm::StringRef value,
                                  Define &d) {
  size_t bracket = value.find('[');
  if (bracket == llvm::StringRef::npos || !value.ends_with("]"))
    return malformed(text, "expected a number or a shape such as f32[2,3]");
  llvm::StringRef typeName = value.take_front(bracket).trim();
  if (!typeName.empty()) {
    d.dtype = parseDType(typeName);
    if (!d.dtype)
      return malformed(text, "unknown element type '" + typeName +
                                 "'; expected bool, i8, i16, i32, i64, u8, "
                                 "u16, u32, u64, f16, bf16, f32 or f64");
  }
  llvm::StringRef dims = value.slice(bracket + 1, value.size() - 1).trim();
  d.kind = Define::Kind::TypeShape;
  if (dims.empty())
    return llvm::Error::success();
  llvm::SmallVector<llvm::StringRef, 8> parts;
  dims.split(parts, ',');
  if (parts.size() > 32)
    return malformed(text, "at most 32 dimensions are supported");
  for (llvm::StringRef part : parts) {
    auto v = parseCount(part);
    if (!v)
      return malformed(text, "'" + part.trim() +
                                 "' is not a size (a positive integer)");
    if (*v < 1)
      return malformed(text, "sizes must be at least 1");
    d.shape.push_back(*v);
  }
  return llvm::Error::success();
}

llvm::Expected<Define> tilec::parseDefine(llvm::StringRef text) {
  Define d;
  d.text = ("-D " + text).str();
  size_t eq = text.find('=');
  if (eq == llvm::StringRef::npos)
    return malformed(text, "expected NAME=VALUE");
  llvm::StringRef name = text.take_front(eq).trim();
  llvm::StringRef value = text.drop_front(eq + 1).trim();
  if (name.empty() || !isNameStart(name[0]) ||
      !llvm::all_of(name.drop_back(name.ends_with("'") ? 1 : 0), isNameChar))
    return malformed(text, "'" + name + "' is not a name");
  d.name = name.str();
  if (value.empty())
    return malformed(text, "the value is missing");
  if (isNameStart(value[0]) || value[0] == '[') {
    if (llvm::Error e = parseTypeShape(text, value, d))
      return std::move(e);
    return d;
  }
  bool negative = value.consume_front("-");
  if (value.empty() || !llvm::isDigit(value[0]))
    return malformed(text, "expected a number or a shape such as f32[2,3]");
  if (llvm::all_of(value, llvm::isDigit)) {
    auto v = parseCount(value);
    if (!v)
      return malformed(text, "the integer is too large (maximum "
                             "9223372036854775807)");
    d.kind = Define::Kind::Int;
    d.intValue = negative ? -*v : *v;
    return d;
  }
  // A float: digits, optional fraction and exponent, nothing else.
  std::string s = value.str();
  bool ok = llvm::all_of(value, [](char c) {
    return llvm::isDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' ||
           c == '-';
  });
  char *end = nullptr;
  errno = 0;
  double v = ok ? std::strtod(s.c_str(), &end) : 0;
  if (!ok || end != s.c_str() + s.size())
    return malformed(text, "'" + value + "' is not a number");
  if (errno == ERANGE && std::isinf(v))
    return malformed(text, "the number is out of range");
  d.kind = Define::Kind::Float;
  d.floatValue = negative ? -v : v;
  return d;
}
