//===- EmitMath.cpp - math ops as GLSL built-ins --------------------------===//
//
// Part of the GLSL target. What reaches here is what GLSL has built in
// (the gpu level's software math has replaced exp, log, sin, ... where
// GLSL's versions are too loose, tilec-gpu-expand-software-math): most ops
// are the built-in of the same or a close name, on float, double and their
// vectors; bf16 and f16 go through float and are rounded back.
//
//===----------------------------------------------------------------------===//

#include "GLSLTypes.h"
#include "ShaderEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

using namespace mlir;
using namespace tilec;
using namespace tilec::glsl;

/// The GLSL built-in computing float math op `name` ("math.exp"), or "".
static llvm::StringRef floatBuiltin(llvm::StringRef name) {
  static const std::pair<const char *, const char *> renamed[] = {
      {"absf", "abs"},        {"powf", "pow"},   {"roundeven", "roundEven"},
      {"rsqrt", "inversesqrt"}, {"atan2", "atan"}};
  static const char *const sameName[] = {
      "acos", "acosh", "asin", "asinh", "atan",  "atanh", "ceil",
      "cos",  "cosh",  "exp",  "exp2",  "floor", "fma",   "log",
      "log2", "sin",   "sinh", "sqrt",  "tan",   "tanh",  "trunc",
      "isnan", "isinf"};
  llvm::StringRef op = name.drop_front(llvm::StringRef("math.").size());
  for (auto [from, to] : renamed)
    if (op == from)
      return to;
  for (const char *candidate : sameName)
    if (op == candidate)
      return op;
  return "";
}

/// Integer math on 32 bits or less: abs, leading and trailing zeros,
/// population count (GLSL's bit functions take 32-bit operands).
static LogicalResult emitIntegerMath(ShaderEmitter &e, Operation &op) {
  Value x = op.getOperand(0);
  Type type = x.getType();
  if (isBool(type) || isa<VectorType>(type) || isInt64(type))
    return op.emitError("integer math on i1, i64 or vectors cannot be "
                        "translated to GLSL");
  unsigned width = intWidth(type);
  std::string value = e.get(x);
  std::string bits = width < 32 ? fmt::format("(uint({}) & 0x{:X}u)", value,
                                              (1u << width) - 1)
                                : "uint(" + value + ")";
  std::string expr;
  if (isa<math::AbsIOp>(op)) // abs of the most negative wraps to itself
    expr = width < 32 ? fmt::format("bitfieldExtract(abs({}), 0, {})", value,
                                    width)
                      : "abs(" + value + ")";
  else if (isa<math::CountLeadingZerosOp>(op)) // findMSB(0) is -1
    expr = fmt::format("{} - 1 - findMSB({})", width, bits);
  else if (isa<math::CtPopOp>(op))
    expr = "bitCount(" + bits + ")";
  else // cttz: findLSB(0) is -1, and cttz(0) the width
    expr = fmt::format("{0} == 0u ? {1} : findLSB({0})", bits, width);
  return e.define(&op, op.getResult(0), expr);
}

/// math.isfinite and friends, which GLSL spells with isnan and isinf.
static std::optional<std::string> classify(Operation &op,
                                           const std::string &x) {
  if (isa<math::IsFiniteOp>(op))
    return fmt::format("!isnan({0}) && !isinf({0})", x);
  return std::nullopt;
}

LogicalResult glsl::emitMathOp(ShaderEmitter &e, Operation &op) {
  if (op.getNumResults() != 1 ||
      failed(e.typeName(&op, op.getResult(0).getType())))
    return e.untranslatable(op);
  if (isa<math::AbsIOp, math::CountLeadingZerosOp,
          math::CountTrailingZerosOp, math::CtPopOp>(op))
    return emitIntegerMath(e, op);
  Value result = op.getResult(0);
  Type type = result.getType();
  std::vector<std::string> args;
  for (Value operand : op.getOperands())
    args.push_back(e.getAsFloat(operand));
  if (std::optional<std::string> test = classify(op, args[0]))
    return e.define(&op, result, *test);
  if (isa<math::AbsFOp>(op) && storedFloat(type)) // clearing the sign: exact
    return e.define(&op, result, fmt::format("({} & 0x7FFFu)", e.get(op.getOperand(0))));
  std::string function;
  std::string computeType = scalarType(type).isF64() ? "double" : "float";
  if (isa<math::CopySignOp>(op)) {
    if (isa<VectorType>(type))
      return op.emitError("vector math.copysign cannot be translated to GLSL");
    function = e.getPrelude().copySign(computeType);
  } else if (isa<math::RoundOp>(op)) {
    if (isa<VectorType>(type))
      return op.emitError("vector math.round cannot be translated to GLSL");
    function = e.getPrelude().roundHalfAway(computeType);
  } else {
    function = floatBuiltin(op.getName().getStringRef()).str();
  }
  if (function.empty())
    return e.untranslatable(op);
  if (!isLaneArray(type)) {
    std::string call = function + "(" + llvm::join(args, ", ") + ")";
    return e.define(&op, result, e.fromFloat(type, call));
  }
  // An array of 64-bit lanes: the function of each lane.
  std::vector<std::string> lanes;
  for (int64_t i = 0; i < cast<VectorType>(type).getNumElements(); ++i) {
    std::vector<std::string> laneArgs;
    for (const std::string &arg : args)
      laneArgs.push_back(fmt::format("{}[{}]", arg, i));
    lanes.push_back(function + "(" + llvm::join(laneArgs, ", ") + ")");
  }
  return e.define(&op, result,
                  *e.typeName(&op, type) + "(" + llvm::join(lanes, ", ") +
                      ")");
}
