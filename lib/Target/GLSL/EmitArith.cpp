//===- EmitArith.cpp - arith ops as GLSL ----------------------------------===//
//
// Part of the GLSL target. GLSL's 32-bit (and int64_t) + - * wrap, as
// MLIR's signless integers do; i8 and i16 live in ints, sign-extended, so
// each result that can leave their range is brought back with
// bitfieldExtract(x, 0, W), and an unsigned operation masks its operands.
// Shift counts are taken modulo 32 (64), as OpenCL takes them; `%` on
// negative operands is undefined in GLSL, so remsi is a - (a / b) * b.
// bf16 and f16 compute in float and round once per operation, as in the
// OpenCL target. Ops on vectors are written lane by lane where GLSL has no
// vector form (comparisons, selects, helpers); a GPU runs them lane by lane
// anyway.
//
//===----------------------------------------------------------------------===//

#include "GLSLTypes.h"
#include "ShaderEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <fmt/format.h>

#include <functional>

using namespace mlir;
using namespace tilec;
using namespace tilec::glsl;

namespace {

using Lanes = llvm::ArrayRef<std::string>;
using LaneFunction = std::function<std::string(Lanes)>;

/// The mask of the low `width` bits, as a uint literal.
std::string mask(unsigned width) {
  return fmt::format("0x{:X}u", (uint64_t(1) << width) - 1);
}

/// Whether integer type `type` is held sign-extended in an int (i8, i16).
bool isNarrow(Type type) {
  unsigned width = intWidth(type);
  return !isBool(type) && width < 32;
}

/// `expr` (an int holding more than `type`'s bits) back in i8/i16 range.
std::string wrap(Type type, const std::string &expr) {
  if (!isNarrow(type))
    return expr;
  return fmt::format("bitfieldExtract({}, 0, {})", expr, intWidth(type));
}

/// `value` of integer type `type` as the unsigned value of its bits.
std::string asUnsigned(Type type, const std::string &value) {
  if (isInt64(type))
    return "uint64_t(" + value + ")";
  if (isNarrow(type))
    return fmt::format("(uint({}) & {})", value, mask(intWidth(type)));
  return "uint(" + value + ")";
}

/// An unsigned result of `type`'s width back in its signed representation.
std::string fromUnsigned(Type type, const std::string &value) {
  if (isInt64(type))
    return "int64_t(" + value + ")";
  return wrap(type, "int(" + value + ")");
}

/// The shift count `count` of integer type `type`, modulo its width.
std::string shiftCount(Type type, const std::string &count) {
  if (isInt64(type))
    return "int(" + count + " & 63l)";
  return "(" + count + " & 31)";
}

/// Translates one arith op; `e` is the shader emitter.
class ArithEmitter {
public:
  ArithEmitter(ShaderEmitter &e, Operation &op) : e(e), op(op) {}
  LogicalResult emit();

private:
  Value operand(unsigned i) { return op.getOperand(i); }
  Type resultType() { return op.getResult(0).getType(); }
  Type operandType() { return operand(0).getType(); }
  std::string get(unsigned i) { return e.get(operand(i)); }
  LogicalResult define(const std::string &expr) {
    return e.define(&op, op.getResult(0), expr);
  }
  LogicalResult unsupported(llvm::StringRef why) {
    return op.emitError("cannot be translated to GLSL: ") << why;
  }
  /// Defines the result from `f` of the operands, lane by lane for a
  /// vector result; with `asFloat`, bf16 and f16 operands are converted to
  /// float first.
  LogicalResult lanewise(const LaneFunction &f, bool asFloat = false);

