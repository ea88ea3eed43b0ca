//===- DataMovementRules.cpp - Derivatives of reshape, gather, scatter ----===//
//
// design/AUTODIFF.md 7.4: reshape's adjoint is the adjoint reshaped back;
// gather and scatter are each other's adjoints, with the same clamping of
// out-of-range indices (8.5), so an id the forward clamped to the first or
// last row sends its derivative there. Indices never take a derivative.
// Random numbers and literals depend on no input.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace tilec;
using namespace tilec::autodiff;
using Kind = typed::Statement::Kind;

std::vector<ValueId>
tilec::autodiff::dataMovementInputs(const typed::Program &p,
                                    const Statement &st) {
  bool moves = st.kind == Kind::Reshape || st.kind == Kind::Gather ||
               st.kind == Kind::Scatter;
  if (moves && isFloat(p.value(st.operands[0]).type.dtype))
    return {st.operands[0]};
  return {};
}

bool tilec::autodiff::dataMovementAdjoints(RuleContext &ctx,
                                           const Statement &st, ValueId dy) {
  GradBuilder &b = ctx.b;
  ValueId x = st.operands[0];
  if (!ctx.onPath(x))
    return true;
  ValueId adjoint;
  switch (st.kind) {
  case Kind::Reshape:
    adjoint = b.emitStatement(Kind::Reshape, {dy}, b.typeOf(x), b.tempName());
    break;
  case Kind::Gather: // V[I] -> scatter(DO, I, V)
    adjoint = b.emitStatement(Kind::Scatter, {dy, st.operands[1], x},
                              b.typeOf(x), b.tempName());
    break;
  case Kind::Scatter: // scatter(E, I, V) -> gather(DO, I)
    adjoint = b.emitStatement(Kind::Gather, {dy, st.operands[1]},
                              b.typeOf(x), b.tempName());
    break;
  default:
    return true;
  }
  ctx.contribute(x, b.ref(adjoint));
  return true;
}
