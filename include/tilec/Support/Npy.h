//===- Npy.h - Read and write numpy .npy files ------------------*- C++ -*-===//
//
// numpy's .npy format, versions 1.0-3.0, little- and big-endian, C order
// only. float16 is '<f2'; bfloat16, which numpy lacks, is read and written
// with the descr 'bfloat16' that ml_dtypes uses, and also accepted as '<V2'
// only when the caller expects bf16. Every malformed file gives an error that
// names the file and what is wrong; nothing is written half-way (write goes
// to a temporary name, then renames).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_NPY_H
#define TILEC_SUPPORT_NPY_H

#include "tilec/Support/Tensor.h"
#include "llvm/Support/Error.h"

namespace tilec {

/// Reads a whole .npy file.
llvm::Expected<Tensor> readNpy(llvm::StringRef path);
/// Parses .npy bytes already in memory; `name` is used in messages.
llvm::Expected<Tensor> parseNpy(llvm::StringRef bytes, llvm::StringRef name);
/// Serialises `t` as a version 1.0 .npy file.
std::string serializeNpy(const Tensor &t);
/// Writes `t` atomically (temporary file + rename).
llvm::Error writeNpy(llvm::StringRef path, const Tensor &t);

} // namespace tilec

#endif // TILEC_SUPPORT_NPY_H
