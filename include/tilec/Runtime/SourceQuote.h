//===- SourceQuote.h - Quoting a line of a kernel artefact ------*- C++ -*-===//
//
// A driver's build log names a line of the generated kernel file, which the
// user never saw. The OpenCL build log (lib/Runtime/OpenCL/CLBuildLog.cpp)
// and the CUDA JIT log (lib/Runtime/CUDA/CudaJitLog.cpp) both quote that
// line in their errors, in this one form. No LLVM here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_SOURCEQUOTE_H
#define TILEC_RUNTIME_SOURCEQUOTE_H

#include <cstddef>
#include <string>
#include <vector>

namespace tilec::rt {

/// The lines of `text`, split at '\n'.
std::vector<std::string> splitLines(const std::string &text);

/// "in kernel K, line N:\n  N | <line N>\n" (without "in kernel K, " when
/// `kernel` is empty), and with a column >= 1 a caret line under it:
/// "    | ^\n". `line` counts from 1; "" when `lines` has no such line.
std::string quoteSourceLine(const std::vector<std::string> &lines, size_t line,
                            size_t column, const std::string &kernel);

} // namespace tilec::rt

#endif // TILEC_RUNTIME_SOURCEQUOTE_H
