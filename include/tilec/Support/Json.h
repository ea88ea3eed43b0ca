//===- Json.h - Parsing JSON files with messages for people -----*- C++ -*-===//
//
// Manifests, schedule files, device lists, tuning folders and the probe
// cache are JSON. They all report a syntax error the same way: the file's
// name and where the text stops being JSON, without nlohmann's exception
// ids. No LLVM here, and no exceptions escape (the MLIR libraries are built
// without them).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_JSON_H
#define TILEC_SUPPORT_JSON_H

#include "tilec/Support/Result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tilec {

/// How deeply values may nest in a file tilec reads; no tilec file nests
/// more than a few levels.
inline constexpr int kMaxJsonDepth = 100;

/// Parses `text`; a syntax error is "NAME: not valid JSON: parse error at
/// line 3, column 5: ...", and nesting deeper than kMaxJsonDepth is an error
/// too (values that deep would overflow the stack of code that prints them).
Result<nlohmann::json> parseJson(const std::string &text,
                                 const std::string &name);

/// The first error of a reader that walks a JSON tree: "FILE: PATH: what",
/// PATH the dotted way to the offending value ("kernels[2].args").
class JsonErrorTrail {
public:
  explicit JsonErrorTrail(std::string fileName)
      : fileName(std::move(fileName)) {}

  /// Records the error unless one is already recorded; returns false.
  bool fail(const std::string &where, const std::string &what) {
    if (error.empty())
      error = fileName + ": " + (where.empty() ? "" : where + ": ") + what;
    return false;
  }
  /// The path of `key` inside `where`.
  static std::string at(const std::string &where, const std::string &key) {
    return where.empty() ? key : where + "." + key;
  }
  const std::string &message() const { return error; }

protected:
  std::string fileName;
  std::string error; ///< empty until the first failure
};

} // namespace tilec

#endif // TILEC_SUPPORT_JSON_H
