//===- Bounds.cpp - Error bounds of the reference's values ----------------===//
//
// See Bounds.h for the model. A function's interval is mapped through its
// monotone pieces: for a monotone f, every value of f on [x - r, x + r] lies
// between f at the two ends, so the spread is the larger distance from f(x)
// to those (the ends clamped to f's domain; outside it a back end may give
// NaN, which the comparison then reports). The others (sin, cos, cosh, tan)
// use the mean value theorem on the interval.
//
//===----------------------------------------------------------------------===//

#include "Bounds.h"

#include "tilec/Support/FloatPrecision.h"

#include <limits>

using namespace tilec;
using namespace tilec::interp;
using typed::ExprOp;

double interp::operationError(double v, DType t, double ulps) {
  if (ulps == 0 || !std::isfinite(v))
    return 0;
  return ulps * ulpOf(v, t) + smallestNormal(t);
}

/// What both the reference's and the back end's own error add.
static double bothErrors(double v, DType t, double ulps) {
  return 2 * operationError(v, t, ulps);
}

double interp::addRadius(double v, double ra, double rb, DType t) {
  return ra + rb + bothErrors(v, t, ulps::kCorrectlyRounded);
}

double interp::mulRadius(double a, double b, double ra, double rb, double v,
                         DType t) {
  double spread = scaleRadius(std::abs(a), rb) + scaleRadius(std::abs(b), ra) +
                  scaleRadius(ra, rb);
  return spread + bothErrors(v, t, ulps::kCorrectlyRounded);
}

double interp::divRadius(double a, double b, double ra, double rb, double v,
                         DType t) {
  double spread = 0;
  if (ra != 0 || rb != 0) {
    double absB = std::abs(b);
    if (!(rb < absB)) // the divisor's interval holds 0
      return INFINITY;
    // |(a + e)/(b + d) - a/b| = |b e - a d| / (|b| |b + d|)
    spread = (scaleRadius(absB, ra) + scaleRadius(std::abs(a), rb)) /
             (absB * (absB - rb));
  }
  return spread + bothErrors(v, t, ulps::kDivide);
}

double interp::convertRadius(double v, double r, DType from, DType to) {
  // Both sides round the same value alike; inexact values may round apart.
  if (r == 0 || unitRoundoff(to) <= unitRoundoff(from))
    return r;
  return r + bothErrors(v, to, ulps::kCorrectlyRounded);
}

namespace {
/// The domain of a math function: f is real on [lo, hi].
struct Domain {
  double lo = -INFINITY, hi = INFINITY;
};

Domain domainOf(ExprOp op) {
  switch (op) {
  case ExprOp::Log:
  case ExprOp::Sqrt:
    return {0, INFINITY};
  case ExprOp::Asin:
  case ExprOp::Acos:
  case ExprOp::Atanh:
    return {-1, 1};
  case ExprOp::Acosh:
    return {1, INFINITY};
  default:
    return {};
  }
}

/// OpenCL 1.2's full-profile accuracy of the function, in ulps.
double accuracyOf(ExprOp op) {
  switch (op) {
  case ExprOp::Exp:
  case ExprOp::Log:
  case ExprOp::Sqrt:
    return 3;
  case ExprOp::Sin:
  case ExprOp::Cos:
  case ExprOp::Asin:
  case ExprOp::Acos:
  case ExprOp::Sinh:
  case ExprOp::Cosh:
  case ExprOp::Asinh:
  case ExprOp::Acosh:
    return 4;
  case ExprOp::Tan:
  case ExprOp::Atan:
  case ExprOp::Tanh:
  case ExprOp::Atanh:
    return 5;
  default: // floor, ceil, round
    return 0;
  }
}

double evaluate(ExprOp op, double x) {
  switch (op) {
  case ExprOp::Exp:
    return std::exp(x);
  case ExprOp::Log:
    return std::log(x);
  case ExprOp::Sqrt:
    return std::sqrt(x);
  case ExprOp::Sin:
    return std::sin(x);
  case ExprOp::Cos:
    return std::cos(x);
  case ExprOp::Tan:
    return std::tan(x);
  case ExprOp::Asin:
    return std::asin(x);
  case ExprOp::Acos:
    return std::acos(x);
  case ExprOp::Atan:
    return std::atan(x);
  case ExprOp::Sinh:
    return std::sinh(x);
  case ExprOp::Cosh:
    return std::cosh(x);
  case ExprOp::Tanh:
    return std::tanh(x);
  case ExprOp::Asinh:
    return std::asinh(x);
  case ExprOp::Acosh:
    return std::acosh(x);
  case ExprOp::Atanh:
    return std::atanh(x);
  case ExprOp::Floor:
    return std::floor(x);
  case ExprOp::Ceil:
    return std::ceil(x);
  default:
    return std::round(x);
  }
}

/// The largest distance of f(x - r) and f(x + r) from `center`.
double endSpread(ExprOp op, double lo, double hi, double center) {
  double a = std::abs(evaluate(op, lo) - center),
         b = std::abs(evaluate(op, hi) - center);
  double spread = std::max(a, b);
  return std::isnan(spread) ? INFINITY : spread;
}

/// How far f may move over [x - r, x + r] (r > 0).
double spreadOf(ExprOp op, double x, double r) {
  double center = evaluate(op, x);
  switch (op) {
  case ExprOp::Sin: // |f'| = |cos| <= min(1, |cos x| + r)
    return std::min(2.0, r * std::min(1.0, std::abs(std::cos(x)) + r));
  case ExprOp::Cos:
    return std::min(2.0, r * std::min(1.0, std::abs(std::sin(x)) + r));
  case ExprOp::Cosh: // |f'| = |sinh| grows with |x|
    return r * std::sinh(std::abs(x) + r);
  case ExprOp::Tan: {
    // Monotone between poles; a pole inside makes it unbounded.
    double lo = x - r, hi = x + r;
    if (r >= M_PI / 2 || std::cos(lo) * std::cos(hi) <= 0)
      return INFINITY;
    return endSpread(op, lo, hi, center);
  }
  default: {
    Domain d = domainOf(op);
    double lo = std::max(x - r, d.lo), hi = std::min(x + r, d.hi);
    return endSpread(op, lo, hi, center);
  }
  }
}
} // namespace

