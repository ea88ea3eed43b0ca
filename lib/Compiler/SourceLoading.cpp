//===- SourceLoading.cpp - Reading the program text -----------------------===//
//
// Part of lib/Compiler; see SourceLoading.h.
//
//===----------------------------------------------------------------------===//

#include "SourceLoading.h"

#include "tilec/Target/CompileError.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <fmt/format.h>

using namespace tilec;
using namespace tilec::compiler;

llvm::Expected<unsigned>
tilec::compiler::loadSource(llvm::StringRef path, llvm::SourceMgr &sourceMgr) {
  // Reading a directory "succeeds" on some systems with an empty or
  // unreadable buffer; say what is wrong instead.
  if (path != "-" && llvm::sys::fs::is_directory(path))
    return inputError(
        fmt::format("cannot read '{}': it is a directory", path.str()));

  // The buffer is named by the path as written (stdin as "<stdin>"), which
  // is what `FILE:LINE:COL` diagnostics print.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!buffer)
    return inputError(fmt::format("cannot read '{}': {}",
                          path == "-" ? "<stdin>" : path.str(),
                          buffer.getError().message()));

  return sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
}
