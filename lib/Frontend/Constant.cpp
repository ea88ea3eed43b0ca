//===- Constant.cpp - Bind-time constants and their folding ---------------===//
//
// Exact weak arithmetic (docs/language.md 5.4: overflow and integer division
// by zero are errors) and typed arithmetic that wraps like tensor data.
//
//===----------------------------------------------------------------------===//

#include "Constant.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tilec;
using ast::BinaryOp;
using ast::UnaryOp;

static const char *kOverflow = "integer overflow in a constant expression";
static const char *kDivZero = "division by zero in a constant expression";

double Const::asDouble() const {
  if (isFloat)
    return f;
  if (type && *type == DType::U64)
    return static_cast<double>(static_cast<uint64_t>(i));
  return static_cast<double>(i);
}

DType Const::defaultType() const {
  if (type)
    return *type;
  if (isFloat)
    return DType::F32;
  return fitsIn(i, DType::I32) ? DType::I32 : DType::I64;
}

std::string tilec::floatText(double v, DType t) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  // Enough precision for the integer digits, so 20 prints as "20.0" and not
  // "2e+01"; then the least that reads back exactly.
  int first = 1;
  double mag = std::fabs(v);
  if (mag >= 1 && mag < 1e17)
    first = int(std::floor(std::log10(mag))) + 1;
  char buf[64];
  for (int prec = first; prec <= 17; ++prec) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (roundToFloat(std::strtod(buf, nullptr), t) == v)
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return s;
}

std::string Const::str() const {
  if (isFloat)
    return floatText(f, type.value_or(DType::F64));
  if (type && *type == DType::U64)
    return std::to_string(static_cast<uint64_t>(i));
  return std::to_string(i);
}

bool tilec::fitsIn(int64_t v, DType t) {
  switch (t) {
  case DType::Bool:
    return v == 0 || v == 1;
  case DType::I8:
    return v >= INT8_MIN && v <= INT8_MAX;
  case DType::I16:
    return v >= INT16_MIN && v <= INT16_MAX;
  case DType::I32:
    return v >= INT32_MIN && v <= INT32_MAX;
  case DType::I64:
    return true;
  case DType::U8:
    return v >= 0 && v <= UINT8_MAX;
  case DType::U16:
    return v >= 0 && v <= UINT16_MAX;
  case DType::U32:
    return v >= 0 && v <= int64_t(UINT32_MAX);
  case DType::U64:
    return v >= 0;
  default:
    return true; // every weak integer converts to a float type
  }
}

int64_t tilec::wrapInt(int64_t v, DType t) {
  uint64_t u = static_cast<uint64_t>(v);
  switch (t) {
  case DType::Bool:
    return v != 0;
  case DType::I8:
    return static_cast<int8_t>(u);
  case DType::I16:
    return static_cast<int16_t>(u);
  case DType::I32:
    return static_cast<int32_t>(u);
  case DType::U8:
    return static_cast<uint8_t>(u);
  case DType::U16:
    return static_cast<uint16_t>(u);
  case DType::U32:
    return static_cast<uint32_t>(u);
  default:
    return v;
  }
}

/// IEEE binary16 rounding of a float, round to nearest even, returned as the
/// float it denotes.
static float roundHalf(float x) {
  if (std::isnan(x) || std::isinf(x))
    return x;
  float ax = std::fabs(x);
  if (ax >= 65520.0f) // rounds past the largest half (65504)
    return std::copysign(INFINITY, x);
  int exp;
  std::frexp(ax, &exp); // ax = m * 2^exp, m in [0.5, 1)
  // Halves have 11 significant bits; subnormals a fixed quantum of 2^-24.
  int quantumExp = std::max(exp - 11, -24);
  double q = std::ldexp(1.0, quantumExp);
  double r = std::nearbyint(ax / q) * q; // default rounding: to nearest even
  return std::copysign(static_cast<float>(r), x);
}

