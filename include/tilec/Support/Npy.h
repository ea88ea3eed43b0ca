//===- Npy.h - Read and write numpy .npy files ------------------*- C++ -*-===//
//
// numpy's .npy format, versions 1.0-3.0, little- and big-endian, C order
// only. float16 is '<f2'; bfloat16, which numpy lacks, is read and written
// with the descr 'bfloat16' (raw 16-bit patterns, little-endian; np.load
// reads it once ml_dtypes is imported), and also accepted as '<V2' (what
// np.save writes for an ml_dtypes bfloat16 array) only when the caller
// expects bf16. Zero-sized dimensions are rejected, since every Tile size is
// at least 1. Every malformed file gives an error that names the file and
// what is wrong, and sizes are checked against the file before anything is
// allocated; nothing is written half-way (write goes to a temporary name,
// then renames). No LLVM here: tilec-run reads and writes .npy files too.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_NPY_H
#define TILEC_SUPPORT_NPY_H

#include "tilec/Support/Result.h"
#include "tilec/Support/Tensor.h"

#include <optional>
#include <string>
#include <string_view>

namespace tilec {

/// Reads a whole .npy file. `expected`, when given, is the element type the
/// caller declared, which lets raw 2-byte void data ('<V2') be read as bf16.
Result<Tensor> readNpy(const std::string &path,
                       std::optional<DType> expected = std::nullopt);
/// Parses .npy bytes already in memory; `name` is used in messages.
Result<Tensor> parseNpy(std::string_view bytes, const std::string &name,
                        std::optional<DType> expected = std::nullopt);
/// Serialises `t` as a version 1.0 .npy file.
std::string serializeNpy(const Tensor &t);
/// Writes `t` atomically (temporary file + rename).
Status writeNpy(const std::string &path, const Tensor &t);

} // namespace tilec

#endif // TILEC_SUPPORT_NPY_H
