//===- ElementwiseRules.cpp - Derivatives of elementwise statements -------===//
//
// An elementwise statement is differentiated node by node down its
// expression tree (as Halide does), with the table of design/AUTODIFF.md's
// appendix. Forward subexpressions a derivative needs are recomputed
// (cloned) inside the backward expression rather than stored, so they fuse
// into the kernels that consume them; the statement's own result is read
// back. Nodes marked by the binder use the conventions of 7.5: relu'(0) = 0,
// abs'(0) = 0, sigmoid' = Y * (1 - Y), stop_grad and reverse_grad.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include <map>

using namespace tilec;
using namespace tilec::autodiff;
using typed::ExprOrigin;

static bool isBitOrComparison(ExprOp op) {
  switch (op) {
  case ExprOp::Lt: case ExprOp::Gt: case ExprOp::Le: case ExprOp::Ge:
  case ExprOp::Eq: case ExprOp::Ne: case ExprOp::BitNot: case ExprOp::Shl:
  case ExprOp::Shr: case ExprOp::BitAnd: case ExprOp::BitXor:
  case ExprOp::BitOr:
    return true;
  default:
    return false;
  }
}

/// Calls `visit` on every child of `e` a derivative flows into.
template <typename F> static void forEachDifferentiableArg(const Expr &e, F visit) {
  switch (e.op) {
  case ExprOp::Ref:
  case ExprOp::Const:
  case ExprOp::Index:
  case ExprOp::Floor:
  case ExprOp::Ceil:
  case ExprOp::Round:
    return;
  case ExprOp::Cast:
    if (isFloat(e.type.dtype) && isFloat(e.args[0]->type.dtype))
      visit(*e.args[0]);
    return;
  case ExprOp::Select:
    visit(*e.args[1]);
    visit(*e.args[2]);
    return;
  case ExprOp::Pow:
    visit(*e.args[0]);
    if (isFloat(e.args[1]->type.dtype))
      visit(*e.args[1]);
    return;
  default:
    if (isBitOrComparison(e.op) || !isFloat(e.type.dtype))
      return;
    for (const ExprPtr &arg : e.args)
      visit(*arg);
  }
}

/// The values a derivative can flow into from `e`.
static void collectInputs(const typed::Program &p, const Expr &e,
                          std::vector<ValueId> &out) {
  if (e.op == ExprOp::Ref) {
    if (e.origin != ExprOrigin::StopGrad && isFloat(p.value(e.ref).type.dtype))
      out.push_back(e.ref);
    return;
  }
  forEachDifferentiableArg(e, [&](const Expr &a) { collectInputs(p, a, out); });
}

std::vector<ValueId> tilec::autodiff::elementwiseInputs(const typed::Program &p,
                                                        const Statement &st) {
  std::vector<ValueId> out;
  collectInputs(p, *st.expr, out);
  return out;
}

namespace {

class ElementwiseDiff {
public:
  ElementwiseDiff(RuleContext &ctx, const Statement &st)
      : ctx(ctx), b(ctx.b), st(st) {}

  bool run(ValueId dy) { return visit(*st.expr, b.ref(dy)); }

private:
  /// Whether a derivative flows from `e` into a value on the path.
  /// Remembered per node: visit asks it at every level of the tree.
  bool reaches(const Expr &e) {
    auto known = reached.find(&e);
    if (known != reached.end())
      return known->second;
    bool any = false;
    if (e.op == ExprOp::Ref)
      any = e.origin != ExprOrigin::StopGrad &&
            isFloat(b.typeOf(e.ref).dtype) && ctx.onPath(e.ref);
    else
      forEachDifferentiableArg(e,
                               [&](const Expr &a) { any = any || reaches(a); });
    reached[&e] = any;
    return any;
  }

  /// The forward value of node `e`: the statement's result at the root,
  /// else recomputed.
  ExprPtr forward(const Expr &e) {
    if (&e == st.expr.get() && e.type == b.typeOf(st.results[0]))
      return b.ref(st.results[0]);
    return clone(e);
  }
  static ExprPtr clone(const Expr &e) { return typed::cloneExpr(e); }
  ExprPtr num(double v, const Expr &like) {
    return b.scalar(v, like.type.dtype);
  }
  /// An adjoint used more than once becomes a value first, so backward
  /// expressions stay linear in the forward's size.
  ExprPtr share(ExprPtr adj) {
    if (adj->op == ExprOp::Ref || adj->op == ExprOp::Const)
      return adj;
    return b.materialize(std::move(adj), b.tempName());
  }
  bool visitIf(const Expr &e, const std::function<ExprPtr()> &adj) {
    return !reaches(e) || visit(e, adj());
  }

