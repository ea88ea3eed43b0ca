//===- ContractionRules.cpp - Derivatives of contractions -----------------===//
//
// design/AUTODIFF.md 7.4. For `O[p] = agg(A[a] (x) B[b]), cons default D`
// with adjoint DO, each operand's adjoint is again a contraction over the
// forward's own index variables: the valid assignments of the derived
// contraction are exactly the forward's (the same accesses, in range, and
// the same constraints), so its variables keep their exact ranges. The
// operand's index polynomials become the output indices; where they are not
// a permutation (conv and pool input gradients) the contraction writes
// several contributions to a cell, which `+` sums.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace tilec;
using namespace tilec::autodiff;
using ast::AggKind;
using ast::CombKind;

std::vector<ValueId> tilec::autodiff::contractionInputs(const typed::Program &p,
                                                        const Statement &st) {
  const typed::Contraction &c = *st.contraction;
  std::vector<ValueId> out;
  auto take = [&](ValueId v) {
    if (isFloat(p.value(v).type.dtype))
      out.push_back(v);
  };
  if (!isFloat(p.value(st.results[0]).type.dtype))
    return out;
  if (c.comb == CombKind::Cond)
    take(c.operands[2].value);
  else if (c.comb != CombKind::Eq)
    for (const typed::Access &a : c.operands)
      take(a.value);
  if (c.defaultValue)
    take(*c.defaultValue);
  return out;
}

namespace {

class ContractionDiff {
public:
  ContractionDiff(RuleContext &ctx, const Statement &st, ValueId dy)
      : ctx(ctx), b(ctx.b), st(st), c(*st.contraction), dy(dy) {}

  bool run();

private:
  typed::Access access(ValueId v, const std::vector<Affine> &indices) {
    return typed::Access{v, indices, st.loc};
  }
  typed::Access outputAccess(ValueId v) { return access(v, c.outIndices); }
  typed::Access operandAccess(unsigned k) { return c.operands[k]; }
  /// The operand's access with its value replaced by ones of its type.
  typed::Access onesAccess(unsigned k) {
    typed::Access a = c.operands[k];
    a.value = b.ones(b.typeOf(a.value));
    return a;
  }

  /// `agg(ops)` over the forward's variables and constraints into a tensor
  /// of `shape` at `outIndices`.
  ValueId derived(AggKind agg, CombKind comb, std::vector<typed::Access> ops,
                  const std::vector<Affine> &outIndices,
                  const std::vector<int64_t> &shape);
  /// Adds the adjoint `result` (a derived contraction) to operand k's.
  void contributeTo(unsigned k, ValueId result) {
    ValueId v = c.operands[k].value;
    ctx.contribute(v, b.cast(b.ref(result), b.typeOf(v).dtype));
  }
  bool sumRule();
  bool extremumRule();
  void defaultRule();

