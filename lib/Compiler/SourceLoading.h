//===- SourceLoading.h - Reading the program text ---------------*- C++ -*-===//
//
// Puts the .tile file named on the command line (or stdin for '-') into the
// SourceMgr that diagnostics resolve their locations in.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_COMPILER_SOURCELOADING_H
#define TILEC_LIB_COMPILER_SOURCELOADING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

namespace tilec::compiler {

/// Reads `path` ("-" for stdin) into `sourceMgr` and returns its buffer id.
/// Diagnostics name the buffer as the path was written, stdin as "<stdin>".
/// A file that cannot be read is an input error (exit code 1).
/// The id of the buffer holding `path`'s text; a file that cannot be read
/// is an input error.
llvm::Expected<unsigned> loadSource(llvm::StringRef path,
                                    llvm::SourceMgr &sourceMgr);

} // namespace tilec::compiler

#endif // TILEC_LIB_COMPILER_SOURCELOADING_H
