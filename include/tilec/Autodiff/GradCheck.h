//===- GradCheck.h - Gradients against finite differences -------*- C++ -*-===//
//
// `tilec grad --check` and the rule tests: the program is run on the
// reference interpreter in f64 (every float value, constant and cast
// promoted), and for a few random directions v per wrt the analytic
// directional derivative <dL/dX, v> is compared with the central difference
// (L(X + h v) - L(X - h v)) / 2h, L summed over its elements. One pair of
// forward runs per direction, so it stays cheap for whole networks.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_AUTODIFF_GRADCHECK_H
#define TILEC_AUTODIFF_GRADCHECK_H

#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tilec::autodiff {

struct GradCheckOptions {
  uint64_t seed = 0;       ///< inputs and directions
  double step = 1e-6;      ///< h
  unsigned directions = 4; ///< per wrt
};

struct GradCheckResult {
  std::string wrt;           ///< the input's name
  double maxRelError = 0;    ///< over the directions
  double analytic = 0;       ///< of the worst direction
  double finiteDifference = 0;
};

/// Checks dL/dX for each of `wrts` (inputs of `program`); `loss` is a value
/// of it. Diagnostics of differentiation go to `diag`; an interpreter
/// failure is the returned error.
llvm::Expected<std::vector<GradCheckResult>>
checkGradients(const typed::Program &program, typed::ValueId loss,
               llvm::ArrayRef<typed::ValueId> wrts,
               const GradCheckOptions &options, DiagnosticEngine &diag);

/// `program` with every float type (values, nodes, constants, casts and
/// contraction combine types) made f64.
void promoteFloatsToF64(typed::Program &program);

} // namespace tilec::autodiff

#endif // TILEC_AUTODIFF_GRADCHECK_H
