//===- SemaGrad.cpp - grad, stop_grad and reverse_grad (8.8) --------------===//
//
// The binder does not differentiate: it types `grad(L, X1, ..., Xn)` (each
// result has its Xi's shape and type, so shape errors point at the call) and
// leaves a Grad placeholder statement that lib/Autodiff expands. stop_grad
// and reverse_grad pass their argument through as a marked Ref, which the
// evaluators read as the argument and differentiation as a marker.
//
//===----------------------------------------------------------------------===//

#include "Binder.h"

using namespace tilec;
using namespace tilec::sema;

/// "'W'" or "argument 3" for messages about argument `k` (0-based).
static std::string argText(const Operand &op, size_t k) {
  return op.name.empty() ? "argument " + std::to_string(k + 1)
                         : "'" + op.name + "'";
}

std::optional<std::vector<Operand>>
Binder::bindGrad(const ast::Expr &call, std::vector<Operand> args) {
  for (const Operand &a : args)
    if (!requireData(a))
      return std::nullopt;
  Operand &loss = args[0];
  if (!loss.isTensor()) {
    error(loss.loc, "the loss of 'grad' must be a tensor; " +
                        argText(loss, 0) + " is a constant");
    return std::nullopt;
  }
  if (!isFloat(loss.type().dtype)) {
    error(loss.loc, "cannot differentiate " + argText(loss, 0) +
                        ": it has type " + std::string(dtypeName(loss.type().dtype)) +
                        "; the loss must be a float tensor");
    return std::nullopt;
  }
  std::vector<ValueId> wrts;
  for (size_t k = 1; k < args.size(); ++k) {
    const Operand &x = args[k];
    if (!isPlainRef(x)) {
      std::string why = x.isConst() ? (x.name.empty()
                                           ? std::string("it is a constant")
                                           : "'" + x.name + "' is a constant")
                                    : std::string("it is an expression");
      error(x.loc, "argument " + std::to_string(k + 1) +
                       " of 'grad' must name a tensor; " + why);
      return std::nullopt;
    }
    DType t = x.type().dtype;
    if (!isFloat(t)) {
      error(x.loc, "cannot differentiate with respect to " + argText(x, k) +
                       ": it has " +
                       (t == DType::Bool ? std::string("type bool")
                                         : "integer type " +
                                               std::string(dtypeName(t))));
      return std::nullopt;
    }
    wrts.push_back(x.expr->ref);
  }
  auto lossId = valueOf(std::move(loss));
  if (!lossId)
    return std::nullopt;

  std::vector<ValueId> results;
  for (ValueId x : wrts) {
    auto id = newValue(tempName(), program.values[x].type, call.loc);
    if (!id)
      return std::nullopt;
    results.push_back(*id);
  }
  std::string label = program.values[results[0]].name;
  typed::Statement &st =
      addStatement(typed::Statement::Kind::Grad, call.loc, label);
  st.results = results;
  st.operands.push_back(*lossId);
  st.operands.insert(st.operands.end(), wrts.begin(), wrts.end());

  std::vector<Operand> out;
  for (ValueId id : results)
    out.push_back(refOperand(id, call.loc));
  return out;
}

std::optional<Operand> Binder::gradientMarker(const ast::Expr &call,
                                              std::vector<Operand> args) {
  for (const Operand &a : args)
    if (!requireData(a))
      return std::nullopt;
  // A constant has no derivative to stop or reverse.
  if (!args[0].isTensor())
    return std::move(args[0]);
  bool reverse = call.name == "reverse_grad";
  std::string name = args[0].name;
  auto id = valueOf(std::move(args[0]));
  if (!id)
    return std::nullopt;
  Operand marked = refOperand(*id, call.loc);
  marked.name = name;
  marked.expr->origin =
      reverse ? typed::ExprOrigin::ReverseGrad : typed::ExprOrigin::StopGrad;
  if (!reverse)
    return marked;
  // reverse_grad's scale G, in X's type. A G that does not broadcast to X's
  // shape is kept out: differentiating through it is then an error
  // (lib/Autodiff), evaluating it is not.
  Operand &g = args[1];
  const TensorType &xt = program.values[*id].type;
  if (g.isConst()) {
    marked.expr->args.push_back(exprOf(std::move(g), xt.dtype));
    return marked;
  }
  int64_t a = 0, b = 0;
  auto shape = broadcastShapes(xt.shape, g.type().shape, a, b);
  if (shape && *shape == xt.shape) {
    auto gm = materialize(std::move(g));
    if (!gm)
      return std::nullopt;
    marked.expr->args.push_back(exprOf(std::move(*gm), xt.dtype));
  }
  return marked;
}
