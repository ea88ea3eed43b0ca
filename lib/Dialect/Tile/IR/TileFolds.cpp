//===- TileFolds.cpp - Folders of the tile ops ------------------*- C++ -*-===//
//
// Constant folding of elementwise ops (with the exact integer and float
// semantics of docs/language.md 5.4; unspecified results such as
// out-of-range shifts are left alone), casts to the same type, reshape
// chains, and contractions that only copy their input.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec::tile;

/// Non-splat constant results larger than this are not folded: the folded
/// attribute would bloat the IR for no gain at run time.
static constexpr int64_t kMaxFoldedElements = 4096;

//===----------------------------------------------------------------------===//
// Scalar semantics
//===----------------------------------------------------------------------===//

static bool isSignedInt(Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  return intType && intType.isSigned();
}

/// Whether a scalar counts as true: non-zero (NaN is true).
static bool isTruthy(Attribute value) {
  if (auto intValue = dyn_cast<IntegerAttr>(value))
    return !intValue.getValue().isZero();
  return !cast<FloatAttr>(value).getValue().isZero();
}

/// Converts one scalar to `to` with the rules of 5.4; null where the result
/// is unspecified (float to integer out of range or NaN).
static Attribute castScalar(Attribute value, Type to) {
  Type from = cast<TypedAttr>(value).getType();
  if (to.isInteger(1))
    return IntegerAttr::get(to, isTruthy(value) ? 1 : 0);
  if (auto toInt = dyn_cast<IntegerType>(to)) {
    unsigned width = toInt.getWidth();
    if (auto intValue = dyn_cast<IntegerAttr>(value)) {
      APInt bits = intValue.getValue();
      return IntegerAttr::get(to, isSignedInt(from) ? bits.sextOrTrunc(width)
                                                    : bits.zextOrTrunc(width));
    }
    APSInt result(width, /*isUnsigned=*/!toInt.isSigned());
    bool isExact = false;
    APFloat::opStatus status =
        cast<FloatAttr>(value).getValue().convertToInteger(
            result, APFloat::rmTowardZero, &isExact);
    if (status & APFloat::opInvalidOp)
      return {};
    return IntegerAttr::get(to, result);
  }
  const llvm::fltSemantics &semantics = cast<FloatType>(to).getFloatSemantics();
  APFloat result(semantics);
  if (auto intValue = dyn_cast<IntegerAttr>(value)) {
    result.convertFromAPInt(intValue.getValue(), isSignedInt(from),
                            APFloat::rmNearestTiesToEven);
  } else {
    result = cast<FloatAttr>(value).getValue();
    bool losesInfo = false;
    result.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  }
  return FloatAttr::get(to, result);
}

