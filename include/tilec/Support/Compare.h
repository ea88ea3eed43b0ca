//===- Compare.h - Compare outputs with the reference ------------*- C++ -*-===//
//
// `tilec run --check` and `tilec-run --expect DIR` compare a back end's
// outputs with the reference interpreter's by the same rule: integers and
// bool exactly, floats within a tolerance that suits their type (an element
// fails only when both its relative error and its absolute error exceed it,
// the absolute error taken relative to the largest magnitude of the
// reference, at least 1), NaN only against NaN. No LLVM here: tilec-run uses it on machines without it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_COMPARE_H
#define TILEC_SUPPORT_COMPARE_H

#include "tilec/Support/Tensor.h"

#include <string>

namespace tilec {

struct TensorComparison {
  double maxAbsError = 0;
  double maxRelError = 0;
  double tolerance = 0; ///< 0 for exact types
  bool typesMatch = true;
  bool match = true;
};

/// Compares `got` with the reference `want`, element by element.
TensorComparison compareTensors(const Tensor &got, const Tensor &want);

/// The report line: "check: NAME: max abs error 1.2e-07, max rel error
/// 3.4e-07 (tolerance 1e-04; ok)", or "(exact; MISMATCH)", or a line saying
/// the types differ.
std::string formatComparison(const std::string &name, const Tensor &got,
                             const Tensor &want,
                             const TensorComparison &comparison);

} // namespace tilec

#endif // TILEC_SUPPORT_COMPARE_H
