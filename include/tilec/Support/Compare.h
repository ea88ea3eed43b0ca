//===- Compare.h - Compare outputs with the reference -----------*- C++ -*-===//
//
// `tilec run --check`, `tilec bench`, `tilec autotune` and
// `tilec-run --expect DIR` / `--tune DIR` compare a back end's outputs with
// the reference interpreter's by one rule, element by element:
//
//   - integers and bool: exactly;
//   - a NaN of the reference: only a NaN at that very element (the
//     interpreter's NaNs come from the program's own math: it has no
//     uninitialised memory and no approximations); a NaN of the back end
//     elsewhere fails;
//   - an infinity of either side: the same infinity, sign included;
//   - otherwise |got - want| <= bound + 2 ulps of want in its type, the
//     bound being the reference's per-element error bound
//     (interpretWithBounds; NAME.bound.npy beside NAME.npy): what an
//     implementation of the program's math with the promised accuracy stays
//     within (surely, or with probability above 1 - 3e-8 where the worst
//     case is vacuous: lib/Interp/Bounds.h), derived from the magnitudes of
//     what was summed, multiplied or passed through a function to make the
//     element. The 2 ulps cover the
//     bound's own second-order terms. Without a bound (a .npy file written
//     elsewhere) only the 2 ulps remain: right for element-wise programs,
//     too strict for sums, never too loose. An element whose bound is not
//     finite (a division by an interval holding 0) is counted as unbounded
//     and needs only a finite value.
//
// No LLVM here: tilec-run uses it on machines without it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_COMPARE_H
#define TILEC_SUPPORT_COMPARE_H

#include "tilec/Support/Tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// The ulps of the reference's type every float element is allowed on top of
/// its bound.
constexpr double kCompareSlackUlps = 2;

/// The first element that breaks the rule.
struct ElementMismatch {
  std::vector<int64_t> index; ///< its coordinates
  double got = 0, want = 0;
  double allowed = 0; ///< the largest difference the rule allowed (floats)
};

struct TensorComparison {
  /// Why the tensors cannot be compared at all (their types differ, the
  /// bound has another shape, the output is missing), else empty.
  std::string problem;
  bool exact = false;      ///< integers or bool
  bool boundGiven = false; ///< floats: a bound tensor was used
  int64_t elements = 0;
  int64_t mismatches = 0;
  int64_t gotNaN = 0, wantNaN = 0;
  int64_t unbounded = 0; ///< floats whose bound is not finite
  /// Over finite elements of both sides.
  double maxAbsError = 0;
  double maxRelError = 0;
  /// The largest |got - want| / allowed (floats).
  double worstFraction = 0;
  std::optional<ElementMismatch> first;
  bool match = true;
};

/// Compares `got` with the reference `want`, element by element, with
/// `bound` (f64, want's shape) the reference's error bound, or null when
/// none is known.
TensorComparison compareTensors(const Tensor &got, const Tensor &want,
                                const Tensor *bound = nullptr);

/// Where the bound of the reference file `npyPath` (DIR/NAME.npy) lives:
/// DIR/NAME.bound.npy.
std::string boundPathFor(const std::string &npyPath);

/// A comparison that failed before any element: `problem` says why.
TensorComparison failedComparison(std::string problem);

/// The report line, e.g. "check: NAME: max abs error 1.2e-07, max rel error
/// 3.4e-07, 0 NaN (worst element at 3% of its bound; ok)", "(exact; ok)", or
/// on a mismatch the count and the first element: "(2 of 8 elements outside
/// their bound, the first at [0, 3]: got 1.5, expected 1.25, bound 2.4e-07;
/// MISMATCH)".
std::string formatComparison(const std::string &name,
                             const TensorComparison &comparison);

} // namespace tilec

#endif // TILEC_SUPPORT_COMPARE_H
