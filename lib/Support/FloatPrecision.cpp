//===- FloatPrecision.cpp - Unit roundoff and ulps of the float types -----===//

#include "tilec/Support/FloatPrecision.h"

#include <cmath>

using namespace tilec;

namespace {
/// Significand bits (with the hidden one) and the least normal exponent.
struct Format {
  int precision;
  int minExponent;
};
Format formatOf(DType t) {
  switch (t) {
  case DType::F16:
    return {11, -14};
  case DType::BF16:
    return {8, -126};
  case DType::F64:
    return {53, -1022};
  default:
    return {24, -126};
  }
}
} // namespace

double tilec::unitRoundoff(DType t) {
  return std::ldexp(1.0, -formatOf(t).precision);
}

double tilec::smallestNormal(DType t) {
  return std::ldexp(1.0, formatOf(t).minExponent);
}

double tilec::ulpOf(double v, DType t) {
  if (!std::isfinite(v))
    return INFINITY;
  Format f = formatOf(t);
  int exponent = f.minExponent;
  if (std::fabs(v) >= smallestNormal(t)) {
    int binary;
    std::frexp(v, &binary); // |v| = m * 2^binary, m in [0.5, 1)
    exponent = binary - 1;
  }
  return std::ldexp(1.0, exponent - f.precision + 1);
}