/// bfloat16 rounding of a float (8 significant bits), nearest even.
static float roundBFloat(float x) {
  if (std::isnan(x))
    return x;
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  uint32_t lsb = (bits >> 16) & 1;
  bits += 0x7FFF + lsb;
  bits &= 0xFFFF0000u;
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

double tilec::roundToFloat(double v, DType t) {
  switch (t) {
  case DType::F16:
    return roundHalf(static_cast<float>(v));
  case DType::BF16:
    return roundBFloat(static_cast<float>(v));
  case DType::F32:
    return static_cast<float>(v);
  default:
    return v;
  }
}

/// Float to integer: truncation toward zero; out of range is unspecified
/// (5.4), here saturated so that folding never invokes undefined behaviour.
static int64_t truncToInt(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9.2233720368547758e18)
    return INT64_MAX;
  if (v <= -9.2233720368547758e18)
    return INT64_MIN;
  return static_cast<int64_t>(v);
}

Const tilec::convertConst(const Const &c, DType t) {
  Const out;
  out.type = t;
  out.isFloat = isFloat(t);
  if (t == DType::Bool) {
    out.i = c.isFloat ? (c.f != 0 || std::isnan(c.f)) : (c.i != 0);
  } else if (isFloat(t)) {
    out.f = roundToFloat(c.asDouble(), t);
  } else if (c.isFloat) {
    double v = c.f;
    // Large unsigned 64-bit values keep their bit pattern.
    if (t == DType::U64 && v >= 9.2233720368547758e18 &&
        v < 1.8446744073709552e19)
      out.i = static_cast<int64_t>(static_cast<uint64_t>(v));
    else
      out.i = wrapInt(truncToInt(v), t);
  } else {
    out.i = wrapInt(c.i, t);
  }
  return out;
}

typed::Scalar tilec::toScalar(const Const &c, DType t) {
  Const v = convertConst(c, t);
  typed::Scalar s;
  s.dtype = t;
  s.i = v.i;
  s.f = v.f;
  return s;
}

//===----------------------------------------------------------------------===//
// Weak folding: exact 64-bit integers, f64 floats
//===----------------------------------------------------------------------===//

static bool isComparison(BinaryOp op) {
  switch (op) {
  case BinaryOp::Lt: case BinaryOp::Gt: case BinaryOp::Le:
  case BinaryOp::Ge: case BinaryOp::Eq: case BinaryOp::Ne:
    return true;
  default:
    return false;
  }
}

template <typename T> static bool compareValues(BinaryOp op, T a, T b) {
  switch (op) {
  case BinaryOp::Lt: return a < b;
  case BinaryOp::Gt: return a > b;
  case BinaryOp::Le: return a <= b;
  case BinaryOp::Ge: return a >= b;
  case BinaryOp::Eq: return a == b;
  default: return a != b;
  }
}

static FoldResult bitwiseNeedsInts(BinaryOp op) {
  return FoldResult::fail(std::string("'") + ast::spelling(op) +
                          "' needs integer or bool operands, got a float "
                          "constant");
}

static FoldResult foldWeakInt(BinaryOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
  case BinaryOp::Add:
    if (__builtin_add_overflow(a, b, &r))
      return FoldResult::fail(kOverflow);
    break;
  case BinaryOp::Sub:
    if (__builtin_sub_overflow(a, b, &r))
      return FoldResult::fail(kOverflow);
    break;
  case BinaryOp::Mul:
    if (__builtin_mul_overflow(a, b, &r))
      return FoldResult::fail(kOverflow);
    break;
  case BinaryOp::Div:
    if (b == 0)
      return FoldResult::fail(kDivZero);
    if (a == INT64_MIN && b == -1)
      return FoldResult::fail(kOverflow);
    r = a / b;
    break;
  case BinaryOp::Shl:
    if (b < 0 || b >= 64)
      return FoldResult::fail("shift count " + std::to_string(b) +
                              " is out of range in a constant expression");
    r = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
    if ((r >> b) != a)
      return FoldResult::fail(kOverflow);
    break;
  case BinaryOp::Shr:
    if (b < 0 || b >= 64)
      return FoldResult::fail("shift count " + std::to_string(b) +
                              " is out of range in a constant expression");
    r = a >> b;
    break;
  case BinaryOp::BitAnd: r = a & b; break;
  case BinaryOp::BitOr: r = a | b; break;
  case BinaryOp::BitXor: r = a ^ b; break;
  default:
    r = compareValues(op, a, b);
  }
  return FoldResult::ok(Const::weakInt(r));
}

