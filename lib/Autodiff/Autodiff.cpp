//===- Autodiff.cpp - The reverse sweep -----------------------------------===//
//
// For one Grad placeholder: find the statements on a path from a wrt value
// to the loss (following only the edges a derivative flows along, Rules.h),
// then visit them last first, keeping one list of adjoint contributions per
// value. A value's contributions are summed (and reduced to its shape where
// they were broadcast) when its defining statement is reached, and the rule
// of that statement passes the sum on to its operands. The seed is a tensor
// of ones of the loss's shape: grad differentiates the sum of its elements.
//
//===----------------------------------------------------------------------===//

#include "tilec/Autodiff/Autodiff.h"
#include "Rules.h"

#include "llvm/ADT/StringRef.h"

#include <map>

using namespace tilec;
using namespace tilec::autodiff;
using Kind = typed::Statement::Kind;

namespace {

class Sweep {
public:
  Sweep(typed::Program &program, size_t index, std::vector<Statement> &out,
        DiagnosticEngine &diag)
      : program(program), index(index), grad(program.statements[index]),
        b(program, out, grad.loc), diag(diag),
        numValues(program.values.size()) {}

  bool run();

private:
  std::vector<ValueId> inputsOf(const Statement &st) const;
  void analysePaths();
  bool onPath(ValueId v) const {
    return v < numValues && firstWrt[v] >= 0 && needed[v];
  }
  bool applyRule(const Statement &st, ValueId dy);
  /// The summed adjoint of `v`, as a value named D_<name>.
  ValueId finalAdjoint(ValueId v);
  std::string adjointName(ValueId v) const;
  bool fail(const Statement &st, const std::string &why);
  std::string quoted(ValueId v) const {
    return "'" + program.values[v].name + "'";
  }

  typed::Program &program;
  size_t index;
  const Statement &grad;
  GradBuilder b;
  DiagnosticEngine &diag;
  ValueId numValues; ///< values of the forward program
  ValueId loss = 0;
  std::vector<ValueId> wrts;
  /// Per forward value: the first wrt (position in `wrts`) it depends on,
  /// or -1; and whether the loss depends on it.
  std::vector<int> firstWrt;
  std::vector<bool> needed;
  std::map<ValueId, std::vector<ExprPtr>> contributions;
  std::map<ValueId, ValueId> finished;
};

std::vector<ValueId> Sweep::inputsOf(const Statement &st) const {
  switch (st.kind) {
  case Kind::Elementwise:
    return elementwiseInputs(program, st);
  case Kind::Contraction:
    return contractionInputs(program, st);
  default:
    return dataMovementInputs(program, st);
  }
}

void Sweep::analysePaths() {
  firstWrt.assign(numValues, -1);
  needed.assign(numValues, false);
  for (size_t k = 0; k < wrts.size(); ++k)
    if (firstWrt[wrts[k]] < 0)
      firstWrt[wrts[k]] = int(k);
  for (size_t s = 0; s < index; ++s) {
    const Statement &st = program.statements[s];
    int dep = -1;
    for (ValueId in : inputsOf(st))
      if (firstWrt[in] >= 0 && (dep < 0 || firstWrt[in] < dep))
        dep = firstWrt[in];
    if (dep < 0)
      continue;
    for (ValueId r : st.results)
      if (firstWrt[r] < 0 && isFloat(program.values[r].type.dtype))
        firstWrt[r] = dep;
  }
  needed[loss] = true;
  for (size_t s = index; s-- > 0;) {
    const Statement &st = program.statements[s];
    bool any = false;
    for (ValueId r : st.results)
      any = any || needed[r];
    if (any)
      for (ValueId in : inputsOf(st))
        needed[in] = true;
  }
}

bool Sweep::fail(const Statement &st, const std::string &why) {
  ValueId r = st.results[0];
  std::string wrt = firstWrt[r] >= 0 ? quoted(wrts[firstWrt[r]]) : "it";
  diag.error(st.loc, "cannot differentiate " + quoted(loss) +
                         " with respect to " + wrt + ": " + why);
  diag.note(grad.loc, "gradient requested here");
  return false;
}

bool Sweep::applyRule(const Statement &st, ValueId dy) {
  RuleContext ctx{
      b, [this](ValueId v) { return onPath(v); },
      [this](ValueId v, ExprPtr e) {
        contributions[v].push_back(std::move(e));
      },
      [this](const Statement &s, const std::string &why) {
        return fail(s, why);
      }};
  switch (st.kind) {
  case Kind::Elementwise:
    return elementwiseAdjoints(ctx, st, dy);
  case Kind::Contraction:
    return contractionAdjoints(ctx, st, dy);
  default:
    return dataMovementAdjoints(ctx, st, dy);
  }
}

std::string Sweep::adjointName(ValueId v) const {
  // "dense.1.Acc" -> "dense.1.D_Acc": the printers keep the last part.
  // A binder temporary "_t3" gives "D_t3".
  llvm::StringRef name = program.values[v].name;
  size_t dot = name.rfind('.');
  llvm::StringRef prefix, last = name;
  if (dot != llvm::StringRef::npos) {
    prefix = name.substr(0, dot + 1);
    last = name.substr(dot + 1);
  }
  return prefix.str() + "D_" + last.ltrim('_').str();
}

ValueId Sweep::finalAdjoint(ValueId v) {
  auto done = finished.find(v);
  if (done != finished.end())
    return done->second;
  std::vector<ExprPtr> parts = std::move(contributions[v]);
  contributions.erase(v);
  std::vector<int64_t> shape = program.values[v].type.shape;
  ExprPtr sum;
  for (ExprPtr &part : parts) {
    if (part->type.shape != shape)
      part = b.ref(b.reduceTo(b.emit(std::move(part), b.tempName()), shape));
    sum = sum ? b.add(std::move(sum), std::move(part)) : std::move(part);
  }
  ValueId id;
  bool ownTemp = sum->op == ExprOp::Ref && sum->ref >= numValues &&
                 llvm::StringRef(program.values[sum->ref].name).starts_with(
                     "_d");
  if (ownTemp) {
    id = sum->ref;
    program.values[id].name = adjointName(v);
  } else {
    id = b.emit(std::move(sum), adjointName(v));
  }
  finished[v] = id;
  return id;
}

bool Sweep::run() {
  loss = grad.operands[0];
  wrts.assign(grad.operands.begin() + 1, grad.operands.end());
  analysePaths();
  if (onPath(loss)) {
    const TensorType &t = program.values[loss].type;
    contributions[loss].push_back(b.scalar(1.0, t.dtype, t.shape));
  }
  for (size_t s = index; s-- > 0;) {
    const Statement &st = program.statements[s];
    if (st.results.empty() || !onPath(st.results[0]) ||
        !contributions.count(st.results[0]))
      continue;
    if (inputsOf(st).empty())
      continue;
    if (!applyRule(st, finalAdjoint(st.results[0])))
      return false;
  }
  for (size_t k = 0; k < wrts.size(); ++k) {
    ValueId x = wrts[k];
    const TensorType type = program.values[x].type;
    if (finished.count(x) || contributions.count(x)) {
      b.emitInto(grad.results[k], b.ref(finalAdjoint(x)));
      continue;
    }
    if (!onPath(x))
      diag.warning(grad.loc, quoted(loss) + " does not depend on " +
                                 quoted(x) + "; its gradient is zero");
    b.emitInto(grad.results[k], b.scalar(0.0, type.dtype, type.shape));
  }
  return true;
}

} // namespace

