//===- Bounds.cpp - Error bounds of the reference's values ----------------===//
//
// See Bounds.h for the model. A function's interval (the worst-case one, or
// the likely one kLikelyFactor scales wide) is mapped through its
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

CorrectRounding::CorrectRounding(DType t)
    : u(unitRoundoff(t)), normal(smallestNormal(t)) {}

/// `e` plus the own error of an operation accurate to `ulps` at value v.
static ErrorBound withOwnError(ErrorBound e, double v, DType t, double ulps) {
  return plusOwnError(e, operationError(v, t, ulps));
}

ErrorBound interp::addBound(double v, ErrorBound a, ErrorBound b, DType t) {
  return withOwnError({a.worst + b.worst, rootSumSquare(a.likely, b.likely)}, v,
                      t, ulps::kCorrectlyRounded);
}

ErrorBound interp::mulBound(double a, double b, ErrorBound ea, ErrorBound eb,
                            double v, DType t) {
  return withOwnError(mulSpread(a, b, ea, eb), v, t, ulps::kCorrectlyRounded);
}

/// |(a + e)/(b + d) - a/b| <= (|b| e + |a| d) / (|b| (|b| - d)) for |d| < |b|.
static double quotientSpread(double a, double b, double ea, double eb) {
  if (ea == 0 && eb == 0)
    return 0;
  double absB = std::abs(b);
  if (!(eb < absB)) // the divisor's interval holds 0
    return INFINITY;
  return (scaleRadius(absB, ea) + scaleRadius(std::abs(a), eb)) /
         (absB * (absB - eb));
}

ErrorBound interp::divBound(double a, double b, ErrorBound ea, ErrorBound eb,
                            double v, DType t) {
  ErrorBound spread;
  spread.worst = quotientSpread(a, b, ea.worst, eb.worst);
  // The likely scale maps the likely interval the same way.
  spread.likely = quotientSpread(a, b, kLikelyFactor * ea.likely,
                                 kLikelyFactor * eb.likely) /
                  kLikelyFactor;
  return withOwnError(spread, v, t, ulps::kDivide);
}

ErrorBound interp::convertBound(double v, ErrorBound e, DType from, DType to) {
  // Both sides round the same value alike; inexact values may round apart.
  if (e.exact() || unitRoundoff(to) <= unitRoundoff(from))
    return e;
  return withOwnError(e, v, to, ulps::kCorrectlyRounded);
}

bool interp::comparisonUncertain(double a, double b, ErrorBound ea,
                                 ErrorBound eb) {
  if (ea.exact() && eb.exact())
    return false;
  double reach = std::min(ea.worst + eb.worst,
                          kLikelyFactor * rootSumSquare(ea.likely, eb.likely));
  return !(std::abs(a - b) > reach);
}

ErrorBound interp::eitherBound(double a, double b, ErrorBound ea,
                               ErrorBound eb) {
  double spread = a == b ? 0 : std::abs(a - b);
  ErrorBound wider = widerBound(ea, eb);
  // Either branch may come out: the likely interval must reach the other.
  return {wider.worst + spread, wider.likely + spread / kLikelyFactor};
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

/// The largest distance of f(x - r) and f(x + r) from `center`.
double endSpread(ExprOp op, double lo, double hi, double center) {
  double a = std::abs(mathFunction(op, lo) - center),
         b = std::abs(mathFunction(op, hi) - center);
  double spread = std::max(a, b);
  return std::isnan(spread) ? INFINITY : spread;
}

/// How far f may move over [x - r, x + r] (r > 0).
double spreadOf(ExprOp op, double x, double r) {
  double center = mathFunction(op, x);
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

/// The likely scale of f over an interval: the spread of f over the likely
/// interval (kLikelyFactor scales wide), scaled back.
template <typename Spread>
static double likelySpread(double likely, Spread spread) {
  if (likely == 0)
    return 0;
  return spread(kLikelyFactor * likely) / kLikelyFactor;
}

ErrorBound interp::mathBound(ExprOp op, double x, ErrorBound ex, double v,
                             DType t) {
  ErrorBound spread;
  spread.worst = ex.worst == 0 ? 0 : spreadOf(op, x, ex.worst);
  spread.likely =
      likelySpread(ex.likely, [&](double r) { return spreadOf(op, x, r); });
  return withOwnError(spread, v, t, accuracyOf(op));
}

/// How far pow(x, y) may move over [x - rx, x + rx] x [y - ry, y + ry].
static double powSpread(double x, double rx, double y, double ry) {
  if (rx == 0 && ry == 0)
    return 0;
  double center = std::pow(x, y);
  // Monotone in x and in y separately where x > 0, and in x for an exact
  // integer y on an interval without 0: the extremes lie at the corners.
  bool integerPower = ry == 0 && y == std::floor(y);
  if (x - rx > 0 || (integerPower && (x + rx < 0 || x - rx > 0))) {
    double spread = 0;
    for (double xs : {x - rx, x + rx})
      for (double ys : {y - ry, y + ry})
        spread = std::max(spread, std::abs(std::pow(xs, ys) - center));
    return std::isnan(spread) ? INFINITY : spread;
  }
  if (integerPower && y >= 0) // |x^n| <= (|x| + r)^n on an interval holding 0
    return std::pow(std::abs(x) + rx, y) + std::abs(center);
  return INFINITY; // 0^negative, or a fractional power of a negative number
}

ErrorBound interp::powBound(double x, ErrorBound ex, double y, ErrorBound ey,
                            double v, DType t) {
  ErrorBound spread;
  spread.worst = powSpread(x, ex.worst, y, ey.worst);
  if (!ex.exact() || !ey.exact())
    spread.likely =
        powSpread(x, kLikelyFactor * ex.likely, y, kLikelyFactor * ey.likely) /
        kLikelyFactor;
  return withOwnError(spread, v, t, ulps::kPow);
}

ErrorBound SumBound::bound(double v, DType t) const {
  if (count == 0)
    return {};
  double additions = double(count - 1);
  double u = unitRoundoff(t), flush = smallestNormal(t);
  // A back end: n - 1 roundings in t of partial sums no larger than the
  // terms' absolute sum (widened by their radii), each maybe flushed.
  double backEndEach = u * absSum + flush;
  double backEndWorst = additions * (u * (absSum + worstSum) + flush);
  // The reference: n - 1 additions in f64, then one rounding to t.
  double referenceEach = unitRoundoff(DType::F64) * absSum;
  double last = operationError(v, t, ulps::kCorrectlyRounded);
  ErrorBound e;
  e.worst = worstSum + backEndWorst + additions * referenceEach + last;
  long double each = backEndEach, reference = referenceEach, rounding = last;
  e.likely = double(
      std::sqrt(likely2 + additions * (each * each + reference * reference) +
                rounding * rounding));
  return e;
}

ErrorBound ProductBound::bound(double v, DType t) const {
  if (count == 0)
    return {};
  double multiplications = double(count - 1);
  double spread = widestProduct - absProduct;
  double backEnd =
      multiplications * (unitRoundoff(t) * widestProduct + smallestNormal(t));
  double reference = multiplications * unitRoundoff(DType::F64) * absProduct +
                     operationError(v, t, ulps::kCorrectlyRounded);
  double worst = spread + backEnd + reference;
  return {worst, worst};
}
