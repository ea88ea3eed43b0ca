//===- FuzzCheck.h - Properties the fuzz targets check ---------*- C++ -*-===//
//
// Besides not crashing, a reader of untrusted files must keep two promises
// that the fuzz targets check on every input: an error names the file it is
// about (a located error, never a bare "parse error"), and what it accepts
// survives the writer: write(read(x)) reads back as the same value. A broken
// promise aborts, so libFuzzer saves the input like a crash.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_FUZZCHECK_H
#define TILEC_TOOLS_FUZZCHECK_H

#include <cstdio>
#include <cstdlib>
#include <string>

namespace tilec::fuzz {

/// The file name every target passes to its reader.
inline constexpr const char *kFileName = "fuzz-input";

/// Aborts with `what` unless `ok`.
inline void check(bool ok, const char *what) {
  if (ok)
    return;
  std::fprintf(stderr, "fuzz property broken: %s\n", what);
  std::abort();
}

/// A reader's error message is located: it starts with "fuzz-input: ".
inline void checkLocated(const std::string &message) {
  std::string prefix = std::string(kFileName) + ": ";
  if (message.compare(0, prefix.size(), prefix) == 0 &&
      message.size() > prefix.size())
    return;
  std::fprintf(stderr, "error without the file's name: %s\n", message.c_str());
  std::abort();
}

} // namespace tilec::fuzz

#endif // TILEC_TOOLS_FUZZCHECK_H