  bool visit(const Expr &e, ExprPtr adj);
  bool visitSelect(const Expr &e, ExprPtr adj);
  bool visitMath(const Expr &e, ExprPtr adj);

  RuleContext &ctx;
  GradBuilder &b;
  const Statement &st;
  std::map<const Expr *, bool> reached;
};

bool ElementwiseDiff::visit(const Expr &e, ExprPtr adj) {
  if (!reaches(e))
    return true;
  // A node of a smaller shape than its parent was broadcast: its adjoint
  // is the parent's summed over the copies.
  if (adj->type.shape != e.type.shape) {
    ValueId whole = b.emit(std::move(adj), b.tempName());
    adj = b.ref(b.reduceTo(whole, e.type.shape));
  }
  const Expr *x = e.args.empty() ? nullptr : e.args[0].get();
  const Expr *y = e.args.size() > 1 ? e.args[1].get() : nullptr;
  switch (e.op) {
  case ExprOp::Ref:
    if (e.origin == ExprOrigin::ReverseGrad) {
      if (e.args.empty())
        return ctx.fail(st, "the scale of 'reverse_grad' does not broadcast "
                            "to its argument's shape");
      adj = b.neg(b.scale(std::move(adj), clone(*e.args[0])));
    }
    ctx.contribute(e.ref, std::move(adj));
    return true;
  case ExprOp::Cast:
    return visit(*x, b.cast(std::move(adj), x->type.dtype));
  case ExprOp::Neg:
    return visit(*x, b.neg(std::move(adj)));
  case ExprOp::Add:
  case ExprOp::Sub: {
    ExprPtr a = share(std::move(adj));
    bool sub = e.op == ExprOp::Sub;
    return visitIf(*x, [&] { return clone(*a); }) &&
           visitIf(*y, [&] { return sub ? b.neg(clone(*a)) : clone(*a); });
  }
  case ExprOp::Mul: {
    ExprPtr a = share(std::move(adj));
    return visitIf(*x, [&] { return b.scale(clone(*a), clone(*y)); }) &&
           visitIf(*y, [&] { return b.scale(clone(*a), clone(*x)); });
  }
  case ExprOp::Div: {
    if (e.origin == ExprOrigin::Sigmoid) {
      // 1 / (1 + exp(-X)): X four levels down.
      const Expr *den = y;
      if (den->op == ExprOp::Add && den->args[1]->op == ExprOp::Exp &&
          den->args[1]->args[0]->op == ExprOp::Neg) {
        const Expr &in = *den->args[1]->args[0]->args[0];
        ExprPtr yv = forward(e);
        ExprPtr slope = b.mul(forward(e), b.sub(num(1, e), std::move(yv)));
        return visit(in, b.scale(std::move(adj), std::move(slope)));
      }
    }
    ExprPtr a = share(std::move(adj));
    // d(x/y)/dy = -(x/y)/y.
    return visitIf(*x,
                   [&] { return b.scale(clone(*a), clone(*y), ExprOp::Div); }) &&
           visitIf(*y, [&] {
             return b.neg(b.scale(b.scale(clone(*a), forward(e)), clone(*y),
                                  ExprOp::Div));
           });
  }
  case ExprOp::Select:
    return visitSelect(e, std::move(adj));
  case ExprOp::Pow: {
    ExprPtr a = share(std::move(adj));
    DType t = e.type.dtype;
    return visitIf(*x,
                   [&] {
                     ExprPtr p = b.cast(clone(*y), t);
                     ExprPtr pm1 = b.sub(b.cast(clone(*y), t), num(1, e));
                     std::vector<ExprPtr> args;
                     args.push_back(clone(*x));
                     args.push_back(std::move(pm1));
                     ExprPtr slope =
                         b.mul(std::move(p), b.node(ExprOp::Pow, std::move(args)));
                     return b.scale(clone(*a), std::move(slope));
                   }) &&
           visitIf(*y, [&] {
             ExprPtr slope = b.mul(b.math(ExprOp::Log, clone(*x)), forward(e));
             return b.cast(b.scale(clone(*a), std::move(slope)),
                           y->type.dtype);
           });
  }
  default:
    return visitMath(e, std::move(adj));
  }
}

bool ElementwiseDiff::visitSelect(const Expr &e, ExprPtr adj) {
  const Expr &cond = *e.args[0];
  auto zero = [&] { return b.scalar(0.0, e.type.dtype); };
  if (e.origin == ExprOrigin::Relu || e.origin == ExprOrigin::Abs) {
    // X < 0 ? 0 : X  and  X < 0 ? -X : X, with X the false branch.
    const Expr &in = *e.args[2];
    auto positive = [&] {
      std::vector<ExprPtr> args;
      args.push_back(clone(in));
      args.push_back(zero());
      return b.node(ExprOp::Gt, std::move(args));
    };
    if (e.origin == ExprOrigin::Relu)
      return visit(in, b.select(positive(), std::move(adj), zero()));
    ExprPtr a = share(std::move(adj));
    std::vector<ExprPtr> args;
    args.push_back(clone(in));
    args.push_back(zero());
    ExprPtr negative = b.node(ExprOp::Lt, std::move(args));
    return visit(in, b.select(positive(), clone(*a),
                              b.select(std::move(negative), b.neg(clone(*a)),
                                       zero())));
  }
  ExprPtr a = share(std::move(adj));
  return visitIf(*e.args[1],
                 [&] { return b.select(clone(cond), clone(*a), zero()); }) &&
         visitIf(*e.args[2],
                 [&] { return b.select(clone(cond), zero(), clone(*a)); });
}

bool ElementwiseDiff::visitMath(const Expr &e, ExprPtr adj) {
  const Expr &x = *e.args[0];
  auto one = [&] { return num(1, e); };
  auto sq = [&](const Expr &v) { return b.mul(clone(v), clone(v)); };
  auto sqrt = [&](ExprPtr v) { return b.math(ExprOp::Sqrt, std::move(v)); };
  auto times = [&](ExprPtr g) { return visit(x, b.scale(std::move(adj), std::move(g))); };
  auto over = [&](ExprPtr g) {
    return visit(x, b.scale(std::move(adj), std::move(g), ExprOp::Div));
  };
  switch (e.op) {
  case ExprOp::Exp:
    return times(forward(e));
  case ExprOp::Log:
    return over(clone(x));
  case ExprOp::Sqrt:
    return over(b.mul(num(2, e), forward(e)));
  case ExprOp::Sin:
    return times(b.math(ExprOp::Cos, clone(x)));
  case ExprOp::Cos:
    return times(b.neg(b.math(ExprOp::Sin, clone(x))));
  case ExprOp::Tan:
    return times(b.add(one(), sq(e) /* recomputed */));
  case ExprOp::Asin:
    return over(sqrt(b.sub(one(), sq(x))));
  case ExprOp::Acos:
    return over(b.neg(sqrt(b.sub(one(), sq(x)))));
  case ExprOp::Atan:
    return over(b.add(one(), sq(x)));
  case ExprOp::Sinh:
    return times(b.math(ExprOp::Cosh, clone(x)));
  case ExprOp::Cosh:
    return times(b.math(ExprOp::Sinh, clone(x)));
  case ExprOp::Tanh: {
    ExprPtr y = forward(e);
    return times(b.sub(one(), b.mul(std::move(y), forward(e))));
  }
  case ExprOp::Asinh:
    return over(sqrt(b.add(sq(x), one())));
  case ExprOp::Acosh:
    return over(b.mul(sqrt(b.sub(clone(x), one())),
                      sqrt(b.add(clone(x), one()))));
  case ExprOp::Atanh:
    return over(b.sub(one(), sq(x)));
  default:
    // Integer arithmetic and rounding carry no derivative; reaches() keeps
    // them from getting here.
    return true;
  }
}

} // namespace

bool tilec::autodiff::elementwiseAdjoints(RuleContext &ctx,
                                          const Statement &st, ValueId dy) {
  return ElementwiseDiff(ctx, st).run(dy);
}