  LogicalResult floatBinary(llvm::StringRef infix);
  LogicalResult floatHelper(const std::function<std::string(llvm::StringRef)>
                                &helper);
  LogicalResult wrapping(llvm::StringRef infix);
  LogicalResult bitwise(llvm::StringRef infix, llvm::StringRef boolInfix);
  LogicalResult shift(bool left, bool isUnsigned);
  LogicalResult signedDivision(bool remainder);
  LogicalResult unsignedDivision(bool remainder);
  LogicalResult minMax(bool isMax, bool isUnsigned);
  LogicalResult divHelper(bool isFloor, bool isUnsigned);
  LogicalResult cmpI(arith::CmpIPredicate predicate);
  LogicalResult cmpF(arith::CmpFPredicate predicate);
  LogicalResult select();
  LogicalResult conversion();
  std::optional<std::string> castLane(Type from, Type to,
                                      const std::string &value);
  std::optional<std::string> intToInt(Type from, Type to,
                                      const std::string &value);

  ShaderEmitter &e;
  Operation &op;
};

} // namespace

LogicalResult ArithEmitter::lanewise(const LaneFunction &f, bool asFloat) {
  auto lane = [&](Value value, int64_t index) {
    std::string expr = e.get(value);
    if (index >= 0)
      expr += "[" + std::to_string(index) + "]";
    std::optional<StoredFloat> format = storedFloat(value.getType());
    if (asFloat && format)
      expr = e.getPrelude().toFloat(*format) + "(" + expr + ")";
    return expr;
  };
  auto vector = dyn_cast<VectorType>(resultType());
  if (!vector) {
    std::vector<std::string> operands;
    for (Value value : op.getOperands())
      operands.push_back(lane(value, -1));
    return define(f(operands));
  }
  auto type = e.typeName(&op, vector);
  if (failed(type))
    return failure();
  std::vector<std::string> lanes;
  for (int64_t i = 0; i < vector.getNumElements(); ++i) {
    std::vector<std::string> operands;
    for (Value value : op.getOperands())
      operands.push_back(isa<VectorType>(value.getType()) ? lane(value, i)
                                                          : lane(value, -1));
    lanes.push_back(f(operands));
  }
  return define(*type + "(" + llvm::join(lanes, ", ") + ")");
}

LogicalResult ArithEmitter::floatBinary(llvm::StringRef infix) {
  Type type = resultType();
  if (!storedFloat(type) && !isLaneArray(type))
    return define(fmt::format("{} {} {}", get(0), infix.str(), get(1)));
  return lanewise(
      [&](Lanes x) {
        return e.fromFloat(scalarType(type),
                           fmt::format("{} {} {}", x[0], infix.str(), x[1]));
      },
      /*asFloat=*/true);
}

LogicalResult ArithEmitter::floatHelper(
    const std::function<std::string(llvm::StringRef)> &helper) {
  Type type = resultType();
  std::string computeType = scalarType(type).isF64() ? "double" : "float";
  std::string name = helper(computeType);
  return lanewise(
      [&](Lanes x) {
        return e.fromFloat(scalarType(type),
                           name + "(" + llvm::join(x, ", ") + ")");
      },
      /*asFloat=*/true);
}

LogicalResult ArithEmitter::wrapping(llvm::StringRef infix) {
  Type type = resultType();
  if (isBool(type)) // i1 wraps modulo 2: + and - are xor, * is and
    return lanewise([&](Lanes x) {
      return fmt::format("{} {} {}", x[0], infix == "*" ? "&&" : "!=", x[1]);
    });
  return lanewise([&](Lanes x) {
    return wrap(type, fmt::format("{} {} {}", x[0], infix.str(), x[1]));
  });
}

LogicalResult ArithEmitter::bitwise(llvm::StringRef infix,
                                    llvm::StringRef boolInfix) {
  // Of two sign-extended values, the high bits stay copies of the sign.
  bool isBoolean = isBool(resultType());
  return lanewise([&](Lanes x) {
    return fmt::format("{} {} {}", x[0],
                       isBoolean ? boolInfix.str() : infix.str(), x[1]);
  });
}

LogicalResult ArithEmitter::shift(bool left, bool isUnsigned) {
  Type type = resultType();
  if (isBool(type)) // x << 0 and x >> 0 are x; a count of 1 is undefined
    return define(get(0));
  return lanewise([&](Lanes x) {
    std::string count = shiftCount(type, x[1]);
    if (left)
      return wrap(type, fmt::format("{} << {}", x[0], count));
    if (!isUnsigned)
      return fmt::format("{} >> {}", x[0], count);
    return fromUnsigned(type, fmt::format("{} >> {}",
                                          asUnsigned(type, x[0]), count));
  });
}