/// Integer arithmetic and bitwise ops; null where the result is unspecified.
static std::optional<APInt> foldIntBinary(Operation *op, const APInt &a,
                                          const APInt &b, bool isSigned) {
  unsigned width = a.getBitWidth();
  bool isBool = width == 1;
  return TypeSwitch<Operation *, std::optional<APInt>>(op)
      .Case([&](AddOp) -> std::optional<APInt> {
        if (isBool)
          return std::nullopt;
        return a + b;
      })
      .Case([&](SubOp) -> std::optional<APInt> {
        if (isBool)
          return std::nullopt;
        return a - b;
      })
      .Case([&](MulOp) -> std::optional<APInt> {
        if (isBool)
          return std::nullopt;
        return a * b;
      })
      .Case([&](DivOp) -> std::optional<APInt> {
        // Division by zero gives 0 and MIN / -1 gives MIN, like the
        // interpreter; APInt would divide by zero or overflow.
        if (isBool)
          return std::nullopt;
        if (b.isZero())
          return APInt::getZero(width);
        if (!isSigned)
          return a.udiv(b);
        if (a.isMinSignedValue() && b.isAllOnes())
          return a;
        return a.sdiv(b);
      })
      .Case([&](ShlOp) -> std::optional<APInt> {
        if ((isSigned && b.isNegative()) || b.uge(width))
          return std::nullopt;
        return a.shl(b);
      })
      .Case([&](ShrOp) -> std::optional<APInt> {
        if ((isSigned && b.isNegative()) || b.uge(width))
          return std::nullopt;
        return isSigned ? a.ashr(b) : a.lshr(b);
      })
      .Case([&](BitAndOp) -> std::optional<APInt> { return a & b; })
      .Case([&](BitXorOp) -> std::optional<APInt> { return a ^ b; })
      .Case([&](BitOrOp) -> std::optional<APInt> { return a | b; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Float arithmetic, rounding to nearest in the type's own semantics.
static std::optional<APFloat> foldFloatBinary(Operation *op, APFloat a,
                                              const APFloat &b) {
  constexpr auto rounding = APFloat::rmNearestTiesToEven;
  return TypeSwitch<Operation *, std::optional<APFloat>>(op)
      .Case([&](AddOp) -> std::optional<APFloat> {
        a.add(b, rounding);
        return a;
      })
      .Case([&](SubOp) -> std::optional<APFloat> {
        a.subtract(b, rounding);
        return a;
      })
      .Case([&](MulOp) -> std::optional<APFloat> {
        a.multiply(b, rounding);
        return a;
      })
      .Case([&](DivOp) -> std::optional<APFloat> {
        a.divide(b, rounding);
        return a;
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Comparison of two scalars of one type; NaN compares false except `ne`.
static bool compareScalars(CmpPredicate predicate, Attribute lhs,
                           Attribute rhs) {
  int order; // negative, zero or positive like lhs - rhs
  if (auto lhsInt = dyn_cast<IntegerAttr>(lhs)) {
    const APInt &a = lhsInt.getValue(), &b = cast<IntegerAttr>(rhs).getValue();
    bool isSigned = isSignedInt(lhsInt.getType());
    order = a == b ? 0 : (isSigned ? a.slt(b) : a.ult(b)) ? -1 : 1;
  } else {
    APFloat::cmpResult result = cast<FloatAttr>(lhs).getValue().compare(
        cast<FloatAttr>(rhs).getValue());
    if (result == APFloat::cmpUnordered)
      return predicate == CmpPredicate::ne;
    order = result == APFloat::cmpLessThan      ? -1
            : result == APFloat::cmpGreaterThan ? 1
                                                : 0;
  }
  switch (predicate) {
  case CmpPredicate::lt:
    return order < 0;
  case CmpPredicate::gt:
    return order > 0;
  case CmpPredicate::le:
    return order <= 0;
  case CmpPredicate::ge:
    return order >= 0;
  case CmpPredicate::eq:
    return order == 0;
  case CmpPredicate::ne:
    return order != 0;
  }
  return false;
}

/// Unary ops whose result is exact in every float type.
static Attribute foldUnaryScalar(Operation *op, Attribute arg) {
  if (auto intArg = dyn_cast<IntegerAttr>(arg)) {
    const APInt &value = intArg.getValue();
    if (isa<BitNotOp>(op))
      return IntegerAttr::get(intArg.getType(), ~value);
    if (isa<NegOp>(op) && value.getBitWidth() > 1)
      return IntegerAttr::get(intArg.getType(), -value);
    return {};
  }
  auto floatArg = cast<FloatAttr>(arg);
  APFloat value = floatArg.getValue();
  auto rounded = [&](APFloat::roundingMode mode) {
    value.roundToIntegral(mode);
    return FloatAttr::get(floatArg.getType(), value);
  };
  return TypeSwitch<Operation *, Attribute>(op)
      .Case([&](NegOp) {
        value.changeSign();
        return FloatAttr::get(floatArg.getType(), value);
      })
      .Case([&](FloorOp) { return rounded(APFloat::rmTowardNegative); })
      .Case([&](CeilOp) { return rounded(APFloat::rmTowardPositive); })
      .Case([&](RoundOp) { return rounded(APFloat::rmNearestTiesToAway); })
      // Transcendental functions are not folded: the host's libm need not
      // round like the backends.
      .Default([](Operation *) { return Attribute(); });
}

/// One element of an elementwise op from its operands' elements; null if the
/// op is not folded or the value is unspecified.
static Attribute foldScalar(Operation *op, ArrayRef<Attribute> args,
                            Type resultElement) {
  if (isa<CastOp>(op))
    return castScalar(args[0], resultElement);
  if (auto cmp = dyn_cast<CmpOp>(op))
    return IntegerAttr::get(
        resultElement, compareScalars(cmp.getPredicate(), args[0], args[1]));
  if (isa<SelectOp>(op))
    return isTruthy(args[0]) ? args[1] : args[2];
  if (args.size() == 1)
    return foldUnaryScalar(op, args[0]);
  if (args.size() != 2 || isa<PowOp>(op))
    return {};
  if (auto lhs = dyn_cast<IntegerAttr>(args[0])) {
    std::optional<APInt> result =
        foldIntBinary(op, lhs.getValue(), cast<IntegerAttr>(args[1]).getValue(),
                      isSignedInt(resultElement));
    return result ? IntegerAttr::get(resultElement, *result) : Attribute();
  }
  std::optional<APFloat> result =
      foldFloatBinary(op, cast<FloatAttr>(args[0]).getValue(),
                      cast<FloatAttr>(args[1]).getValue());
  return result ? FloatAttr::get(resultElement, *result) : Attribute();
}

//===----------------------------------------------------------------------===//
// Elementwise folding with broadcasting
//===----------------------------------------------------------------------===//

/// The row-major position in `shape` read at result coordinates `coords`
/// when `shape` is broadcast to the result (aligned at the right).
static int64_t broadcastPosition(ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> coords) {
  int64_t position = 0;
  size_t offset = coords.size() - shape.size();
  for (auto [i, size] : llvm::enumerate(shape))
    position = position * size + (size == 1 ? 0 : coords[offset + i]);
  return position;
}

OpFoldResult tilec::tile::foldElementwise(Operation *op,
                                          ArrayRef<Attribute> operands) {
  SmallVector<ElementsAttr> constants;
  bool allSplat = true;
  for (Attribute operand : operands) {
    auto elements = dyn_cast_or_null<ElementsAttr>(operand);
    if (!elements)
      return {};
    constants.push_back(elements);
    allSplat &= elements.isSplat();
  }
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type resultElement = resultType.getElementType();

  if (allSplat) {
    SmallVector<Attribute> args;
    for (ElementsAttr elements : constants)
      args.push_back(elements.getSplatValue<Attribute>());
    Attribute value = foldScalar(op, args, resultElement);
    return value ? DenseElementsAttr::get(resultType, value) : nullptr;
  }
  if (resultType.getNumElements() > kMaxFoldedElements)
    return {};

  ArrayRef<int64_t> shape = resultType.getShape();
  SmallVector<int64_t> coords(shape.size(), 0);
  SmallVector<Attribute> results;
  SmallVector<Attribute> args(constants.size());
  for (int64_t n = 0, e = resultType.getNumElements(); n < e; ++n) {
    for (auto [k, elements] : llvm::enumerate(constants)) {
      ArrayRef<int64_t> operandShape =
          cast<ShapedType>(elements.getType()).getShape();
      uint64_t position = broadcastPosition(operandShape, coords);
      args[k] = elements.getValues<Attribute>()[position];
    }
    Attribute value = foldScalar(op, args, resultElement);
    if (!value)
      return {};
    results.push_back(value);
    // Advance the row-major coordinates.
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++coords[d] < shape[d])
        break;
      coords[d] = 0;
    }
  }
  return DenseElementsAttr::get(resultType, results);
}

//===----------------------------------------------------------------------===//
// Op folders
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult CmpOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(getOperation(), adaptor.getOperands());
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  // A select between one value gives that value, whatever the condition.
  if (getTrueValue() == getFalseValue() &&
      getTrueValue().getType() == getType())
    return getTrueValue();
  return foldElementwise(getOperation(), adaptor.getOperands());
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  return foldElementwise(getOperation(), adaptor.getOperands());
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  // reshape(reshape(x)) reads x's elements in the same order.
  if (auto inner = getOperand().getDefiningOp<ReshapeOp>()) {
    getOperandMutable().assign(inner.getOperand());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getOperand()))
    return dense.reshape(getType());
  return {};
}

/// Whether `map` is the identity over exactly `rank` dimensions.
static bool isIdentityOfRank(AffineMap map, int64_t rank) {
  return map.isIdentity() && static_cast<int64_t>(map.getNumDims()) == rank;
}

OpFoldResult ContractOp::fold(FoldAdaptor) {
  // O[i, j] = agg(A[i, j]) with nothing else writes each cell of A's shape
  // exactly once with A's element: the result is A, whatever agg is.
  if (getCombo() != CombinationKind::none || getInit())
    return {};
  // An empty set prints as `(0 == 0)`, so constant constraints that hold
  // count as no constraint.
  for (AffineExpr constraint : getCons().getConstraints()) {
    auto constant = dyn_cast<AffineConstantExpr>(constraint);
    if (!constant || constant.getValue() != 0)
      return {};
  }
  Value input = getInputs()[0];
  if (input.getType() != getType())
    return {};
  int64_t rank = getType().getRank();
  AffineMap src = cast<AffineMapAttr>(getSrcs()[0]).getValue();
  if (!isIdentityOfRank(getSink(), rank) || !isIdentityOfRank(src, rank))
    return {};
  for (int64_t d = 0; d < rank; ++d)
    if (getLowerBounds()[d] != 0 ||
        getUpperBounds()[d] != getType().getDimSize(d) - 1)
      return {};
  return input;
}
