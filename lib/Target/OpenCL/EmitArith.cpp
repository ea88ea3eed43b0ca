//===- EmitArith.cpp - arith ops as OpenCL C ------------------------------===//
//
// Part of the OpenCL target. MLIR's integers are signless and wrap, C's
// signed arithmetic must not overflow: addition, subtraction, multiplication
// and left shifts therefore compute on the unsigned type of the same width
// and convert back (index arithmetic, which addresses buffers, stays plain).
// Division and remainder by zero are undefined in both languages, so `/`
// and `%` match arith.divsi and remsi exactly. bf16 and f16 compute in
// float and round once per operation: float's 24 bits are more than twice
// their 8 or 11 plus two, so +, -, *, / and sqrt round as they would
// directly. i1 min/max are logical and/or (as a signed i1, true is -1).
//
//===----------------------------------------------------------------------===//

#include "CLTypes.h"
#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/TypeSwitch.h"

#include <fmt/format.h>

using namespace mlir;
using namespace tilec;
using namespace tilec::opencl;

namespace {

/// Translates one arith op; `e` is the kernel emitter.
class ArithEmitter {
public:
  ArithEmitter(KernelEmitter &e, Operation &op) : e(e), op(op) {}
  LogicalResult emit();

private:
  Value operand(unsigned i) { return op.getOperand(i); }
  std::string get(unsigned i) { return e.get(operand(i)); }
  Type resultType() { return op.getResult(0).getType(); }
  LogicalResult define(const std::string &expr) {
    return e.define(&op, op.getResult(0), expr);
  }
  LogicalResult unsupported(llvm::StringRef why) {
    return op.emitError("cannot be translated to OpenCL C: ") << why;
  }

  /// `expr` (of integer type `type`) viewed as the unsigned type of the
  /// same width, and back.
  std::string toUnsigned(Type type, const std::string &expr);
  std::string toSigned(Type type, const std::string &expr);

  LogicalResult floatBinary(llvm::StringRef infix, llvm::StringRef function);
  LogicalResult wrappingBinary(llvm::StringRef infix);
  LogicalResult unsignedBinary(llvm::StringRef infix, llvm::StringRef function);
  LogicalResult intBinary(llvm::StringRef infix, llvm::StringRef function);
  /// Division, remainder and right shift (signed or not) and unsigned min
  /// and max of i1.
  LogicalResult boolBinary(llvm::StringRef infix, llvm::StringRef function);
  LogicalResult maximumF(bool isMax);
  LogicalResult negF();
  LogicalResult cmpI(arith::CmpIPredicate predicate);
  LogicalResult cmpF(arith::CmpFPredicate predicate);
  LogicalResult divHelper(bool isFloor, bool isUnsigned);
  LogicalResult otherCast();
  LogicalResult intToFloat(bool isUnsigned);
  LogicalResult floatToFloat();

  KernelEmitter &e;
  Operation &op;
};

} // namespace

std::string ArithEmitter::toUnsigned(Type type, const std::string &expr) {
  std::string unsignedType = clUnsignedType(type);
  if (isa<VectorType>(type))
    return "as_" + unsignedType + "(" + expr + ")";
  return "(" + unsignedType + ")" + expr;
}

std::string ArithEmitter::toSigned(Type type, const std::string &expr) {
  std::string signedType = *clValueType(type);
  if (isa<VectorType>(type))
    return "as_" + signedType + "(" + expr + ")";
  return "(" + signedType + ")(" + expr + ")";
}

LogicalResult ArithEmitter::floatBinary(llvm::StringRef infix,
                                        llvm::StringRef function) {
  std::string a = e.getAsFloat(operand(0)), b = e.getAsFloat(operand(1));
  std::string expr = function.empty()
                         ? fmt::format("{} {} {}", a, infix.str(), b)
                         : fmt::format("{}({}, {})", function.str(), a, b);
  return define(e.fromFloat(resultType(), expr));
}

LogicalResult ArithEmitter::wrappingBinary(llvm::StringRef infix) {
  Type type = resultType();
  std::string a = get(0), b = get(1);
  if (isBool(type)) {
    // i1 wraps modulo 2: + and - are xor, * is and.
    return define(fmt::format("{} {} {}", a, infix == "*" ? "&" : "^", b));
  }
  if (type.isIndex() && infix != "<<")
    return define(fmt::format("{} {} {}", a, infix.str(), b));
  if (!isa<VectorType>(type) && intWidth(type) <= 32) {
    // i8 and i16 promote to int; uint keeps the low bits of every result.
    return define(fmt::format("({})((uint){} {} (uint){})", *clValueType(type),
                              a, infix.str(), b));
  }
  return define(toSigned(type, fmt::format("{} {} {}", toUnsigned(type, a),
                                           infix.str(), toUnsigned(type, b))));
}

