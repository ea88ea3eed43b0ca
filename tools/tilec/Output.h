//===- Output.h - Writing results without half-written files ----*- C++ -*-===//
//
// docs/cli.md: "No output file is left half-written". Every file the driver
// produces is written under a temporary name in the same folder and renamed
// into place only when complete; '-' means stdout.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_OUTPUT_H
#define TILEC_TOOLS_TILEC_OUTPUT_H

#include "tilec/Support/Tensor.h"
#include "tilec/Target/Artefact.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilec::driver {

/// Writes `contents` to `path` ("-": stdout) atomically. A failure is a
/// runtime failure (exit code 3) and leaves no file behind.
void writeOutputFile(llvm::StringRef path, llvm::StringRef contents);

/// Writes `artefact` to `path` ("-": its bytes alone, to stdout), its
/// manifest beside it as PATH.json and its side files where they say; if
/// one cannot be written, those written before it are removed, so that a
/// failed compile leaves no half of a set.
void writeArtefact(const std::string &path, const Artefact &artefact);
/// Creates `dir` and its parents if missing (runtime failure if impossible).
void ensureDirectory(llvm::StringRef dir);

/// Writes `tensor` as `dir/NAME.npy` atomically and returns the path.
std::string writeTensorFile(llvm::StringRef dir, llvm::StringRef name,
                            const Tensor &tensor);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_OUTPUT_H
