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

/// Parses `text`; a syntax error is "NAME: not valid JSON: parse error at
/// line 3, column 5: ...".
Result<nlohmann::json> parseJson(const std::string &text,
                                 const std::string &name);

} // namespace tilec

#endif // TILEC_SUPPORT_JSON_H
