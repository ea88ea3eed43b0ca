//===- Elementwise.cpp - Scalar arithmetic of the loop level ----*- C++ -*-===//
//
// The element conversions of docs/language.md 5.4 and the scalar form of
// every elementwise tile op. Integers are signless in registers, so the
// tile-level element type travels with each value (`Scalar`) to pick signed
// or unsigned operations. Nothing traps: integer division by zero gives 0,
// MIN / -1 gives MIN, out-of-range shift counts give a full shift's result
// and out-of-range float-to-integer conversions give 0, as the interpreter.
// f16 and bf16 math functions are computed in f32 and rounded.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static bool isBool(Type t) { return t.isInteger(1); }

Type loops::storageType(Type tileType) {
  if (isBool(tileType))
    return IntegerType::get(tileType.getContext(), 8);
  if (auto i = dyn_cast<IntegerType>(tileType))
    return IntegerType::get(tileType.getContext(), i.getWidth());
  return tileType;
}

Type loops::registerType(Type tileType) {
  if (auto i = dyn_cast<IntegerType>(tileType))
    return IntegerType::get(tileType.getContext(), i.getWidth());
  return tileType;
}

MemRefType loops::memrefTypeFor(RankedTensorType type) {
  return MemRefType::get(type.getShape(), storageType(type.getElementType()));
}

bool loops::isUnsignedLike(Type tileType) {
  return isBool(tileType) || tileType.isUnsignedInteger();
}

static Value intConst(OpBuilder &b, Location loc, Type type, int64_t v) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
}

static Value floatConst(OpBuilder &b, Location loc, Type type, double v) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, v));
}

Scalar loops::zeroScalar(OpBuilder &b, Location loc, Type type) {
  Type reg = registerType(type);
  if (isa<FloatType>(reg))
    return {floatConst(b, loc, reg, 0.0), type};
  return {intConst(b, loc, reg, 0), type};
}

Scalar loops::fromStorage(OpBuilder &b, Location loc, Value v, Type tileType) {
  if (isBool(tileType)) {
    Value zero = intConst(b, loc, v.getType(), 0);
    return {arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero),
            tileType};
  }
  return {v, tileType};
}

Value loops::toStorage(OpBuilder &b, Location loc, Scalar v) {
  if (isBool(v.type))
    return arith::ExtUIOp::create(b, loc, storageType(v.type), v.value);
  return v.value;
}

Value loops::truthOf(OpBuilder &b, Location loc, Scalar v) {
  if (isBool(v.type))
    return v.value;
  if (isa<FloatType>(v.type)) // NaN != 0 is true: unordered compare
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v.value,
                                 floatConst(b, loc, v.type, 0.0));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v.value,
                               intConst(b, loc, v.value.getType(), 0));
}

//===----------------------------------------------------------------------===//
// Conversions (docs/language.md 5.4)
//===----------------------------------------------------------------------===//

/// A float (f32 or f64) truncated toward zero to i64; NaN and values
/// outside the 64-bit range give 0, or for a u64 destination values in
/// [2^63, 2^64) their unsigned conversion, exactly as the interpreter.
static Value floatToI64(OpBuilder &b, Location loc, Value x, bool toU64) {
  Type fty = x.getType();
  Type i64 = b.getI64Type();
  Value zero = floatConst(b, loc, fty, 0.0);
  Value lo = floatConst(b, loc, fty, -9223372036854775808.0);
  Value hi = floatConst(b, loc, fty, 9223372036854775808.0);
  auto cmp = [&](arith::CmpFPredicate p, Value l, Value r) {
    return arith::CmpFOp::create(b, loc, p, l, r);
  };
  Value inRange =
      arith::AndIOp::create(b, loc, cmp(arith::CmpFPredicate::OGE, x, lo),
                            cmp(arith::CmpFPredicate::OLT, x, hi));
  Value safe = arith::SelectOp::create(b, loc, inRange, x, zero);
  Value result = arith::FPToSIOp::create(b, loc, i64, safe);
  if (!toU64)
    return result;
  Value top = floatConst(b, loc, fty, 18446744073709551616.0);
  Value big =
      arith::AndIOp::create(b, loc, cmp(arith::CmpFPredicate::OGE, x, hi),
                            cmp(arith::CmpFPredicate::OLT, x, top));
  Value safeBig = arith::SelectOp::create(b, loc, big, x, zero);
  Value unsignedResult = arith::FPToUIOp::create(b, loc, i64, safeBig);
  return arith::SelectOp::create(b, loc, big, unsignedResult, result);
}

Type loops::computeType(Type tileType) {
  if (auto f = dyn_cast<FloatType>(tileType))
    if (f.getWidth() < 32)
      return Float32Type::get(tileType.getContext());
  return tileType;
}

