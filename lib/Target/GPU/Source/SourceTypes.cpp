//===- SourceTypes.cpp - Types and literals both source languages share ---===//
//
// Part of SourceEmitter.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/SourceEmitter.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"

using namespace mlir;
using namespace tilec;

Type source::scalarType(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getElementType();
  return type;
}

std::optional<source::StoredFloat> source::storedFloat(Type type) {
  Type scalar = scalarType(type);
  if (scalar.isBF16())
    return StoredFloat::BF16;
  if (scalar.isF16())
    return StoredFloat::F16;
  return std::nullopt;
}

bool source::isBool(Type type) { return scalarType(type).isInteger(1); }

unsigned source::intWidth(Type type) {
  Type scalar = scalarType(type);
  return scalar.isIndex() ? 64 : scalar.getIntOrFloatBitWidth();
}

std::string source::shortestDecimal(const llvm::APFloat &value) {
  llvm::SmallString<32> text;
  for (unsigned digits = 1; digits <= 40; ++digits) {
    text.clear();
    value.toString(text, digits);
    llvm::APFloat back(value.getSemantics());
    auto status =
        back.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (status && back.bitwiseIsEqual(value))
      break;
    if (!status)
      llvm::consumeError(status.takeError());
  }
  std::string result = text.str().str();
  if (result.find_first_of(".eE") == std::string::npos)
    result += ".0";
  return result;
}
