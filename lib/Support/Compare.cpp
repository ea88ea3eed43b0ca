//===- Compare.cpp - Compare outputs with the reference -------------------===//
//
// The rule is Compare.h's; README.md ("--check") gives its reason.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/Compare.h"

#include "tilec/Support/FloatPrecision.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace tilec;

namespace {
/// The coordinates of row-major element `flat` of `shape`.
std::vector<int64_t> coordinatesOf(int64_t flat,
                                   const std::vector<int64_t> &shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

/// Whether float element `got` passes against `want` with bound `bound`;
/// sets `allowed` to the difference allowed when both are finite.
bool floatElementMatches(double got, double want, double bound, DType dtype,
                         double &allowed, TensorComparison &result) {
  allowed = 0;
  if (std::isnan(want))
    return std::isnan(got);
  if (std::isnan(got))
    return false;
  if (std::isinf(want) || std::isinf(got))
    return got == want;
  if (!std::isfinite(bound)) {
    ++result.unbounded;
    return true;
  }
  double diff = std::fabs(got - want);
  result.maxAbsError = std::max(result.maxAbsError, diff);
  if (want != 0)
    result.maxRelError = std::max(result.maxRelError, diff / std::fabs(want));
  allowed = bound + kCompareSlackUlps * ulpOf(want, dtype);
  result.worstFraction = std::max(result.worstFraction, diff / allowed);
  return diff <= allowed;
}
} // namespace

std::string tilec::boundPathFor(const std::string &npyPath) {
  std::string stem = npyPath;
  if (stem.size() >= 4 && stem.compare(stem.size() - 4, 4, ".npy") == 0)
    stem.resize(stem.size() - 4);
  return stem + ".bound.npy";
}

TensorComparison tilec::failedComparison(std::string problem) {
  TensorComparison result;
  result.problem = std::move(problem);
  result.match = false;
  return result;
}

TensorComparison tilec::compareTensors(const Tensor &got, const Tensor &want,
                                       const Tensor *bound) {
  if (got.type != want.type)
    return failedComparison("is " + got.type.str() + ", expected " +
                            want.type.str());
  DType dtype = want.type.dtype;
  TensorComparison result;
  result.exact = !isFloat(dtype);
  result.elements = want.numElements();
  if (bound && !result.exact) {
    if (bound->type.shape != want.type.shape)
      return failedComparison("its bound is " + bound->type.str() +
                              ", expected the shape of " + want.type.str());
    result.boundGiven = true;
  }
  for (int64_t e = 0; e < result.elements; ++e) {
    double a, b, allowed = 0;
    bool ok;
    if (result.exact) {
      int64_t x = got.getInt(e), y = want.getInt(e);
      a = double(x);
      b = double(y);
      ok = x == y;
      double diff = ok ? 0 : std::fabs(a - b);
      result.maxAbsError = std::max(result.maxAbsError, diff);
      if (y != 0)
        result.maxRelError = std::max(result.maxRelError, diff / std::fabs(b));
    } else {
      a = got.getDouble(e);
      b = want.getDouble(e);
      result.gotNaN += std::isnan(a);
      result.wantNaN += std::isnan(b);
      double r = result.boundGiven ? bound->getDouble(e) : 0;
      ok = floatElementMatches(a, b, r, dtype, allowed, result);
    }
    if (ok)
      continue;
    if (!result.first)
      result.first =
          ElementMismatch{coordinatesOf(e, want.type.shape), a, b, allowed};
    ++result.mismatches;
  }
  result.match = result.mismatches == 0;
  return result;
}

namespace {
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

std::string shortNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

std::string indexText(const std::vector<int64_t> &index) {
  std::string text = "[";
  for (size_t d = 0; d < index.size(); ++d)
    text += (d ? ", " : "") + std::to_string(index[d]);
  return text + "]";
}

/// The verdict in brackets: what the rule allowed and how close it came,
/// or how many elements broke it and the first of them.
std::string verdict(const TensorComparison &c) {
  std::string text;
  if (c.mismatches) {
    text = std::to_string(c.mismatches) + " of " + std::to_string(c.elements) +
           (c.exact ? " elements differ" : " elements outside their bound") +
           ", the first at " + indexText(c.first->index) + ": got " +
           number(c.first->got) + ", expected " + number(c.first->want);
    if (!c.exact && c.first->allowed > 0)
      text += ", bound " + shortNumber(c.first->allowed);
    return text + "; MISMATCH";
  }
  if (c.exact)
    return "exact; ok";
  char worst[48];
  std::snprintf(worst, sizeof worst, "worst element at %.3g%% of its bound",
                100 * c.worstFraction);
  text = c.boundGiven ? worst
                      : std::string("no bounds given: 2 ulps each; ") + worst;
  if (c.unbounded)
    text += ", " + std::to_string(c.unbounded) + " elements unbounded";
  return text + "; ok";
}
} // namespace

std::string tilec::formatComparison(const std::string &name,
                                    const TensorComparison &comparison) {
  if (!comparison.problem.empty())
    return "check: " + name + ": " + comparison.problem + " (MISMATCH)";
  std::string line = "check: " + name + ": max abs error " +
                     shortNumber(comparison.maxAbsError) + ", max rel error " +
                     shortNumber(comparison.maxRelError);
  if (!comparison.exact) {
    line += ", " + std::to_string(comparison.gotNaN) + " NaN";
    if (comparison.wantNaN != comparison.gotNaN || comparison.wantNaN)
      line += " (interpreter: " + std::to_string(comparison.wantNaN) + ")";
  }
  return line + " (" + verdict(comparison) + ")";
}