LogicalResult ArithEmitter::signedDivision(bool remainder) {
  Type type = resultType();
  if (isBool(type)) // x / 1 is x, x % 1 is 0; dividing by 0 is undefined
    return lanewise([&](Lanes x) {
      return remainder ? fmt::format("{} && !{}", x[0], x[1]) : x[0];
    });
  return lanewise([&](Lanes x) {
    if (!remainder)
      return wrap(type, fmt::format("{} / {}", x[0], x[1]));
    return wrap(type,
                fmt::format("{0} - ({0} / {1}) * {1}", x[0], x[1]));
  });
}

LogicalResult ArithEmitter::unsignedDivision(bool remainder) {
  Type type = resultType();
  if (isBool(type))
    return lanewise([&](Lanes x) {
      return remainder ? fmt::format("{} && !{}", x[0], x[1]) : x[0];
    });
  return lanewise([&](Lanes x) {
    return fromUnsigned(type, fmt::format("{} {} {}", asUnsigned(type, x[0]),
                                          remainder ? "%" : "/",
                                          asUnsigned(type, x[1])));
  });
}

LogicalResult ArithEmitter::minMax(bool isMax, bool isUnsigned) {
  Type type = resultType();
  if (isBool(type)) {
    // Unsigned, false < true; signed, true (-1) < false.
    bool isAnd = isMax != isUnsigned;
    return lanewise([&](Lanes x) {
      return fmt::format("{} {} {}", x[0], isAnd ? "&&" : "||", x[1]);
    });
  }
  // GLSL 4.30 has no int64_t overloads of max and min: a select serves
  // every width.
  return lanewise([&](Lanes x) {
    std::string a = isUnsigned ? asUnsigned(type, x[0]) : x[0];
    std::string b = isUnsigned ? asUnsigned(type, x[1]) : x[1];
    return fmt::format("{} {} {} ? {} : {}", a, isMax ? ">" : "<", b, x[0],
                       x[1]);
  });
}

LogicalResult ArithEmitter::divHelper(bool isFloor, bool isUnsigned) {
  Type type = resultType();
  if (isBool(type))
    return unsupported("floor or ceiling division of i1");
  Prelude &prelude = e.getPrelude();
  if (!isUnsigned) {
    std::string computeType = isInt64(type) ? "int64_t" : "int";
    std::string helper = isFloor ? prelude.floorDiv(computeType)
                                 : prelude.ceilDiv(computeType, false);
    return lanewise([&](Lanes x) {
      return wrap(type, fmt::format("{}({}, {})", helper, x[0], x[1]));
    });
  }
  std::string computeType = isInt64(type) ? "uint64_t" : "uint";
  std::string helper = prelude.ceilDiv(computeType, true);
  return lanewise([&](Lanes x) {
    return fromUnsigned(type,
                        fmt::format("{}({}, {})", helper,
                                    asUnsigned(type, x[0]),
                                    asUnsigned(type, x[1])));
  });
}

LogicalResult ArithEmitter::cmpI(arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  Type type = operandType();
  bool isSignedPredicate = predicate == P::slt || predicate == P::sle ||
                           predicate == P::sgt || predicate == P::sge;
  bool isUnsignedPredicate = predicate == P::ult || predicate == P::ule ||
                             predicate == P::ugt || predicate == P::uge;
  const char *infix = "";
  switch (predicate) {
  case P::eq:
    infix = "==";
    break;
  case P::ne:
    infix = "!=";
    break;
  case P::slt:
  case P::ult:
    infix = "<";
    break;
  case P::sle:
  case P::ule:
    infix = "<=";
    break;
  case P::sgt:
  case P::ugt:
    infix = ">";
    break;
  case P::sge:
  case P::uge:
    infix = ">=";
    break;
  }
  return lanewise([&](Lanes x) {
    std::string a = x[0], b = x[1];
    if (isBool(type) && isSignedPredicate) // as a signed i1, true is -1
      a = "-int(" + a + ")", b = "-int(" + b + ")";
    else if (isBool(type) && isUnsignedPredicate)
      a = "int(" + a + ")", b = "int(" + b + ")";
    else if (isUnsignedPredicate)
      a = asUnsigned(type, a), b = asUnsigned(type, b);
    return fmt::format("{} {} {}", a, infix, b);
  });
}

