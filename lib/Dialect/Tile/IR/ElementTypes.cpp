//===- ElementTypes.cpp - Tile element types in MLIR's types --------------===//

#include "tilec/Dialect/Tile/IR/ElementTypes.h"

std::optional<tilec::DType> tilec::dtypeOfSignlessType(mlir::Type type) {
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (!type.isSignlessInteger())
    return std::nullopt;
  switch (type.getIntOrFloatBitWidth()) {
  case 1:
    return DType::Bool;
  case 8:
    return DType::I8;
  case 16:
    return DType::I16;
  case 32:
    return DType::I32;
  case 64:
    return DType::I64;
  default:
    return std::nullopt;
  }
}
