//===- CudaJitLog.cpp - Explaining a failed PTX build ---------------------===//
//
// The driver compiles PTX with its built-in ptxas, whose log names lines of
// the generated .ptx file; quoting the line and its kernel makes the error
// readable without opening the file.
//
//===----------------------------------------------------------------------===//

#include "CudaJitLog.h"

#include "tilec/Runtime/SourceQuote.h"

#include <algorithm>
#include <regex>
#include <vector>

using namespace tilec::rt;

/// The name of the PTX .entry whose header is last at or before `line`
/// (1-based), or "" if none is.
static std::string entryAround(const std::vector<std::string> &lines,
                               size_t line) {
  static const std::regex entry("\\.entry\\s+([A-Za-z_$%][A-Za-z0-9_$]*)");
  std::smatch match;
  for (size_t i = std::min(line, lines.size()); i-- > 0;)
    if (std::regex_search(lines[i], match, entry))
      return match[1];
  return "";
}

std::string cuda::locateJitError(const std::string &log,
                                 const std::string &ptx) {
  std::smatch match;
  if (!std::regex_search(log, match,
                         std::regex("ptxas[^\n]*, line ([0-9]{1,9}); error")))
    return "";
  size_t line = std::stoul(match[1].str());
  std::vector<std::string> lines = splitLines(ptx);
  return quoteSourceLine(lines, line, 0, entryAround(lines, line));
}
