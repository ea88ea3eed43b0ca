//===- Compare.cpp - Compare outputs with the reference -------------------===//

#include "tilec/Support/Compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace tilec;

/// The tolerance of an output of float type `dtype`: a few units in the
/// last place of the type, scaled for the reassociation of long reductions
/// (vectorised or parallel sums add in another order than the interpreter).
static double floatTolerance(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return 1e-2;
  case DType::BF16:
    return 5e-2;
  case DType::F64:
    return 1e-10;
  default:
    return 1e-4;
  }
}

TensorComparison tilec::compareTensors(const Tensor &got, const Tensor &want) {
  TensorComparison result;
  DType dtype = want.type.dtype;
  result.typesMatch = got.type == want.type;
  result.match = result.typesMatch;
  bool exact = !isFloat(dtype);
  result.tolerance = exact ? 0 : floatTolerance(dtype);
  // An element of a long sum whose terms cancel is small, but its error is
  // that of the terms, not of the result: the absolute error is measured
  // against the largest magnitude of the reference (at least 1), as for a
  // norm-wise comparison; the relative error, element by element.
  double scale = 1;
  for (int64_t e = 0; !exact && e < want.numElements(); ++e)
    if (double b = std::fabs(want.getDouble(e)); std::isfinite(b))
      scale = std::max(scale, b);
  double absTolerance = result.tolerance * scale;
  for (int64_t e = 0; result.match && e < want.numElements(); ++e) {
    if (exact) {
      int64_t a = got.getInt(e), b = want.getInt(e);
      double diff = a == b ? 0 : std::fabs(double(a) - double(b));
      result.maxAbsError = std::max(result.maxAbsError, diff);
      if (b != 0)
        result.maxRelError =
            std::max(result.maxRelError, diff / std::fabs(double(b)));
      result.match = a == b;
      continue;
    }
    double a = got.getDouble(e), b = want.getDouble(e);
    if (std::isnan(a) || std::isnan(b)) {
      result.match = std::isnan(a) && std::isnan(b);
      continue;
    }
    if (a == b) // equal infinities included
      continue;
    double diff = std::fabs(a - b);
    if (std::isnan(diff)) // one infinite
      diff = INFINITY;
    double rel = b != 0 ? diff / std::fabs(b) : diff;
    result.maxAbsError = std::max(result.maxAbsError, diff);
    result.maxRelError = std::max(result.maxRelError, rel);
    if (diff > absTolerance && rel > result.tolerance)
      result.match = false;
  }
  return result;
}

std::string tilec::formatComparison(const std::string &name, const Tensor &got,
                                    const Tensor &want,
                                    const TensorComparison &comparison) {
  if (!comparison.typesMatch)
    return "check: " + name + ": is " + got.type.str() + ", expected " +
           want.type.str() + " (MISMATCH)";
  char errors[96], tolerance[32] = "exact";
  std::snprintf(errors, sizeof errors, "max abs error %.3g, max rel error %.3g",
                comparison.maxAbsError, comparison.maxRelError);
  if (isFloat(want.type.dtype))
    std::snprintf(tolerance, sizeof tolerance, "tolerance %.0e",
                  comparison.tolerance);
  return "check: " + name + ": " + errors + " (" + tolerance + "; " +
         (comparison.match ? "ok" : "MISMATCH") + ")";
}