Scalar loops::convertScalar(OpBuilder &b, Location loc, Scalar v, Type to) {
  Type from = v.type;
  if (from == to)
    return v;
  Type toReg = registerType(to);
  if (isBool(to))
    return {truthOf(b, loc, v), to};
  Value x = v.value;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(toReg);
  if (toFloat && toFloat.getWidth() == 16)
    return {roundToNarrowFloat(b, loc, x, isUnsignedLike(from), toFloat), to};
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return {arith::ExtFOp::create(b, loc, toReg, x), to};
    return {arith::TruncFOp::create(b, loc, toReg, x), to};
  }
  if (!fromFloat && toFloat) {
    if (isUnsignedLike(from))
      return {arith::UIToFPOp::create(b, loc, toReg, x), to};
    return {arith::SIToFPOp::create(b, loc, toReg, x), to};
  }
  unsigned toWidth = cast<IntegerType>(toReg).getWidth();
  if (fromFloat) {
    if (fromFloat.getWidth() < 32)
      x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    Value wide = floatToI64(b, loc, x, to.isUnsignedInteger(64));
    if (toWidth == 64)
      return {wide, to};
    return {arith::TruncIOp::create(b, loc, toReg, wide), to};
  }
  unsigned fromWidth = cast<IntegerType>(x.getType()).getWidth();
  if (fromWidth == toWidth)
    return {x, to};
  if (fromWidth > toWidth)
    return {arith::TruncIOp::create(b, loc, toReg, x), to};
  if (isUnsignedLike(from))
    return {arith::ExtUIOp::create(b, loc, toReg, x), to};
  return {arith::ExtSIOp::create(b, loc, toReg, x), to};
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

AffineMap loops::broadcastMap(AffineMap resultIndices,
                              RankedTensorType operandType) {
  unsigned rank = operandType.getRank();
  unsigned offset = resultIndices.getNumResults() - rank;
  SmallVector<AffineExpr> exprs;
  for (unsigned d = 0; d < rank; ++d)
    exprs.push_back(operandType.getDimSize(d) == 1
                        ? getAffineConstantExpr(0, resultIndices.getContext())
                        : resultIndices.getResult(d + offset));
  return AffineMap::get(resultIndices.getNumDims(), 0, exprs,
                        resultIndices.getContext());
}

//===----------------------------------------------------------------------===//
// Scalar ops
//===----------------------------------------------------------------------===//

/// A math function on a float, computed in f32 for f16 and bf16.
template <typename MathOp>
static Value emitMath(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  if (cast<FloatType>(t).getWidth() >= 32)
    return MathOp::create(b, loc, x);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return roundToNarrowFloat(b, loc, MathOp::create(b, loc, wide),
                            /*isUnsigned=*/false, cast<FloatType>(t));
}

/// Integer a / b without traps: b == 0 gives 0, MIN / -1 gives MIN.
static Value emitIntDiv(OpBuilder &b, Location loc, Value x, Value y,
                        bool isUnsigned) {
  Type t = x.getType();
  unsigned width = cast<IntegerType>(t).getWidth();
  Value zero = intConst(b, loc, t, 0), one = intConst(b, loc, t, 1);
  Value yZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value bad = yZero;
  if (!isUnsigned) {
    Value minVal = arith::ConstantOp::create(
        b, loc, t, b.getIntegerAttr(t, APInt::getSignedMinValue(width)));
    Value minusOne = intConst(b, loc, t, -1);
    Value overflow = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, minVal),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, minusOne));
    bad = arith::OrIOp::create(b, loc, yZero, overflow);
  }
  Value safe = arith::SelectOp::create(b, loc, bad, one, y);
  Value q = isUnsigned ? Value(arith::DivUIOp::create(b, loc, x, safe))
                       : Value(arith::DivSIOp::create(b, loc, x, safe));
  return arith::SelectOp::create(b, loc, yZero, zero, q);
}

/// Shifts with counts outside [0, width) defined as a full shift: 0, or -1
/// for an arithmetic right shift of a negative value.
static Value emitShift(OpBuilder &b, Location loc, Value x, Value y, bool left,
                       bool isUnsigned) {
  Type t = x.getType();
  unsigned width = cast<IntegerType>(t).getWidth();
  Value zero = intConst(b, loc, t, 0);
  Value w = intConst(b, loc, t, width);
  // Unsigned compare: a negative signed count reads as huge, so one test.
  Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, y, w);
  Value count = arith::SelectOp::create(b, loc, valid, y, zero);
  Value shifted;
  Value fallback = zero;
  if (left) {
    shifted = arith::ShLIOp::create(b, loc, x, count);
  } else if (isUnsigned) {
    shifted = arith::ShRUIOp::create(b, loc, x, count);
  } else {
    shifted = arith::ShRSIOp::create(b, loc, x, count);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
    fallback = arith::SelectOp::create(b, loc, negative,
                                       intConst(b, loc, t, -1), zero);
  }
  return arith::SelectOp::create(b, loc, valid, shifted, fallback);
}

