//===- EmitMath.cpp - math ops as OpenCL C builtins -----------------------===//
//
// Part of the OpenCL target. Most math ops are the OpenCL builtin of the
// same name, defined for float, double and their vectors; bf16 and f16 go
// through float and are rounded back. Scalar float tanh saturates exactly.
//
//===----------------------------------------------------------------------===//

#include "CLTypes.h"
#include "KernelEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

using namespace mlir;
using namespace tilec;
using namespace tilec::opencl;

/// The OpenCL builtin computing float math op `name` ("math.exp"), or "".
static llvm::StringRef floatBuiltin(llvm::StringRef name) {
  if (name == "math.absf")
    return "fabs";
  if (name == "math.powf")
    return "pow";
  if (name == "math.roundeven")
    return "rint";
  // math.round rounds halfway cases away from zero, as OpenCL's round does.
  static const char *const sameName[] = {
      "acos",  "acosh", "asin",  "asinh",    "atan",     "atan2", "atanh",
      "cbrt",  "ceil",  "copysign", "cos",   "cosh",     "erf",   "erfc",
      "exp",   "exp2",  "expm1", "floor",    "fma",      "log",   "log10",
      "log1p", "log2",  "round", "rsqrt",    "sin",      "sinh",  "sqrt",
      "tan",   "tanh",  "trunc", "isnan",    "isinf",    "isfinite",
      "isnormal"};
  llvm::StringRef op = name.drop_front(llvm::StringRef("math.").size());
  for (const char *candidate : sameName)
    if (op == candidate)
      return op;
  return "";
}

/// Integer math: abs, leading and trailing zeros, population count.
static LogicalResult emitIntegerMath(KernelEmitter &e, Operation &op) {
  Value x = op.getOperand(0);
  Type type = x.getType();
  if (isBool(type))
    return op.emitError("integer math on i1 cannot be translated to OpenCL C");
  std::string value = e.get(x), signedType = *clValueType(type),
              unsignedType = clUnsignedType(type);
  std::string expr;
  if (isa<math::AbsIOp>(op)) // abs returns the unsigned type
    expr = fmt::format("({})abs({})", signedType, value);
  else if (isa<math::CountLeadingZerosOp>(op))
    expr = fmt::format("clz({})", value);
  else if (isa<math::CtPopOp>(op))
    expr = fmt::format("popcount({})", value);
  else // cttz: the ones below the lowest set bit (all of them for zero)
    expr = fmt::format("({0})popcount(~({1}){2} & (({1}){2} - 1))", signedType,
                       unsignedType, value);
  return e.define(&op, op.getResult(0), expr);
}

LogicalResult opencl::emitMathOp(KernelEmitter &e, Operation &op) {
  if (op.getNumResults() != 1 || failed(e.typeName(&op, op.getResult(0).getType())))
    return op.emitError("operation '")
           << op.getName() << "' cannot be translated to OpenCL C";
  if (isa<math::AbsIOp, math::CountLeadingZerosOp,
          math::CountTrailingZerosOp, math::CtPopOp>(op))
    return emitIntegerMath(e, op);
  llvm::StringRef builtin = floatBuiltin(op.getName().getStringRef());
  if (builtin.empty())
    return op.emitError("operation '")
           << op.getName() << "' cannot be translated to OpenCL C";
  std::vector<std::string> args;
  for (Value operand : op.getOperands())
    args.push_back(e.getAsFloat(operand));
  Value result = op.getResult(0);
  // Float tanh saturates exactly (see Prelude::floatTanh); double's 53 bits
  // make a builtin's last-ulp error harmless downstream.
  std::string function = builtin.str();
  if (isa<math::TanhOp>(op) && !isa<VectorType>(result.getType()) &&
      !result.getType().isF64())
    function = e.getPrelude().floatTanh();
  std::string call = function + "(" + llvm::join(args, ", ") + ")";
  return e.define(&op, result, e.fromFloat(result.getType(), call));
}
