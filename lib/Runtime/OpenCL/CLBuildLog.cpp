//===- CLBuildLog.cpp - Explaining a failed OpenCL build ------------------===//
//
// A build log names a line of the generated source, which the user never
// saw; quoting that line, and the kernel it belongs to, makes the failure
// readable without opening the .cl file.
//
//===----------------------------------------------------------------------===//

#include "CLBuildLog.h"

#include "tilec/Runtime/SourceQuote.h"

#include <regex>
#include <vector>

using namespace tilec::rt;

/// The manifest kernel whose definition starts last at or before `line`
/// (1-based), or "" if none does.
static std::string kernelAround(const std::vector<std::string> &lines,
                                size_t line, const Manifest &manifest) {
  for (size_t i = std::min(line, lines.size()); i-- > 0;) {
    if (lines[i].find("kernel") == std::string::npos)
      continue;
    for (const ManifestKernel &kernel : manifest.kernels)
      if (std::regex_search(lines[i],
                            std::regex("\\b" + kernel.name + "\\s*\\(")))
        return kernel.name;
  }
  return "";
}

std::string cl::locateBuildError(const std::string &log,
                                 const std::string &source,
                                 const Manifest &manifest) {
  // Clang's own form, and PoCL's "error: FILE:LINE:COL: message".
  std::smatch match;
  if (!std::regex_search(log, match,
                         std::regex(":([0-9]+):([0-9]+): (fatal )?error")) &&
      !std::regex_search(log, match,
                         std::regex("error: [^ \n]*:([0-9]+):([0-9]+):")))
    return "";
  size_t line = std::stoul(match[1].str().substr(0, 9));
  size_t column = std::stoul(match[2].str().substr(0, 9));
  std::vector<std::string> lines = splitLines(source);
  if (line == 0 || line > lines.size())
    return "";
  return quoteSourceLine(lines, line, column,
                         kernelAround(lines, line, manifest));
}
