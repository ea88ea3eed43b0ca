//===- Autodiff.h - Gradients of typed programs -----------------*- C++ -*-===//
//
// Reverse-mode differentiation on the bound, typed program
// (docs/language.md 8.8, design/AUTODIFF.md). It runs between binding and
// both consumers, the interpreter and MLIRGen: the binder leaves a Grad
// placeholder statement for every `grad(L, X1, ..., Xn)`, and expandGrads
// replaces each by ordinary typed statements (elementwise, contractions,
// reshape, gather, scatter) computing dL/dXi, where L is summed over its
// elements. Every statement a rule emits has a rule of its own, so a later
// `grad` over gradient statements (second order) works.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_AUTODIFF_AUTODIFF_H
#define TILEC_AUTODIFF_AUTODIFF_H

#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec::autodiff {

/// Replaces every Grad placeholder of `program` in program order, so a
/// `grad` sees the expansion of the ones before it. Reports located errors
/// (a path through a statement that has no derivative, with a note at the
/// `grad` call) and a warning for each Xi the loss does not depend on (its
/// gradient is then zeros of Xi's shape). Returns false after an error.
bool expandGrads(typed::Program &program, DiagnosticEngine &diag);

/// Appends the gradient of `loss` (summed over its elements) with respect to
/// each of `wrts` at the end of `program`, as values named `names`, and
/// returns them; what `tilec grad` does to an entry function. Errors and
/// warnings as for expandGrads, located at `loc`.
std::optional<std::vector<typed::ValueId>>
appendGradients(typed::Program &program, typed::ValueId loss,
                llvm::ArrayRef<typed::ValueId> wrts,
                llvm::ArrayRef<std::string> names, llvm::SMLoc loc,
                DiagnosticEngine &diag);

/// The vector-Jacobian form (PlaidML's ProgGrad, `tilec grad --vjp`): adds
/// one input per output, named `seedNames`, of the output's type, and
/// appends the loss L = sum over the outputs of sum(output * seed), whose
/// gradient is the vector-Jacobian product with the seeds. Returns L.
typed::ValueId appendSeededLoss(typed::Program &program,
                                llvm::ArrayRef<typed::ValueId> outputs,
                                llvm::ArrayRef<std::string> seedNames);

} // namespace tilec::autodiff

#endif // TILEC_AUTODIFF_AUTODIFF_H
