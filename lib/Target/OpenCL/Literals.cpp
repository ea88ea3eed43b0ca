//===- Literals.cpp - Constants as OpenCL C literals ----------------------===//
//
// Part of the OpenCL target. A float is written as the shortest decimal that
// reads back as the same value (0.1f, not 0.100000001f); bf16 and f16
// constants are their bits, with the value in a comment.
//
//===----------------------------------------------------------------------===//

#include "CLTypes.h"
#include "KernelEmitter.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"

#include <fmt/format.h>

using namespace mlir;
using namespace tilec;
using namespace tilec::opencl;

/// A float literal of C type float (`suffix` "f") or double (""), for a
/// value exactly representable in it.
static std::string floatLiteral(const llvm::APFloat &value,
                                llvm::StringRef suffix,
                                llvm::StringRef cast) {
  if (value.isNaN())
    return cast.str() + "NAN";
  if (value.isInfinity())
    return (value.isNegative() ? "-" : "") + cast.str() + "INFINITY";
  return source::shortestDecimal(value) + suffix.str();
}

/// The literal of one scalar constant, without parentheses.
static std::optional<std::string> bareScalarLiteral(Attribute attr) {
  if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    Type type = integer.getType();
    if (type.isInteger(1))
      return integer.getValue().isZero() ? "false" : "true";
    int64_t value = integer.getValue().getSExtValue();
    unsigned width = intWidth(type);
    if (width <= 16)
      return fmt::format("({}){}", *clValueType(type), value);
    if (width == 32)
      return value == INT32_MIN ? std::string("(-2147483647 - 1)")
                                : std::to_string(value);
    if (value == INT64_MIN)
      return std::string("(-9223372036854775807L - 1)");
    return std::to_string(value) + (type.isIndex() ? "" : "L");
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
    return fmt::format("(ushort)0x{:04X} /* {} */", bits,
                       floatLiteral(asFloat, "", ""));
  }
  if (type.isF64())
    return floatLiteral(value, "", "(double)");
  if (type.isF32())
    return floatLiteral(value, "f", "");
  return std::nullopt;
}

/// The literal of one scalar constant; a negative one is parenthesised, so
/// that it can follow any operator (`-(-1.5f)`, never `--1.5f`).
static std::optional<std::string> scalarLiteral(Attribute attr) {
  std::optional<std::string> literal = bareScalarLiteral(attr);
  if (literal && literal->front() == '-')
    return "(" + *literal + ")";
  return literal;
}

LogicalResult opencl::emitConstantArray(const ProgramConstant &constant,
                                        Prelude &prelude, llvm::raw_ostream &os) {
  memref::GlobalOp global = constant.global;
  auto values = cast<DenseElementsAttr>(*global.getInitialValue());
  Type element = values.getElementType();
  auto type = clStorageType(element);
  if (!type)
    return global.emitError("constant tensors of ")
           << element << " cannot be translated to OpenCL C";
  if (element.isF64())
    prelude.useDouble();
  std::vector<std::string> elements;
  for (Attribute value : values.getValues<Attribute>()) {
    auto literal = scalarLiteral(value);
    if (!literal)
      return global.emitError("unsupported constant ") << value;
    elements.push_back(*literal);
  }
  os << "__constant " << *type << " " << constant.name << "["
     << std::max<size_t>(1, elements.size()) << "] = {"
     << (elements.empty() ? "0" : llvm::join(elements, ", ")) << "};\n";
  return success();
}

std::optional<std::string> opencl::constantLiteral(KernelEmitter &emitter,
                                                   Operation *op,
                                                   TypedAttr attr) {
  if (failed(emitter.typeName(op, attr.getType())))
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return scalarLiteral(attr);
  std::string type = *clValueType(attr.getType());
  if (dense.isSplat()) {
    auto element = scalarLiteral(dense.getSplatValue<Attribute>());
    if (!element)
      return std::nullopt;
    return "(" + type + ")(" + *element + ")";
  }
  std::vector<std::string> elements;
  for (Attribute element : dense.getValues<Attribute>()) {
    auto literal = scalarLiteral(element);
    if (!literal)
      return std::nullopt;
    elements.push_back(*literal);
  }
  return "(" + type + ")(" + llvm::join(elements, ", ") + ")";
}