LogicalResult ArithEmitter::cmpF(arith::CmpFPredicate predicate) {
  using P = arith::CmpFPredicate;
  // GLSL's relational operators are the ordered predicates and `!=` is
  // une, where NaNs are kept at all; the rest test isnan explicitly.
  return lanewise(
      [&](Lanes x) -> std::string {
        std::string a = x[0], b = x[1];
        auto infix = [&](const char *op) {
          return fmt::format("{} {} {}", a, op, b);
        };
        std::string unordered =
            fmt::format("(isnan({}) || isnan({}))", a, b);
        switch (predicate) {
        case P::AlwaysFalse:
          return "false";
        case P::AlwaysTrue:
          return "true";
        case P::OEQ:
          return infix("==");
        case P::OGT:
          return infix(">");
        case P::OGE:
          return infix(">=");
        case P::OLT:
          return infix("<");
        case P::OLE:
          return infix("<=");
        case P::ONE:
          return "(" + infix("<") + " || " + infix(">") + ")";
        case P::ORD:
          return "!" + unordered;
        case P::UEQ:
          return "!(" + infix("<") + " || " + infix(">") + ")";
        case P::UGT:
          return unordered + " || " + infix(">");
        case P::UGE:
          return unordered + " || " + infix(">=");
        case P::ULT:
          return unordered + " || " + infix("<");
        case P::ULE:
          return unordered + " || " + infix("<=");
        case P::UNE:
          return unordered + " || " + infix("!=");
        case P::UNO:
          return unordered;
        }
        return "false";
      },
      /*asFloat=*/true);
}

LogicalResult ArithEmitter::select() {
  // NVIDIA's GLSL compiler makes each ?: a branch, and a load after a
  // branch waits for the loads before it (softmax's row maximum, a maxnum
  // per column, ran at half of OpenCL's speed). mix() with a bool selector
  // is GLSL's select, without a branch, for float and double values
  // (GLSL 1.30 and 4.00; ints would need 4.50), lane-wise on bvecs.
  Type type = resultType();
  Type element = getElementTypeOrSelf(type);
  bool mixes = element.isF32() || element.isF64();
  auto choose = [&](Lanes x) {
    return mixes ? fmt::format("mix({}, {}, {})", x[2], x[1], x[0])
                 : fmt::format("{} ? {} : {}", x[0], x[1], x[2]);
  };
  auto vector = dyn_cast<VectorType>(type);
  if (!vector)
    return define(choose({get(0), get(1), get(2)}));
  if (mixes && !isLaneArray(type)) {
    std::string condition = get(0);
    if (!isa<VectorType>(operandType()))
      condition = fmt::format("bvec{}({})", vector.getNumElements(), condition);
    return define(choose({condition, get(1), get(2)}));
  }
  // ?: takes a scalar condition, for operands of any type.
  if (!isa<VectorType>(operandType()) && !isLaneArray(type))
    return define(choose({get(0), get(1), get(2)}));
  return lanewise(choose);
}

