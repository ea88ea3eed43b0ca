//===- DType.cpp - Tile element types -------------------------------------===//

#include "tilec/Support/DType.h"

#include <algorithm>
#include <cstdlib>

using namespace tilec;

std::string_view tilec::dtypeName(DType t) {
  switch (t) {
  case DType::Bool: return "bool";
  case DType::I8: return "i8";
  case DType::I16: return "i16";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::U8: return "u8";
  case DType::U16: return "u16";
  case DType::U32: return "u32";
  case DType::U64: return "u64";
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F32: return "f32";
  case DType::F64: return "f64";
  }
  std::abort(); // not a DType value
}

std::optional<DType> tilec::parseDType(std::string_view name) {
  // The inverse of dtypeName, so that the two spellings cannot drift apart
  // (F64 is the last DType).
  for (unsigned i = 0; i <= unsigned(DType::F64); ++i)
    if (dtypeName(DType(i)) == name)
      return DType(i);
  return std::nullopt;
}

DTypeKind tilec::dtypeKind(DType t) {
  switch (t) {
  case DType::Bool: return DTypeKind::Bool;
  case DType::F16: case DType::BF16: case DType::F32: case DType::F64:
    return DTypeKind::Float;
  default: return DTypeKind::Integer;
  }
}

bool tilec::isSigned(DType t) {
  return t == DType::I8 || t == DType::I16 || t == DType::I32 ||
         t == DType::I64;
}

bool tilec::isUnsigned(DType t) {
  return t == DType::U8 || t == DType::U16 || t == DType::U32 ||
         t == DType::U64;
}

unsigned tilec::dtypeBits(DType t) {
  switch (t) {
  case DType::Bool: return 1;
  case DType::I8: case DType::U8: return 8;
  case DType::I16: case DType::U16: case DType::F16: case DType::BF16:
    return 16;
  case DType::I32: case DType::U32: case DType::F32: return 32;
  case DType::I64: case DType::U64: case DType::F64: return 64;
  }
  std::abort(); // not a DType value
}

unsigned tilec::dtypeBytes(DType t) {
  return t == DType::Bool ? 1 : dtypeBits(t) / 8;
}

DType tilec::signedIntType(unsigned bits) {
  switch (bits) {
  case 8: return DType::I8;
  case 16: return DType::I16;
  case 32: return DType::I32;
  default: return DType::I64;
  }
}

DType tilec::unsignedIntType(unsigned bits) {
  switch (bits) {
  case 8: return DType::U8;
  case 16: return DType::U16;
  case 32: return DType::U32;
  default: return DType::U64;
  }
}

DType tilec::joinDTypes(DType a, DType b) {
  if (a == b)
    return a;
  if (a == DType::Bool)
    return b;
  if (b == DType::Bool)
    return a;
  if (isFloat(a) != isFloat(b))
    return isFloat(a) ? a : b;
  if (isFloat(a)) {
    // f16 with bf16 has no common 16-bit type: f32 holds both exactly.
    if (dtypeBits(a) == dtypeBits(b))
      return DType::F32;
    return dtypeBits(a) > dtypeBits(b) ? a : b;
  }
  if (isSigned(a) == isSigned(b))
    return dtypeBits(a) > dtypeBits(b) ? a : b;
  DType s = isSigned(a) ? a : b, u = isSigned(a) ? b : a;
  if (dtypeBits(s) > dtypeBits(u))
    return s;
  return signedIntType(std::min(2 * dtypeBits(u), 64u));
}
