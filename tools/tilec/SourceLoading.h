//===- SourceLoading.h - Reading the program text ---------------*- C++ -*-===//
//
// Puts the .tile file named on the command line (or stdin for '-') into the
// SourceMgr that diagnostics resolve their locations in.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_SOURCELOADING_H
#define TILEC_TOOLS_TILEC_SOURCELOADING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

namespace tilec::driver {

/// Reads `path` ("-" for stdin) into `sourceMgr` and returns its buffer id.
/// Diagnostics name the buffer as the path was written, stdin as "<stdin>".
/// A file that cannot be read is an input error (exit code 1).
unsigned loadSource(llvm::StringRef path, llvm::SourceMgr &sourceMgr);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_SOURCELOADING_H
