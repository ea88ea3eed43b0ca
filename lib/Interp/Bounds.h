//===- Bounds.h - Error bounds of the reference's values --------*- C++ -*-===//
//
// Private to lib/Interp. Besides its value, the interpreter can carry for
// every element how far an implementation of the program's math, at the
// accuracy the back ends promise, may be from it. Two measures travel
// together (ErrorBound):
//
//   - `worst`, a rigorous radius: midpoint-radius interval arithmetic.
//     Inputs, constants and indices are exact (0); an operation maps its
//     operands' intervals (not to first order only) and adds its own error.
//   - `likely`, the same errors combined as independent and of mean zero
//     (the probabilistic model of rounding error analysis, Higham and Mary
//     2019): squares add where worst-case radii add. The worst case grows
//     with every layer of a network by the layer's sum of |weights| (about
//     1e30 through MobileNet, where it bounds nothing); independent errors
//     grow like the values do. By Hoeffding's inequality a sum of
//     independent bounded errors exceeds kLikelyFactor times its scale with
//     probability below 2 exp(-kLikelyFactor^2 / 2) = 3e-8.
//
// The bound an output element gets is min(worst, kLikelyFactor * likely).
//
// An operation's own error: `ulps` units in the last place of its result in
// its type, plus the smallest normal number of the type (a device may flush
// subnormal results to zero), counted twice: the reference's rounding and
// the back end's. The ulps are OpenCL 1.2's full-profile accuracy (section
// 7.4): 0.5 for + - * and conversions (correctly rounded), 2.5 for /, 3
// for exp, log and sqrt, 4 or 5 for the trigonometric and hyperbolic
// functions, 16 for pow, 0 for floor, ceil and round. A sum of n terms in
// any order (vectorised, tiled, parallel) adds n - 1 roundings of partial
// sums, each at most u * sum|terms| (u the type's unit roundoff): worst
// (n - 1) u sum|terms|, likely sqrt(n - 1) u sum|terms|.
//
// Integers are exact except a bool decided by inexact floats (a comparison
// whose operands may be either way round): it is marked uncertain, so that
// `select` on it takes both branches' spread.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERP_BOUNDS_H
#define TILEC_LIB_INTERP_BOUNDS_H

#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/DType.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tilec::interp {

/// A math function in double (docs/language.md section 8.1), as the
/// interpreter computes it (Elementwise.cpp); the bounds map intervals
/// through the same function.
double mathFunction(typed::ExprOp op, double x);

/// How many scales of independent errors an element is allowed (see above).
constexpr double kLikelyFactor = 6;

/// The error of one element: a rigorous radius and the scale of the same
/// errors taken as independent. The scale is kept as itself, not squared:
/// the square of an f64 error can underflow (a product of 264 squares is
/// 1e-220, its error's square 1e-466), and a lost scale would allow nothing.
struct ErrorBound {
  double worst = 0;
  double likely = 0;
  bool exact() const { return worst == 0 && likely == 0; }
  /// What an output element is allowed: the smaller of the two bounds.
  double bound() const { return std::min(worst, kLikelyFactor * likely); }
  /// The bound of a bool that may be either value.
  static ErrorBound uncertain() { return {1, 1}; }
};

/// sqrt(a^2 + b^2) without overflow or underflow.
inline double rootSumSquare(double a, double b) {
  return a == 0 ? std::abs(b) : b == 0 ? std::abs(a) : std::hypot(a, b);
}

/// Per element of a value, its bound; empty when every element is exact.
using Radii = std::vector<ErrorBound>;

/// Accuracy, in ulps of the result, of the operations the back ends run.
namespace ulps {
constexpr double kCorrectlyRounded = 0.5;
constexpr double kDivide = 2.5;
constexpr double kPow = 16;
} // namespace ulps

/// The most an implementation accurate to `ulps` ulps is off when computing
/// the value `v` of type `t` (0 for an infinite or NaN `v`, which must match
/// exactly, and for ulps = 0).
double operationError(double v, DType t, double ulps);