static FoldResult foldWeak(BinaryOp op, const Const &a, const Const &b) {
  if (!a.isFloat && !b.isFloat)
    return foldWeakInt(op, a.i, b.i);
  double x = a.asDouble(), y = b.asDouble();
  if (isComparison(op))
    return FoldResult::ok(Const::weakInt(compareValues(op, x, y)));
  switch (op) {
  case BinaryOp::Add: return FoldResult::ok(Const::weakFloat(x + y));
  case BinaryOp::Sub: return FoldResult::ok(Const::weakFloat(x - y));
  case BinaryOp::Mul: return FoldResult::ok(Const::weakFloat(x * y));
  case BinaryOp::Div: return FoldResult::ok(Const::weakFloat(x / y));
  default: return bitwiseNeedsInts(op);
  }
}

//===----------------------------------------------------------------------===//
// Typed folding: wraps in the computation type
//===----------------------------------------------------------------------===//

static FoldResult foldTypedInt(BinaryOp op, DType t, int64_t a, int64_t b) {
  bool isUnsignedT = isUnsigned(t);
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  auto typed = [&](uint64_t v) {
    Const c;
    c.type = t;
    c.i = wrapInt(static_cast<int64_t>(v), t);
    return FoldResult::ok(c);
  };
  if (isComparison(op)) {
    Const c;
    c.type = DType::Bool;
    c.i = isUnsignedT ? compareValues(op, ua, ub) : compareValues(op, a, b);
    return FoldResult::ok(c);
  }
  unsigned bits = dtypeBits(t);
  switch (op) {
  case BinaryOp::Add: return typed(ua + ub);
  case BinaryOp::Sub: return typed(ua - ub);
  case BinaryOp::Mul: return typed(ua * ub);
  case BinaryOp::Div:
    if (b == 0)
      return FoldResult::fail(kDivZero);
    if (isUnsignedT)
      return typed(ua / ub);
    if (a == INT64_MIN && b == -1)
      return typed(ua); // the most negative value, as 5.4 says
    return typed(static_cast<uint64_t>(a / b));
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    if (b < 0 || static_cast<uint64_t>(b) >= bits)
      return FoldResult::fail("shift count " + std::to_string(b) +
                              " is out of range in a constant expression");
    if (op == BinaryOp::Shl)
      return typed(ua << b);
    return typed(isUnsignedT ? (ua >> b) : static_cast<uint64_t>(a >> b));
  case BinaryOp::BitAnd: return typed(ua & ub);
  case BinaryOp::BitOr: return typed(ua | ub);
  default: return typed(ua ^ ub);
  }
}

FoldResult tilec::foldBinary(BinaryOp op, const Const &a, const Const &b) {
  if (a.isWeak() && b.isWeak())
    return foldWeak(op, a, b);
  // The caller converted both operands to one computation type.
  DType t = a.type ? *a.type : *b.type;
  Const x = convertConst(a, t), y = convertConst(b, t);
  if (!isFloat(t))
    return foldTypedInt(op, t, x.i, y.i);
  if (isComparison(op)) {
    Const c;
    c.type = DType::Bool;
    c.i = compareValues(op, x.f, y.f);
    return FoldResult::ok(c);
  }
  double r;
  switch (op) {
  case BinaryOp::Add: r = x.f + y.f; break;
  case BinaryOp::Sub: r = x.f - y.f; break;
  case BinaryOp::Mul: r = x.f * y.f; break;
  case BinaryOp::Div: r = x.f / y.f; break;
  default:
    return FoldResult::fail(std::string("'") + ast::spelling(op) +
                            "' needs integer or bool operands, got " +
                            std::string(dtypeName(t)));
  }
  Const c;
  c.type = t;
  c.isFloat = true;
  c.f = roundToFloat(r, t);
  return FoldResult::ok(c);
}

