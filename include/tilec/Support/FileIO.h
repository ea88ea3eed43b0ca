//===- FileIO.h - Whole-file reads and atomic writes, without LLVM -*- C++
//-*-===//
//
// The .npy reader and writer, the launch manifest and tilec-run all read
// whole files and must never leave an output half-written (docs/cli.md). These
// two functions do that with the C++ library and POSIX only, so the
// LLVM-free runtime build can use them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_FILEIO_H
#define TILEC_SUPPORT_FILEIO_H

#include "tilec/Support/Result.h"

#include <string>
#include <string_view>

namespace tilec {

/// The bytes of the file at `path`. The error reads "PATH: cannot read: why".
Result<std::string> readFileBytes(const std::string &path);

/// Writes `bytes` to a temporary file beside `path`, then renames it over
/// `path`, so readers see the old file or the whole new one. The error reads
/// "PATH: cannot write: why"; no temporary file is left behind.
Status writeFileAtomically(const std::string &path, std::string_view bytes);

} // namespace tilec

#endif // TILEC_SUPPORT_FILEIO_H