/// `a * r`, 0 when r is 0 (so that an infinite `a` with an exact partner
/// stays exact).
inline double scaleRadius(double a, double r) { return r == 0 ? 0 : a * r; }

/// `e` plus an operation's own error `own`: once for the reference's
/// rounding, once for the back end's.
inline ErrorBound plusOwnError(ErrorBound e, double own) {
  e.worst += 2 * own;
  e.likely = rootSumSquare(e.likely, std::sqrt(2.0) * own);
  return e;
}

/// A cheap upper bound of operationError(v, t, 0.5) for the inner loops of
/// contractions: half an ulp is at most u * max(|v|, smallest normal).
struct CorrectRounding {
  double u, normal;
  explicit CorrectRounding(DType t);
  double error(double v) const { return u * (std::abs(v) + normal) + normal; }
};

/// How far a * b may move with its operands (before its own rounding).
inline ErrorBound mulSpread(double a, double b, ErrorBound ea, ErrorBound eb) {
  return {scaleRadius(std::abs(a), eb.worst) +
              scaleRadius(std::abs(b), ea.worst) +
              scaleRadius(ea.worst, eb.worst),
          rootSumSquare(rootSumSquare(scaleRadius(std::abs(b), ea.likely),
                                      scaleRadius(std::abs(a), eb.likely)),
                        scaleRadius(ea.likely, eb.likely))};
}

/// The bounds of results of type `t`: v the interpreter's value.
ErrorBound addBound(double v, ErrorBound a, ErrorBound b, DType t);
ErrorBound mulBound(double a, double b, ErrorBound ea, ErrorBound eb, double v,
                    DType t);
ErrorBound divBound(double a, double b, ErrorBound ea, ErrorBound eb, double v,
                    DType t);
/// A float value with bound `e` converted from float type `from` to `to`.
ErrorBound convertBound(double v, ErrorBound e, DType from, DType to);
/// A math function `op` (Exp .. Round) of `x` with result v.
ErrorBound mathBound(typed::ExprOp op, double x, ErrorBound ex, double v,
                     DType t);
/// pow(x, y) with result v.
ErrorBound powBound(double x, ErrorBound ex, double y, ErrorBound ey, double v,
                    DType t);
/// Whether comparing a and b may come out either way (both exact: never).
bool comparisonUncertain(double a, double b, ErrorBound ea, ErrorBound eb);
/// select(c, a, b) when the condition may go either way.
ErrorBound eitherBound(double a, double b, ErrorBound ea, ErrorBound eb);
/// The wider of two bounds, measure by measure (max, min: they pick one
/// operand, and each moves at most by its own bound).
inline ErrorBound widerBound(ErrorBound a, ErrorBound b) {
  return {std::max(a.worst, b.worst), std::max(a.likely, b.likely)};
}

/// The bound of a sum aggregated term by term (a contraction's `+`, a
/// scatter): the reference adds in f64 and rounds once, a back end adds in
/// the result's type in any order.
struct SumBound {
  double absSum = 0;       ///< sum |term|
  double worstSum = 0;     ///< the terms' worst bounds, summed
  long double likely2 = 0; ///< their likely scales, squared and summed
  int64_t count = 0;
  /// A term of bound `e` and own error `own` (its rounding, counted twice).
  void add(double term, ErrorBound e, double own = 0) {
    absSum += std::abs(term);
    worstSum += e.worst + 2 * own;
    // The x87 extended range holds the square of any double.
    long double likely = e.likely, error = own;
    likely2 += likely * likely + 2 * error * error;
    ++count;
  }
  ErrorBound bound(double v, DType t) const;
};

/// The bound of a product aggregated factor by factor (worst case only: the
/// likely scale is taken equal).
struct ProductBound {
  double absProduct = 1;    ///< prod |factor|
  double widestProduct = 1; ///< prod (|factor| + radius)
  int64_t count = 0;
  void add(double factor, ErrorBound e) {
    absProduct *= std::abs(factor);
    widestProduct *= std::abs(factor) + e.worst;
    ++count;
  }
  ErrorBound bound(double v, DType t) const;
};

} // namespace tilec::interp

#endif // TILEC_LIB_INTERP_BOUNDS_H