std::optional<std::string> ArithEmitter::intToInt(Type from, Type to,
                                                  const std::string &value) {
  if (isBool(to))
    return fmt::format("({} & {}(1)) != {}(0)", value, *valueType(from),
                       *valueType(from));
  std::string toType = *valueType(to);
  bool zeroExtend =
      isa<arith::ExtUIOp>(op) ||
      (isa<arith::IndexCastUIOp>(op) &&
       source::intWidth(from) < source::intWidth(to));
  // int(true) is 1 (no ?:, which NVIDIA's compiler makes a branch); the
  // 64-bit types take no bool constructor in GL_ARB_gpu_shader_int64.
  if (isBool(from) && !isInt64(to))
    return fmt::format("{}{}({})", zeroExtend ? "" : "-", toType, value);
  if (isBool(from))
    return fmt::format("({} ? {}({}) : {}(0))", value, toType,
                       zeroExtend ? "1" : "-1", toType);
  unsigned fromWidth = intWidth(from), toWidth = intWidth(to);
  if (toWidth < fromWidth || (toWidth == fromWidth && !isInt64(to))) {
    // Truncation keeps the low bits (index and i32 are both int here).
    std::string low = isInt64(from)
                          ? e.getPrelude().low32() + "(" + value + ")"
                          : value;
    return wrap(to, low);
  }
  if (toWidth == fromWidth) // i64 to i64
    return value;
  if (!zeroExtend)
    return isInt64(to) ? toType + "(" + value + ")" : value;
  if (isInt64(to))
    return "int64_t(uint64_t(" + asUnsigned(from, value) + "))";
  return "int(" + asUnsigned(from, value) + ")";
}

std::optional<std::string> ArithEmitter::castLane(Type from, Type to,
                                                  const std::string &value) {
  Prelude &prelude = e.getPrelude();
  std::optional<StoredFloat> toStored = storedFloat(to);
  std::optional<StoredFloat> fromStored = storedFloat(from);
  std::string asFloat =
      fromStored ? prelude.toFloat(*fromStored) + "(" + value + ")" : value;
  if (isa<arith::BitcastOp>(op)) {
    if (from.isF32())
      return "floatBitsToInt(" + value + ")";
    if (to.isF32())
      return "intBitsToFloat(" + value + ")";
    if (from.isF64())
      return prelude.doubleBits() + "(" + value + ")";
    if (to.isF64())
      return prelude.bitsDouble() + "(" + value + ")";
    if (fromStored && toStored)
      return value;
    if (toStored) // i16 to 16 bits
      return "(uint(" + value + ") & 0xFFFFu)";
    if (fromStored)
      return wrap(to, "int(" + value + ")");
    return value;
  }
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
    bool isUnsigned = isa<arith::UIToFPOp>(op);
    std::string integer = value;
    if (isBool(from))
      integer = fmt::format("({} ? {} : 0)", value, isUnsigned ? "1" : "-1");
    else if (isUnsigned)
      integer = asUnsigned(from, value);
    if (toStored) {
      if (intWidth(from) <= 16) // exact in float: one rounding, to 16 bits
        return prelude.fromFloat(*toStored) + "(float(" + integer + "))";
      return prelude.fromDouble(*toStored) + "(double(" + integer + "))";
    }
    return *valueType(to) + "(" + integer + ")";
  }
  if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
    if (toStored) {
      if (from.isF64())
        return prelude.fromDouble(*toStored) + "(" + value + ")";
      return prelude.fromFloat(*toStored) + "(float(" + asFloat + "))";
    }
    return *valueType(to) + "(" + asFloat + ")";
  }
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
    if (isBool(to))
      return std::nullopt;
    bool isUnsigned = isa<arith::FPToUIOp>(op);
    if (isInt64(to))
      return fromUnsigned(
          to, prelude.toInt64(from.isF64() ? "double" : "float", isUnsigned) +
                  "(" + asFloat + ")");
    if (!isUnsigned)
      return wrap(to, "int(" + asFloat + ")");
    return fromUnsigned(to, "uint(" + asFloat + ")");
  }
  return intToInt(from, to, value);
}

LogicalResult ArithEmitter::conversion() {
  if (auto trunc = dyn_cast<arith::TruncFOp>(op))
    if (trunc.getRoundingmode() &&
        *trunc.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return unsupported("truncf rounding modes other than to_nearest_even");
  Type from = scalarType(operandType()), to = scalarType(resultType());
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op) && isBool(to))
    return unsupported("conversion of a float to i1");
  return lanewise([&](Lanes x) { return *castLane(from, to, x[0]); });
}