LogicalResult ArithEmitter::unsignedBinary(llvm::StringRef infix,
                                           llvm::StringRef function) {
  Type type = resultType();
  if (isBool(type))
    return boolBinary(infix, function);
  std::string a = toUnsigned(type, get(0)), b = toUnsigned(type, get(1));
  std::string expr = function.empty()
                         ? fmt::format("{} {} {}", a, infix.str(), b)
                         : fmt::format("{}({}, {})", function.str(), a, b);
  return define(toSigned(type, expr));
}

LogicalResult ArithEmitter::boolBinary(llvm::StringRef infix,
                                       llvm::StringRef function) {
  std::string a = get(0), b = get(1);
  if (function == "max")
    return define(fmt::format("{} || {}", a, b));
  if (function == "min")
    return define(fmt::format("{} && {}", a, b));
  // Signed or unsigned, x / 1 is x and x % 1 is 0, and x >> 0 is x. The
  // rest is undefined (division by 0, -1 / -1 overflowing, a shift by 1 as
  // wide as i1): any value will do, so these give x.
  if (infix == "/")
    return define(a);
  if (infix == "%")
    return define(fmt::format("{} && !{}", a, b));
  if (infix == ">>")
    return define(a);
  return unsupported("this operation on i1");
}

LogicalResult ArithEmitter::intBinary(llvm::StringRef infix,
                                      llvm::StringRef function) {
  if (isBool(resultType()) && infix.empty()) // signed: max is and, min or
    return define(fmt::format("{} {} {}", get(0),
                              function == "max" ? "&&" : "||", get(1)));
  if (isBool(resultType()) && (infix == "/" || infix == "%" || infix == ">>"))
    return boolBinary(infix, function);
  std::string a = get(0), b = get(1);
  return define(function.empty()
                    ? fmt::format("{} {} {}", a, infix.str(), b)
                    : fmt::format("{}({}, {})", function.str(), a, b));
}

LogicalResult ArithEmitter::maximumF(bool isMax) {
  Type type = resultType();
  if (isa<VectorType>(type))
    return unsupported("vector maximumf/minimumf");
  std::string computeType =
      storedFloat(type) ? "float" : *clValueType(type);
  (void)e.typeName(&op, type); // notes double
  std::string helper = e.getPrelude().maximum(computeType, isMax);
  return define(e.fromFloat(
      type, fmt::format("{}({}, {})", helper, e.getAsFloat(operand(0)),
                        e.getAsFloat(operand(1)))));
}

LogicalResult ArithEmitter::negF() {
  if (storedFloat(resultType())) // flipping the sign bit is exact
    return define(fmt::format("(ushort)({} ^ 0x8000)", get(0)));
  return define("-" + get(0));
}

LogicalResult ArithEmitter::cmpI(arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  Type type = operand(0).getType();
  std::string a = get(0), b = get(1);
  bool isSignedPredicate = predicate == P::slt || predicate == P::sle ||
                           predicate == P::sgt || predicate == P::sge;
  bool isUnsignedPredicate = predicate == P::ult || predicate == P::ule ||
                             predicate == P::ugt || predicate == P::uge;
  if (isBool(type) && isSignedPredicate)
    std::swap(a, b); // as a signed i1, true is -1
  else if (isUnsignedPredicate && !isBool(type))
    a = toUnsigned(type, a), b = toUnsigned(type, b);
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
  return define(fmt::format("{} {} {}", a, infix, b));
}

