//===- GLSLTypes.cpp - MLIR types as GLSL types ---------------------------===//
//
// Part of the GLSL target; see GLSLTypes.h.
//
//===----------------------------------------------------------------------===//

#include "GLSLTypes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::glsl;

/// The scalar GLSL type, and the prefix of its vectors ("i" for ivec4).
static std::optional<std::pair<std::string, std::string>>
scalarName(Type type) {
  if (type.isIndex())
    return std::make_pair("int", "i");
  if (type.isF32())
    return std::make_pair("float", "");
  if (type.isF64())
    return std::make_pair("double", "d");
  if (type.isF16() || type.isBF16())
    return std::make_pair("uint", "u");
  if (!type.isSignlessInteger())
    return std::nullopt;
  switch (type.getIntOrFloatBitWidth()) {
  case 1:
    return std::make_pair("bool", "b");
  case 8:
  case 16:
  case 32:
    return std::make_pair("int", "i");
  case 64:
    return std::make_pair("int64_t", "i64");
  default:
    return std::nullopt;
  }
}

std::optional<std::string> glsl::valueType(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  auto name = scalarName(vector ? vector.getElementType() : type);
  if (!name)
    return std::nullopt;
  if (!vector)
    return name->first;
  int64_t width = vector.getRank() == 1 && !vector.isScalable()
                      ? vector.getNumElements()
                      : 0;
  if (width < 2 || width > 4)
    return std::nullopt;
  if (isLaneArray(type))
    return name->first + "[" + std::to_string(width) + "]";
  return name->second + "vec" + std::to_string(width);
}

bool glsl::isLaneArray(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getElementType().isIntOrFloat() &&
         vector.getElementType().getIntOrFloatBitWidth() == 64;
}

unsigned glsl::intWidth(Type type) {
  Type scalar = scalarType(type);
  return scalar.isIndex() ? 32 : scalar.getIntOrFloatBitWidth();
}

bool glsl::isInt64(Type type) { return scalarType(type).isInteger(64); }

std::string glsl::unsignedType(Type type) {
  std::string scalar = isInt64(type) ? "uint64_t" : "uint";
  auto vector = dyn_cast<VectorType>(type);
  if (!vector)
    return scalar;
  return (isInt64(type) ? "u64vec" : "uvec") +
         std::to_string(vector.getNumElements());
}

Packing glsl::bufferPacking(Type element) {
  if (element.isInteger(1) || element.isInteger(8))
    return Packing::Bytes;
  if (element.isInteger(16) || element.isF16() || element.isBF16())
    return Packing::Halves;
  return Packing::None;
}

std::optional<std::string> glsl::bufferElementType(Type element) {
  if (bufferPacking(element) != Packing::None)
    return "uint";
  if (element.isIndex())
    return std::nullopt;
  return valueType(element);
}