static arith::CmpFPredicate floatPredicate(tile::CmpPredicate p) {
  switch (p) {
  case tile::CmpPredicate::lt:
    return arith::CmpFPredicate::OLT;
  case tile::CmpPredicate::gt:
    return arith::CmpFPredicate::OGT;
  case tile::CmpPredicate::le:
    return arith::CmpFPredicate::OLE;
  case tile::CmpPredicate::ge:
    return arith::CmpFPredicate::OGE;
  case tile::CmpPredicate::eq:
    return arith::CmpFPredicate::OEQ;
  case tile::CmpPredicate::ne:
    return arith::CmpFPredicate::UNE;
  }
  return arith::CmpFPredicate::UNE;
}

static arith::CmpIPredicate intPredicate(tile::CmpPredicate p,
                                         bool isUnsigned) {
  switch (p) {
  case tile::CmpPredicate::lt:
    return isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
  case tile::CmpPredicate::gt:
    return isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  case tile::CmpPredicate::le:
    return isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
  case tile::CmpPredicate::ge:
    return isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
  case tile::CmpPredicate::eq:
    return arith::CmpIPredicate::eq;
  case tile::CmpPredicate::ne:
    return arith::CmpIPredicate::ne;
  }
  return arith::CmpIPredicate::ne;
}

/// A two-operand arithmetic or bitwise op of one type.
static FailureOr<Value> emitBinary(OpBuilder &b, Location loc, Operation *op,
                                   Scalar lhs, Scalar rhs) {
  Value x = lhs.value, y = rhs.value;
  bool isF = isa<FloatType>(x.getType());
  bool isU = isUnsignedLike(lhs.type);
  return llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case([&](tile::AddOp) -> Value {
        return isF ? Value(arith::AddFOp::create(b, loc, x, y))
                   : Value(arith::AddIOp::create(b, loc, x, y));
      })
      .Case([&](tile::SubOp) -> Value {
        return isF ? Value(arith::SubFOp::create(b, loc, x, y))
                   : Value(arith::SubIOp::create(b, loc, x, y));
      })
      .Case([&](tile::MulOp) -> Value {
        return isF ? Value(arith::MulFOp::create(b, loc, x, y))
                   : Value(arith::MulIOp::create(b, loc, x, y));
      })
      .Case([&](tile::DivOp) -> Value {
        return isF ? Value(arith::DivFOp::create(b, loc, x, y))
                   : emitIntDiv(b, loc, x, y, isU);
      })
      .Case([&](tile::ShlOp) -> FailureOr<Value> {
        if (isF)
          return failure();
        return emitShift(b, loc, x, y, /*left=*/true, isU);
      })
      .Case([&](tile::ShrOp) -> FailureOr<Value> {
        if (isF)
          return failure();
        return emitShift(b, loc, x, y, /*left=*/false, isU);
      })
      .Case([&](tile::BitAndOp) -> FailureOr<Value> {
        if (isF)
          return failure();
        return Value(arith::AndIOp::create(b, loc, x, y));
      })
      .Case([&](tile::BitXorOp) -> FailureOr<Value> {
        if (isF)
          return failure();
        return Value(arith::XOrIOp::create(b, loc, x, y));
      })
      .Case([&](tile::BitOrOp) -> FailureOr<Value> {
        if (isF)
          return failure();
        return Value(arith::OrIOp::create(b, loc, x, y));
      })
      .Default([](Operation *) { return failure(); });
}