bool tilec::autodiff::expandGrads(typed::Program &program,
                                  DiagnosticEngine &diag) {
  for (size_t i = 0; i < program.statements.size(); ++i) {
    if (program.statements[i].kind != Kind::Grad)
      continue;
    std::vector<Statement> emitted;
    if (!Sweep(program, i, emitted, diag).run())
      return false;
    auto at = program.statements.erase(program.statements.begin() + i);
    program.statements.insert(at, std::make_move_iterator(emitted.begin()),
                              std::make_move_iterator(emitted.end()));
    i += emitted.size() - 1; // every wrt emits at least its result
  }
  return true;
}

std::optional<std::vector<ValueId>>
tilec::autodiff::appendGradients(typed::Program &program, ValueId loss,
                                 llvm::ArrayRef<ValueId> wrts,
                                 llvm::ArrayRef<std::string> names,
                                 llvm::SMLoc loc, DiagnosticEngine &diag) {
  Statement st;
  st.kind = Kind::Grad;
  st.loc = loc;
  st.operands.push_back(loss);
  for (size_t k = 0; k < wrts.size(); ++k) {
    program.values.push_back(
        typed::Value{names[k], program.values[wrts[k]].type, loc});
    st.results.push_back(ValueId(program.values.size() - 1));
    st.operands.push_back(wrts[k]);
  }
  st.label = names.empty() ? "grad" : names[0];
  std::vector<ValueId> results = st.results;
  program.statements.push_back(std::move(st));
  if (!expandGrads(program, diag))
    return std::nullopt;
  return results;
}

ValueId tilec::autodiff::appendSeededLoss(typed::Program &program,
                                          llvm::ArrayRef<ValueId> outputs,
                                          llvm::ArrayRef<std::string> seedNames) {
  std::vector<Statement> emitted;
  GradBuilder b(program, emitted, llvm::SMLoc());
  ExprPtr total;
  DType lossType = DType::F32;
  for (size_t k = 0; k < outputs.size(); ++k) {
    TensorType type = program.values[outputs[k]].type;
    ValueId seed = b.newValue(seedNames[k], type);
    program.inputs.push_back(seed);
    ValueId product = b.emit(b.mul(b.ref(outputs[k]), b.ref(seed)),
                             b.tempName());
    ExprPtr sum = b.ref(b.reduceTo(product, {}));
    if (k == 0)
      lossType = type.dtype;
    sum = b.cast(std::move(sum), lossType);
    total = total ? b.add(std::move(total), std::move(sum)) : std::move(sum);
  }
  ValueId loss = b.emit(std::move(total), "L");
  program.values[loss].name = "L"; // also when emit returned the sum itself
  for (Statement &st : emitted)
    program.statements.push_back(std::move(st));
  return loss;
}