FoldResult tilec::foldUnary(UnaryOp op, const Const &a) {
  if (op == UnaryOp::Neg) {
    if (a.isWeak()) {
      if (a.isFloat)
        return FoldResult::ok(Const::weakFloat(-a.f));
      if (a.i == INT64_MIN)
        return FoldResult::fail(kOverflow);
      return FoldResult::ok(Const::weakInt(-a.i));
    }
    DType t = *a.type == DType::Bool ? DType::I32 : *a.type;
    Const x = convertConst(a, t);
    if (isFloat(t)) {
      x.f = -x.f;
      return FoldResult::ok(x);
    }
    x.i = wrapInt(static_cast<int64_t>(0 - static_cast<uint64_t>(x.i)), t);
    return FoldResult::ok(x);
  }
  if (a.isFloat)
    return FoldResult::fail(std::string("'~' needs integer or bool operands, "
                                        "got ") +
                            (a.type ? std::string(dtypeName(*a.type))
                                    : std::string("a float constant")));
  if (a.isWeak())
    return FoldResult::ok(Const::weakInt(~a.i));
  Const x = a;
  x.i = *a.type == DType::Bool ? !a.i : wrapInt(~a.i, *a.type);
  return FoldResult::ok(x);
}

static double applyMath(llvm::StringRef name, double x) {
  if (name == "exp") return std::exp(x);
  if (name == "log") return std::log(x);
  if (name == "sqrt") return std::sqrt(x);
  if (name == "sin") return std::sin(x);
  if (name == "cos") return std::cos(x);
  if (name == "tan") return std::tan(x);
  if (name == "asin") return std::asin(x);
  if (name == "acos") return std::acos(x);
  if (name == "atan") return std::atan(x);
  if (name == "sinh") return std::sinh(x);
  if (name == "cosh") return std::cosh(x);
  if (name == "tanh") return std::tanh(x);
  if (name == "asinh") return std::asinh(x);
  if (name == "acosh") return std::acosh(x);
  if (name == "atanh") return std::atanh(x);
  if (name == "floor") return std::floor(x);
  if (name == "ceil") return std::ceil(x);
  return std::round(x); // halves away from zero
}

FoldResult tilec::foldMath(llvm::StringRef name, const Const &a) {
  bool keepsIntegers = name == "floor" || name == "ceil" || name == "round";
  if (keepsIntegers && !a.isFloat)
    return FoldResult::ok(a);
  double r = applyMath(name, a.asDouble());
  if (a.isWeak())
    return FoldResult::ok(Const::weakFloat(r));
  DType t = a.isFloat ? *a.type : DType::F32;
  Const c;
  c.type = t;
  c.isFloat = true;
  c.f = roundToFloat(r, t);
  return FoldResult::ok(c);
}

FoldResult tilec::foldPow(const Const &a, const Const &b) {
  double r = std::pow(a.asDouble(), b.asDouble());
  if (a.isWeak() && b.isWeak())
    return FoldResult::ok(Const::weakFloat(r));
  DType t = a.type ? *a.type : *b.type;
  if (a.type && b.type)
    t = joinDTypes(*a.type, *b.type);
  if (!isFloat(t))
    t = DType::F32;
  Const c;
  c.type = t;
  c.isFloat = true;
  c.f = roundToFloat(r, t);
  return FoldResult::ok(c);
}