/// A one-operand op: negation, bitwise not or a math function.
static FailureOr<Value> emitUnary(OpBuilder &b, Location loc, Operation *op,
                                  Scalar arg) {
  Value x = arg.value;
  bool isF = isa<FloatType>(x.getType());
  if (isa<tile::NegOp>(op)) {
    if (isF)
      return Value(arith::NegFOp::create(b, loc, x));
    return Value(
        arith::SubIOp::create(b, loc, intConst(b, loc, x.getType(), 0), x));
  }
  if (isa<tile::BitNotOp>(op)) {
    if (isF)
      return failure();
    // -1 is all ones in every width; on i1 this is logical not.
    return Value(
        arith::XOrIOp::create(b, loc, x, intConst(b, loc, x.getType(), -1)));
  }
  if (!isF) {
    // floor, ceil and round leave integers unchanged (8.1).
    if (isa<tile::FloorOp, tile::CeilOp, tile::RoundOp>(op))
      return x;
    return failure();
  }
  return llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case([&](tile::ExpOp) { return emitMath<math::ExpOp>(b, loc, x); })
      .Case([&](tile::LogOp) { return emitMath<math::LogOp>(b, loc, x); })
      .Case([&](tile::SqrtOp) { return emitMath<math::SqrtOp>(b, loc, x); })
      .Case([&](tile::SinOp) { return emitMath<math::SinOp>(b, loc, x); })
      .Case([&](tile::CosOp) { return emitMath<math::CosOp>(b, loc, x); })
      .Case([&](tile::TanOp) { return emitMath<math::TanOp>(b, loc, x); })
      .Case([&](tile::AsinOp) { return emitMath<math::AsinOp>(b, loc, x); })
      .Case([&](tile::AcosOp) { return emitMath<math::AcosOp>(b, loc, x); })
      .Case([&](tile::AtanOp) { return emitMath<math::AtanOp>(b, loc, x); })
      .Case([&](tile::SinhOp) { return emitMath<math::SinhOp>(b, loc, x); })
      .Case([&](tile::CoshOp) { return emitMath<math::CoshOp>(b, loc, x); })
      .Case([&](tile::TanhOp) { return emitMath<math::TanhOp>(b, loc, x); })
      .Case([&](tile::AsinhOp) { return emitMath<math::AsinhOp>(b, loc, x); })
      .Case([&](tile::AcoshOp) { return emitMath<math::AcoshOp>(b, loc, x); })
      .Case([&](tile::AtanhOp) { return emitMath<math::AtanhOp>(b, loc, x); })
      .Case([&](tile::FloorOp) { return emitMath<math::FloorOp>(b, loc, x); })
      .Case([&](tile::CeilOp) { return emitMath<math::CeilOp>(b, loc, x); })
      .Case([&](tile::RoundOp) { return emitMath<math::RoundOp>(b, loc, x); })
      .Default([](Operation *) { return failure(); });
}

FailureOr<Scalar> loops::emitElementwiseScalar(OpBuilder &b, Operation *op,
                                               ArrayRef<Scalar> args) {
  Location loc = op->getLoc();
  auto resultType =
      cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  if (auto cmp = dyn_cast<tile::CmpOp>(op)) {
    Scalar x = args[0], y = args[1];
    if (isa<FloatType>(x.value.getType()))
      return Scalar{arith::CmpFOp::create(b, loc,
                                          floatPredicate(cmp.getPredicate()),
                                          x.value, y.value),
                    resultType};
    return Scalar{arith::CmpIOp::create(
                      b, loc,
                      intPredicate(cmp.getPredicate(), isUnsignedLike(x.type)),
                      x.value, y.value),
                  resultType};
  }
  if (isa<tile::SelectOp>(op)) {
    Value cond = truthOf(b, loc, args[0]);
    Scalar t = convertScalar(b, loc, args[1], resultType);
    Scalar f = convertScalar(b, loc, args[2], resultType);
    return Scalar{arith::SelectOp::create(b, loc, cond, t.value, f.value),
                  resultType};
  }
  if (isa<tile::CastOp>(op))
    return convertScalar(b, loc, args[0], resultType);
  if (isa<tile::PowOp>(op)) {
    // The exponent keeps its own type (5.4); both go to the result's float
    // type (f32 for f16 and bf16) and math.powf does the rest.
    if (!isa<FloatType>(resultType))
      return failure();
    Type work = computeType(resultType);
    Value x = convertScalar(b, loc, args[0], work).value;
    Value y = convertScalar(b, loc, args[1], work).value;
    Value r = math::PowFOp::create(b, loc, x, y);
    return convertScalar(b, loc, {r, work}, resultType);
  }
  if (args.size() == 1) {
    FailureOr<Value> r = emitUnary(b, loc, op, args[0]);
    if (failed(r))
      return failure();
    return Scalar{*r, resultType};
  }
  if (args.size() != 2)
    return failure();
  // f16 and bf16 arithmetic is done in f32 and rounded once: exact for
  // + - * / (f32 has more than twice their precision plus two bits), and
  // it keeps the subnormals that LLVM's bf16 rounding on AVX512-BF16
  // flushes.
  Type work = computeType(resultType);
  Scalar lhs = args[0], rhs = args[1];
  if (work != resultType) {
    lhs = convertScalar(b, loc, lhs, work);
    rhs = convertScalar(b, loc, rhs, work);
  }
  FailureOr<Value> r = emitBinary(b, loc, op, lhs, rhs);
  if (failed(r))
    return failure();
  return convertScalar(b, loc, {*r, work}, resultType);
}