  RuleContext &ctx;
  GradBuilder &b;
  const Statement &st;
  const typed::Contraction &c;
  ValueId dy;
};

ValueId ContractionDiff::derived(AggKind agg, CombKind comb,
                                 std::vector<typed::Access> ops,
                                 const std::vector<Affine> &outIndices,
                                 const std::vector<int64_t> &shape) {
  auto d = std::make_unique<typed::Contraction>();
  d->agg = agg;
  d->comb = comb;
  d->vars = c.vars;
  d->constraints = c.constraints;
  d->outIndices = outIndices;
  auto dtypeOf = [&](unsigned k) { return b.typeOf(ops[k].value).dtype; };
  d->combineType = comb == CombKind::None ? dtypeOf(0)
                                          : joinDTypes(dtypeOf(0), dtypeOf(1));
  DType result = comb == CombKind::Cond ? dtypeOf(2) : d->combineType;
  d->operands = std::move(ops);
  return b.emitContraction(std::move(d), TensorType{result, shape},
                           b.tempName());
}

bool ContractionDiff::sumRule() {
  for (unsigned k = 0; k < c.operands.size(); ++k) {
    ValueId v = c.operands[k].value;
    if (!ctx.onPath(v))
      continue;
    const std::vector<Affine> &out = c.operands[k].indices;
    // A copy: building statements adds values.
    std::vector<int64_t> shape = b.typeOf(v).shape;
    std::vector<typed::Access> ops;
    CombKind comb = CombKind::Mul;
    switch (c.comb) {
    case CombKind::None:
      ops = {outputAccess(dy)};
      comb = CombKind::None;
      break;
    case CombKind::Mul:
      // DA = +(DO[p] * B[b]); DB = +(A[a] * DO[p]).
      ops = k == 0 ? std::vector{outputAccess(dy), operandAccess(1)}
                   : std::vector{operandAccess(0), outputAccess(dy)};
      break;
    case CombKind::Add:
      // Ones of the other operand keep its range conditions and its own
      // variables' multiplicity: +(A[i] + B[j]) sends |j| * DO to A.
      ops = {outputAccess(dy), onesAccess(1 - k)};
      break;
    case CombKind::Cond:
      if (k != 2)
        continue;
      ops = {operandAccess(0), operandAccess(1), outputAccess(dy)};
      comb = CombKind::Cond;
      break;
    case CombKind::Eq:
      continue;
    }
    contributeTo(k, derived(AggKind::Sum, comb, std::move(ops), out, shape));
  }
  return true;
}

bool ContractionDiff::extremumRule() {
  const char *agg = c.agg == AggKind::Max ? ">" : "<";
  if (c.comb != CombKind::None)
    return ctx.fail(st, std::string("the path goes through a '") + agg +
                            "' aggregation with a '" +
                            (c.comb == CombKind::Mul   ? "*"
                             : c.comb == CombKind::Add ? "+"
                                                       : "?") +
                            "' combination, which has no derivative");
  if (!ctx.onPath(c.operands[0].value))
    return true;
  // Ties split evenly: Cnt counts the elements equal to the extremum,
  // Share = DO / Cnt goes to each of them.
  ValueId out = st.results[0];
  DType t = b.typeOf(out).dtype;
  std::vector<int64_t> outShape = b.typeOf(out).shape;
  typed::Access one{b.ones(TensorType{t, {}}), {}, st.loc};
  ValueId count =
      derived(AggKind::Sum, CombKind::Cond,
              {operandAccess(0), outputAccess(out), one}, c.outIndices,
              outShape);
  ValueId share = b.emit(b.div(b.ref(dy), b.ref(count)), b.tempName());
  std::vector<int64_t> inShape = b.typeOf(c.operands[0].value).shape;
  contributeTo(0, derived(AggKind::Sum, CombKind::Cond,
                          {operandAccess(0), outputAccess(out),
                           outputAccess(share)},
                          c.operands[0].indices, inShape));
  return true;
}

void ContractionDiff::defaultRule() {
  ValueId d = *c.defaultValue;
  if (!ctx.onPath(d))
    return;
  // The default shows through where no assignment wrote: Hit is 1 where
  // one did (the same accesses, on ones), 0 elsewhere.
  std::vector<typed::Access> ops;
  for (unsigned k = 0; k < c.operands.size(); ++k)
    ops.push_back(onesAccess(k));
  std::vector<int64_t> outShape = b.typeOf(st.results[0]).shape;
  ValueId hit =
      derived(AggKind::Max, c.comb, std::move(ops), c.outIndices, outShape);
  DType t = b.typeOf(dy).dtype;
  ExprPtr masked = b.select(b.ref(hit), b.scalar(0.0, t), b.ref(dy));
  ctx.contribute(d, b.cast(std::move(masked), b.typeOf(d).dtype));
}

bool ContractionDiff::run() {
  bool ok = true;
  switch (c.agg) {
  case AggKind::Sum:
  case AggKind::Assign:
    ok = sumRule();
    break;
  case AggKind::Max:
  case AggKind::Min:
    ok = extremumRule();
    break;
  case AggKind::Prod:
    return ctx.fail(st, "the path goes through a '*' aggregation, which "
                        "tilec cannot differentiate yet");
  }
  if (ok && c.defaultValue)
    defaultRule();
  return ok;
}

} // namespace

bool tilec::autodiff::contractionAdjoints(RuleContext &ctx,
                                          const Statement &st, ValueId dy) {
  return ContractionDiff(ctx, st, dy).run();
}
