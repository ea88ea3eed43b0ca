//===- Rules.h - The derivative rules, one file per family ------*- C++ -*-===//
//
// The reverse sweep (Autodiff.cpp) visits the statements on a path from a
// wrt value to the loss, last first, and hands each rule the statement and
// the adjoint of its result (a value of the result's type). The rule adds a
// contribution to the adjoint of each operand on the path. The rules are
// those of design/AUTODIFF.md 7.4 and its appendix: ElementwiseRules.cpp,
// ContractionRules.cpp, DataMovementRules.cpp. Private to lib/Autodiff.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_AUTODIFF_RULES_H
#define TILEC_LIB_AUTODIFF_RULES_H

#include "GradBuilder.h"

#include <functional>
#include <string>
#include <vector>

namespace tilec::autodiff {

struct RuleContext {
  GradBuilder &b;
  /// Whether `v` takes an adjoint: it depends on a wrt and the loss on it.
  std::function<bool(ValueId)> onPath;
  /// Adds `contribution` to v's adjoint. Its type is v's element type; its
  /// shape is v's or one v's broadcasts to (the sweep sums it down).
  std::function<void(ValueId, ExprPtr)> contribute;
  /// Reports that `st`, on the path, has no derivative: an error there
  /// with a note at the `grad` call. Returns false.
  std::function<bool(const Statement &st, const std::string &why)> fail;
};

/// Each returns false after ctx.fail.
bool elementwiseAdjoints(RuleContext &ctx, const Statement &st, ValueId dy);
bool contractionAdjoints(RuleContext &ctx, const Statement &st, ValueId dy);
bool dataMovementAdjoints(RuleContext &ctx, const Statement &st, ValueId dy);

/// The float operands of a statement a derivative flows into, per family:
/// the path analysis of the sweep follows only these edges.
std::vector<ValueId> elementwiseInputs(const typed::Program &p,
                                       const Statement &st);
std::vector<ValueId> contractionInputs(const typed::Program &p,
                                       const Statement &st);
std::vector<ValueId> dataMovementInputs(const typed::Program &p,
                                        const Statement &st);

} // namespace tilec::autodiff

#endif // TILEC_LIB_AUTODIFF_RULES_H