LogicalResult ArithEmitter::cmpF(arith::CmpFPredicate predicate) {
  using P = arith::CmpFPredicate;
  std::string a = e.getAsFloat(operand(0)), b = e.getAsFloat(operand(1));
  // C's relational operators are the ordered predicates, `!=` is une; the
  // other unordered ones negate an ordered one.
  auto infix = [&](const char *op) { return fmt::format("{} {} {}", a, op, b); };
  auto call = [&](const char *fn) { return fmt::format("{}({}, {})", fn, a, b); };
  std::string expr;
  switch (predicate) {
  case P::AlwaysFalse:
    expr = "false";
    break;
  case P::AlwaysTrue:
    expr = "true";
    break;
  case P::OEQ:
    expr = infix("==");
    break;
  case P::OGT:
    expr = infix(">");
    break;
  case P::OGE:
    expr = infix(">=");
    break;
  case P::OLT:
    expr = infix("<");
    break;
  case P::OLE:
    expr = infix("<=");
    break;
  case P::ONE:
    expr = call("islessgreater");
    break;
  case P::ORD:
    expr = call("isordered");
    break;
  case P::UEQ:
    expr = "!" + call("islessgreater");
    break;
  case P::UGT:
    expr = "!(" + infix("<=") + ")";
    break;
  case P::UGE:
    expr = "!(" + infix("<") + ")";
    break;
  case P::ULT:
    expr = "!(" + infix(">=") + ")";
    break;
  case P::ULE:
    expr = "!(" + infix(">") + ")";
    break;
  case P::UNE:
    expr = infix("!=");
    break;
  case P::UNO:
    expr = call("isunordered");
    break;
  }
  return define(expr);
}

LogicalResult ArithEmitter::divHelper(bool isFloor, bool isUnsigned) {
  Type type = resultType();
  if (isa<VectorType>(type) || isBool(type))
    return unsupported("floor or ceiling division of vectors or i1");
  Prelude &prelude = e.getPrelude();
  if (!isUnsigned) {
    std::string type = *clValueType(resultType());
    std::string helper =
        isFloor ? prelude.floorDiv(type) : prelude.ceilDiv(type, false);
    return define(fmt::format("{}({}, {})", helper, get(0), get(1)));
  }
  std::string helper = prelude.ceilDiv(clUnsignedType(type), true);
  return define(toSigned(type, fmt::format("{}({}, {})", helper,
                                           toUnsigned(type, get(0)),
                                           toUnsigned(type, get(1)))));
}

LogicalResult ArithEmitter::intToFloat(bool isUnsigned) {
  Type from = operand(0).getType(), to = resultType();
  if (isa<VectorType>(to))
    return unsupported("vector conversions");
  std::string value = get(0);
  if (isBool(from))
    value = isUnsigned ? "(int)" + value : "-(int)" + value;
  else if (isUnsigned)
    value = toUnsigned(from, value);
  std::optional<StoredFloat> format = storedFloat(to);
  if (!format)
    return define("(" + *clValueType(to) + ")" + value);
  Prelude &prelude = e.getPrelude();
  if (intWidth(from) <= 16) // exact in float: one rounding, to 16 bits
    return define(prelude.fromFloat(*format) + "((float)" + value + ")");
  return define(fmt::format("{}(({}){})", prelude.fromLong(*format, isUnsigned),
                            isUnsigned ? "ulong" : "long", value));
}

LogicalResult ArithEmitter::floatToFloat() {
  Type from = operand(0).getType(), to = resultType();
  if (isa<VectorType>(to))
    return unsupported("vector conversions");
  if (auto trunc = dyn_cast<arith::TruncFOp>(op))
    if (trunc.getRoundingmode() &&
        *trunc.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return unsupported("truncf rounding modes other than to_nearest_even");
  Prelude &prelude = e.getPrelude();
  std::string value = e.getAsFloat(operand(0));
  if (std::optional<StoredFloat> format = storedFloat(to)) {
    if (from.isF64())
      return define(prelude.fromDouble(*format) + "(" + value + ")");
    // f32, f16 and bf16 are exact in float: one rounding, to 16 bits.
    return define(prelude.fromFloat(*format) + "((float)" + value + ")");
  }
  if (to.isF32() && storedFloat(from))
    return define(value);
  return define("(" + *clValueType(to) + ")" + value);
}

LogicalResult ArithEmitter::otherCast() {
  Type from = operand(0).getType(), to = resultType();
  if (isa<VectorType>(to))
    return unsupported("vector conversions");
  std::string value = get(0), toType = *clValueType(to);
  if (isa<arith::BitcastOp>(op))
    return define("as_" + toType + "(" + value + ")");
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
    if (isBool(to))
      return unsupported("conversion of a float to i1");
    value = e.getAsFloat(operand(0));
    if (isa<arith::FPToUIOp>(op))
      return define(fmt::format("({})({}){}", toType, clUnsignedType(to), value));
    return define("(" + toType + ")" + value);
  }
  // Integer to integer: truncation keeps the low bits; a widening
  // conversion extends the sign, or zeros through the unsigned type.
  if (isBool(to))
    return define(fmt::format("({} & 1) != 0", value));
  bool zeroExtend =
      isa<arith::ExtUIOp>(op) ||
      (isa<arith::IndexCastUIOp>(op) && intWidth(from) < intWidth(to));
  if (isBool(from))
    return define(zeroExtend ? "(" + toType + ")" + value
                             : "-(" + toType + ")" + value);
  if (zeroExtend)
    return define(fmt::format("({}){}", toType, toUnsigned(from, value)));
  return define("(" + toType + ")" + value);
}

