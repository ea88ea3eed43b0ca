//===- CLTypes.cpp - MLIR types as OpenCL C types -------------------------===//
//
// Part of the OpenCL target; see CLTypes.h.
//
//===----------------------------------------------------------------------===//

#include "CLTypes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::opencl;

/// The C name of a scalar type, or std::nullopt.
static std::optional<std::string> scalarName(Type type) {
  if (type.isIndex())
    return "long";
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isF16() || type.isBF16())
    return "ushort";
  if (!type.isSignlessInteger())
    return std::nullopt;
  switch (type.getIntOrFloatBitWidth()) {
  case 1:
    return "bool";
  case 8:
    return "char";
  case 16:
    return "short";
  case 32:
    return "int";
  case 64:
    return "long";
  default:
    return std::nullopt;
  }
}

std::optional<std::string> opencl::clValueType(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector)
    return scalarName(type);
  int64_t width = vector.getRank() == 1 && !vector.isScalable()
                      ? vector.getNumElements()
                      : 0;
  if (width != 2 && width != 3 && width != 4 && width != 8 && width != 16)
    return std::nullopt;
  Type element = vector.getElementType();
  if (storedFloat(element) || element.isInteger(1))
    return std::nullopt;
  std::optional<std::string> name = scalarName(element);
  if (!name)
    return std::nullopt;
  return *name + std::to_string(width);
}

std::optional<std::string> opencl::clStorageType(Type elementType) {
  if (elementType.isInteger(1))
    return "uchar";
  return clValueType(elementType);
}

std::string opencl::clUnsignedType(Type type) {
  // "int" -> "uint", "int4" -> "uint4", index's "long" -> "ulong".
  return "u" + *clValueType(type);
}
