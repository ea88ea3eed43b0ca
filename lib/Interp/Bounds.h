//===- Bounds.h - Error bounds of the reference's values ---------*- C++ -*-===//
//
// Private to lib/Interp. Besides its value, the interpreter can carry for
// every element a radius r: every implementation that computes the
// program's math with the accuracy the back ends promise lies within r of
// the interpreter's value. It is midpoint-radius interval arithmetic: inputs,
// constants and indices are exact (r = 0); an operation maps its operands'
// intervals rigorously (not to first order only) and adds its own error,
// twice: the reference's rounding and the back end's.
//
// An operation's own error: `ulps` units in the last place of its result in
// its type, plus the smallest normal number of the type (a device may flush
// subnormal results to zero). The ulps are OpenCL 1.2's full-profile
// accuracy (section 7.4): 0.5 for + - * and conversions (correctly
// rounded), 2.5 for /, 3 for exp, log and sqrt, 4 or 5 for the
// trigonometric and hyperbolic functions, 16 for pow, 0 for floor, ceil and
// round. A sum of n terms in any order (vectorised, tiled, parallel) adds
// (n - 1) * u * sum|terms| (the classical bound; u the type's unit
// roundoff), a product of n factors (n - 1) * u * |product|.
//
// Integers are exact except a bool decided by inexact floats (a comparison
// whose operands' intervals overlap): its radius is 1, "either answer", so
// that `select` on it takes both branches' spread.
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

/// Per element of a value, its radius; empty when every element is exact.
using Radii = std::vector<double>;

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

/// The radii of results of type `t`: v the interpreter's value.
double addRadius(double v, double ra, double rb, DType t);
double mulRadius(double a, double b, double ra, double rb, double v, DType t);
double divRadius(double a, double b, double ra, double rb, double v, DType t);
/// A float value with radius `r` converted from float type `from` to `to`.
double convertRadius(double v, double r, DType from, DType to);
/// A math function `op` (Exp .. Round) of `x` (radius rx) with result v.
double mathRadius(typed::ExprOp op, double x, double rx, double v, DType t);
/// pow(x, y) with result v.
double powRadius(double x, double rx, double y, double ry, double v, DType t);
/// Whether comparing a and b may come out either way: their intervals
/// overlap (both exact: never).
bool comparisonUncertain(double a, double b, double ra, double rb);
/// select(c, a, b) when the condition may go either way.
inline double eitherRadius(double a, double b, double ra, double rb) {
  double spread = a == b ? 0 : std::abs(a - b);
  return std::max(ra, rb) + spread;
}

/// The bound of a sum aggregated term by term (a contraction's `+`, a
/// scatter): the reference adds in f64 and rounds once, a back end adds in
/// the result's type in any order.
struct SumBound {
  double absSum = 0;    ///< sum |term|
  double radiusSum = 0; ///< sum of the terms' radii
  int64_t count = 0;
  void add(double term, double radius) {
    absSum += std::abs(term);
    radiusSum += radius;
    ++count;
  }
  double radius(double v, DType t) const;
};

/// The bound of a product aggregated factor by factor.
struct ProductBound {
  double absProduct = 1;   ///< prod |factor|
  double widestProduct = 1; ///< prod (|factor| + radius)
  int64_t count = 0;
  void add(double factor, double radius) {
    absProduct *= std::abs(factor);
    widestProduct *= std::abs(factor) + radius;
    ++count;
  }
  double radius(double v, DType t) const;
};

} // namespace tilec::interp

#endif // TILEC_LIB_INTERP_BOUNDS_H