LogicalResult ArithEmitter::emit() {
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto literal = constantLiteral(e, &op, cast<TypedAttr>(constant.getValue()));
    if (!literal)
      return unsupported("constant of this type");
    e.bind(constant, *literal);
    return success();
  }
  if (failed(e.typeName(&op, resultType())))
    return failure();
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](arith::AddFOp) { return floatBinary("+", ""); })
      .Case([&](arith::SubFOp) { return floatBinary("-", ""); })
      .Case([&](arith::MulFOp) { return floatBinary("*", ""); })
      .Case([&](arith::DivFOp) { return floatBinary("/", ""); })
      .Case([&](arith::RemFOp) { return floatBinary("", "fmod"); })
      .Case([&](arith::MaxNumFOp) { return floatBinary("", "fmax"); })
      .Case([&](arith::MinNumFOp) { return floatBinary("", "fmin"); })
      .Case([&](arith::MaximumFOp) { return maximumF(true); })
      .Case([&](arith::MinimumFOp) { return maximumF(false); })
      .Case([&](arith::NegFOp) { return negF(); })
      .Case([&](arith::AddIOp) { return wrappingBinary("+"); })
      .Case([&](arith::SubIOp) { return wrappingBinary("-"); })
      .Case([&](arith::MulIOp) { return wrappingBinary("*"); })
      .Case([&](arith::ShLIOp) { return wrappingBinary("<<"); })
      .Case([&](arith::DivSIOp) { return intBinary("/", ""); })
      .Case([&](arith::RemSIOp) { return intBinary("%", ""); })
      .Case([&](arith::ShRSIOp) { return intBinary(">>", ""); })
      .Case([&](arith::AndIOp) { return intBinary("&", ""); })
      .Case([&](arith::OrIOp) { return intBinary("|", ""); })
      .Case([&](arith::XOrIOp) { return intBinary("^", ""); })
      .Case([&](arith::MaxSIOp) { return intBinary("", "max"); })
      .Case([&](arith::MinSIOp) { return intBinary("", "min"); })
      .Case([&](arith::DivUIOp) { return unsignedBinary("/", ""); })
      .Case([&](arith::RemUIOp) { return unsignedBinary("%", ""); })
      .Case([&](arith::ShRUIOp) { return unsignedBinary(">>", ""); })
      .Case([&](arith::MaxUIOp) { return unsignedBinary("", "max"); })
      .Case([&](arith::MinUIOp) { return unsignedBinary("", "min"); })
      .Case([&](arith::FloorDivSIOp) { return divHelper(true, false); })
      .Case([&](arith::CeilDivSIOp) { return divHelper(false, false); })
      .Case([&](arith::CeilDivUIOp) { return divHelper(false, true); })
      .Case([&](arith::CmpIOp cmp) { return cmpI(cmp.getPredicate()); })
      .Case([&](arith::CmpFOp cmp) { return cmpF(cmp.getPredicate()); })
      .Case([&](arith::SelectOp) {
        return define(fmt::format("{} ? {} : {}", get(0), get(1), get(2)));
      })
      .Case([&](arith::SIToFPOp) { return intToFloat(false); })
      .Case([&](arith::UIToFPOp) { return intToFloat(true); })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](Operation *) { return floatToFloat(); })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
            arith::IndexCastOp, arith::IndexCastUIOp, arith::FPToSIOp,
            arith::FPToUIOp, arith::BitcastOp>(
          [&](Operation *) { return otherCast(); })
      .Default([&](Operation *) {
        return op.emitError("operation '")
               << op.getName() << "' cannot be translated to OpenCL C";
      });
}

LogicalResult opencl::emitArithOp(KernelEmitter &emitter, Operation &op) {
  return ArithEmitter(emitter, op).emit();
}
