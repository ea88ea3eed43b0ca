//===- DType.h - Tile element types -----------------------------*- C++ -*-===//
//
// The element types of docs/language.md section 5.1 and the promotion rule
// ("join") of section 5.3. Shared by the front end, the interpreter, the .npy
// reader and every backend. No LLVM here: the runtimes use it too.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_DTYPE_H
#define TILEC_SUPPORT_DTYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace tilec {

/// An element type. The order matters only for printing tables.
enum class DType : uint8_t {
  Bool,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
};

/// The kind orders types: bool < integer < float (section 5.1).
enum class DTypeKind : uint8_t { Bool, Integer, Float };

/// The spelling used in Tile sources and in printed types: "f32", "bool".
std::string_view dtypeName(DType t);
/// Parses a spelling produced by dtypeName.
std::optional<DType> parseDType(std::string_view name);

DTypeKind dtypeKind(DType t);
inline bool isFloat(DType t) { return dtypeKind(t) == DTypeKind::Float; }
inline bool isInteger(DType t) { return dtypeKind(t) == DTypeKind::Integer; }
bool isSigned(DType t);   ///< signed integers only (floats and bool are not)
bool isUnsigned(DType t); ///< u8 .. u64
/// Storage size in bytes (bool is one byte; f16 and bf16 two).
unsigned dtypeBytes(DType t);
/// Width in bits of the value (bool counts as 1).
unsigned dtypeBits(DType t);

/// The join of two element types (docs/language.md section 5.3, steps 1-6).
DType joinDTypes(DType a, DType b);

/// The signed integer type of the given width in bits (8, 16, 32, 64).
DType signedIntType(unsigned bits);
DType unsignedIntType(unsigned bits);

} // namespace tilec

#endif // TILEC_SUPPORT_DTYPE_H