LogicalResult ArithEmitter::emit() {
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto attr = cast<TypedAttr>(constant.getValue());
    auto literal = constantLiteral(e, &op, attr);
    if (!literal)
      return unsupported("constant of this type or value");
    // A vector is a variable, so that its lanes can be indexed.
    if (isa<VectorType>(attr.getType()))
      return define(*literal);
    e.bind(constant, *literal);
    return success();
  }
  if (failed(e.typeName(&op, resultType())))
    return failure();
  Prelude &prelude = e.getPrelude();
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](arith::AddFOp) { return floatBinary("+"); })
      .Case([&](arith::SubFOp) { return floatBinary("-"); })
      .Case([&](arith::MulFOp) { return floatBinary("*"); })
      .Case([&](arith::DivFOp) { return floatBinary("/"); })
      .Case([&](arith::RemFOp) {
        return floatHelper([&](llvm::StringRef t) { return prelude.fmod(t); });
      })
      .Case([&](arith::MaxNumFOp) {
        return floatHelper(
            [&](llvm::StringRef t) { return prelude.maxNum(t, true); });
      })
      .Case([&](arith::MinNumFOp) {
        return floatHelper(
            [&](llvm::StringRef t) { return prelude.maxNum(t, false); });
      })
      .Case([&](arith::MaximumFOp) {
        return floatHelper(
            [&](llvm::StringRef t) { return prelude.maximum(t, true); });
      })
      .Case([&](arith::MinimumFOp) {
        return floatHelper(
            [&](llvm::StringRef t) { return prelude.maximum(t, false); });
      })
      .Case([&](arith::NegFOp) {
        if (storedFloat(resultType())) // flipping the sign bit is exact
          return define(fmt::format("({} ^ 0x8000u)", get(0)));
        return define("-" + get(0));
      })
      .Case([&](arith::AddIOp) { return wrapping("+"); })
      .Case([&](arith::SubIOp) { return wrapping("-"); })
      .Case([&](arith::MulIOp) { return wrapping("*"); })
      .Case([&](arith::ShLIOp) { return shift(true, false); })
      .Case([&](arith::ShRSIOp) { return shift(false, false); })
      .Case([&](arith::ShRUIOp) { return shift(false, true); })
      .Case([&](arith::DivSIOp) { return signedDivision(false); })
      .Case([&](arith::RemSIOp) { return signedDivision(true); })
      .Case([&](arith::DivUIOp) { return unsignedDivision(false); })
      .Case([&](arith::RemUIOp) { return unsignedDivision(true); })
      .Case([&](arith::AndIOp) { return bitwise("&", "&&"); })
      .Case([&](arith::OrIOp) { return bitwise("|", "||"); })
      .Case([&](arith::XOrIOp) { return bitwise("^", "!="); })
      .Case([&](arith::MaxSIOp) { return minMax(true, false); })
      .Case([&](arith::MinSIOp) { return minMax(false, false); })
      .Case([&](arith::MaxUIOp) { return minMax(true, true); })
      .Case([&](arith::MinUIOp) { return minMax(false, true); })
      .Case([&](arith::FloorDivSIOp) { return divHelper(true, false); })
      .Case([&](arith::CeilDivSIOp) { return divHelper(false, false); })
      .Case([&](arith::CeilDivUIOp) { return divHelper(false, true); })
      .Case([&](arith::CmpIOp cmp) { return cmpI(cmp.getPredicate()); })
      .Case([&](arith::CmpFOp cmp) { return cmpF(cmp.getPredicate()); })
      .Case([&](arith::SelectOp) { return select(); })
      .Case<arith::SIToFPOp, arith::UIToFPOp, arith::ExtFOp, arith::TruncFOp,
            arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
            arith::IndexCastOp, arith::IndexCastUIOp, arith::FPToSIOp,
            arith::FPToUIOp, arith::BitcastOp>(
          [&](Operation *) { return conversion(); })
      .Default([&](Operation *) { return e.untranslatable(op); });
}

LogicalResult glsl::emitArithOp(ShaderEmitter &emitter, Operation &op) {
  return ArithEmitter(emitter, op).emit();
}