double interp::mathRadius(ExprOp op, double x, double rx, double v, DType t) {
  double spread = rx == 0 ? 0 : spreadOf(op, x, rx);
  return spread + bothErrors(v, t, accuracyOf(op));
}

double interp::powRadius(double x, double rx, double y, double ry, double v,
                         DType t) {
  double own = bothErrors(v, t, ulps::kPow);
  if (rx == 0 && ry == 0)
    return own;
  double center = std::pow(x, y);
  // Monotone in x and in y separately where x > 0, and in x for an exact
  // integer y away from 0: the extremes lie at the corners of the box.
  bool integerPower = ry == 0 && y == std::floor(y);
  bool cornersBound =
      x - rx > 0 || (integerPower && (x + rx < 0 || x - rx > 0));
  if (cornersBound) {
    double spread = 0;
    for (double xs : {x - rx, x + rx})
      for (double ys : {y - ry, y + ry})
        spread = std::max(spread, std::abs(std::pow(xs, ys) - center));
    return (std::isnan(spread) ? INFINITY : spread) + own;
  }
  if (integerPower && y >= 0) // |x^n| <= (|x| + r)^n on an interval holding 0
    return std::pow(std::abs(x) + rx, y) + std::abs(center) + own;
  return INFINITY; // 0^negative, or a fractional power of a negative number
}

bool interp::comparisonUncertain(double a, double b, double ra, double rb) {
  double r = ra + rb;
  if (r == 0)
    return false;
  return !(std::abs(a - b) > r);
}

double SumBound::radius(double v, DType t) const {
  if (count == 0)
    return 0;
  double additions = double(count - 1);
  // A back end: n - 1 roundings in t of partial sums no larger than the
  // terms' absolute sum (widened by their radii), each maybe flushed.
  double backEnd = additions * (unitRoundoff(t) * (absSum + radiusSum) +
                                smallestNormal(t));
  // The reference: n - 1 additions in f64, then one rounding to t.
  double reference = additions * unitRoundoff(DType::F64) * absSum +
                     operationError(v, t, ulps::kCorrectlyRounded);
  return radiusSum + backEnd + reference;
}

double ProductBound::radius(double v, DType t) const {
  if (count == 0)
    return 0;
  double multiplications = double(count - 1);
  double spread = widestProduct - absProduct;
  double backEnd = multiplications * (unitRoundoff(t) * widestProduct +
                                      smallestNormal(t));
  double reference = multiplications * unitRoundoff(DType::F64) * absProduct +
                     operationError(v, t, ulps::kCorrectlyRounded);
  return spread + backEnd + reference;
}
