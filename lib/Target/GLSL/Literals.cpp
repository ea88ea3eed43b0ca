//===- Literals.cpp - Constants as GLSL literals --------------------------===//
//
// Part of the GLSL target. GLSL has no hexadecimal floats and no infinity or
// NaN literals: a float is its shortest round-tripping decimal, a special
// value its bits (uintBitsToFloat). int64_t literals take the `l` suffix,
// doubles `lf`; bf16 and f16 constants are their bits, with the value in a
// comment.
//
//===----------------------------------------------------------------------===//

#include "GLSLTypes.h"
#include "ShaderEmitter.h"

#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

using namespace mlir;
using namespace tilec;
using namespace tilec::glsl;

/// A literal of GLSL type float or double for `value`.
static std::string floatLiteral(const llvm::APFloat &value, bool isDouble) {
  if (value.isNaN() || value.isInfinity()) {
    uint64_t bits = value.bitcastToAPInt().getZExtValue();
    if (!isDouble)
      return fmt::format("uintBitsToFloat(0x{:08X}u)", bits);
    return fmt::format("packDouble2x32(uvec2(0x{:08X}u, 0x{:08X}u))",
                       bits & 0xFFFFFFFFu, bits >> 32);
  }
  return source::shortestDecimal(value) + (isDouble ? "lf" : "");
}

/// The literal of one scalar constant, without parentheses.
static std::optional<std::string> bareScalarLiteral(Attribute attr) {
  if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    Type type = integer.getType();
    if (type.isInteger(1))
      return integer.getValue().isZero() ? "false" : "true";
    int64_t value = integer.getValue().getSExtValue();
    if (type.isInteger(64)) {
      if (value == INT64_MIN)
        return std::string("(-9223372036854775807l - 1l)");
      return std::to_string(value) + "l";
    }
    // index is int: a constant beyond it cannot index anything GL binds.
    if (value < INT32_MIN || value > INT32_MAX)
      return std::nullopt;
    if (value == INT32_MIN)
      return std::string("(-2147483647 - 1)");
    return std::to_string(value);
  }
  auto real = dyn_cast<FloatAttr>(attr);
  if (!real)
    return std::nullopt;
  llvm::APFloat value = real.getValue();
  Type type = real.getType();
  if (type.isBF16() || type.isF16()) {
    uint64_t bits = value.bitcastToAPInt().getZExtValue();
    bool lost;
    llvm::APFloat asFloat = value;
    (void)asFloat.convert(llvm::APFloat::IEEEsingle(),
                          llvm::APFloat::rmNearestTiesToEven, &lost);
    return fmt::format("0x{:04X}u /* {} */", bits,
                       floatLiteral(asFloat, false));
  }
  if (type.isF64() || type.isF32())
    return floatLiteral(value, type.isF64());
  return std::nullopt;
}

std::optional<std::string> glsl::scalarLiteral(Attribute attr) {
  std::optional<std::string> literal = bareScalarLiteral(attr);
  if (literal && literal->front() == '-')
    return "(" + *literal + ")";
  return literal;
}

std::optional<std::string> glsl::constantLiteral(ShaderEmitter &emitter,
                                                 Operation *op,
                                                 TypedAttr attr) {
  auto type = emitter.typeName(op, attr.getType());
  if (failed(type))
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return scalarLiteral(attr);
  std::vector<std::string> elements;
  for (Attribute element : dense.getValues<Attribute>()) {
    auto literal = scalarLiteral(element);
    if (!literal)
      return std::nullopt;
    elements.push_back(*literal);
  }
  return *type + "(" + llvm::join(elements, ", ") + ")";
}
