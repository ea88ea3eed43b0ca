//===- GradBuilder.cpp - Building typed statements for gradients ----------===//
//
// Part of lib/Autodiff; see GradBuilder.h.
//
//===----------------------------------------------------------------------===//

#include "GradBuilder.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::autodiff;

/// NumPy's broadcast of two shapes that are known to broadcast (the rules
/// only combine a node's operands and its adjoint, which do).
static std::vector<int64_t> broadcast(const std::vector<int64_t> &a,
                                      const std::vector<int64_t> &b) {
  const std::vector<int64_t> &longer = a.size() >= b.size() ? a : b;
  const std::vector<int64_t> &shorter = a.size() >= b.size() ? b : a;
  std::vector<int64_t> shape = longer;
  size_t offset = longer.size() - shorter.size();
  for (size_t k = 0; k < shorter.size(); ++k)
    if (shape[offset + k] == 1)
      shape[offset + k] = shorter[k];
  return shape;
}

static bool isComparison(ExprOp op) {
  return op == ExprOp::Lt || op == ExprOp::Gt || op == ExprOp::Le ||
         op == ExprOp::Ge || op == ExprOp::Eq || op == ExprOp::Ne;
}

bool tilec::autodiff::isScalar(const Expr &e, double value) {
  if (e.op != ExprOp::Const)
    return false;
  return isFloat(e.constant.dtype) ? e.constant.f == value
                                   : double(e.constant.i) == value;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

ValueId GradBuilder::newValue(const std::string &name,
                              const TensorType &type) {
  program.values.push_back(typed::Value{name, type, loc});
  return ValueId(program.values.size() - 1);
}

Statement &GradBuilder::addStatement(Statement::Kind kind, ValueId result) {
  Statement st;
  st.kind = kind;
  st.loc = loc;
  st.results.push_back(result);
  st.label = program.values[result].name;
  out.push_back(std::move(st));
  return out.back();
}

ValueId GradBuilder::emit(ExprPtr e, const std::string &name) {
  if (e->op == ExprOp::Ref && e->origin == typed::ExprOrigin::None &&
      e->type == typeOf(e->ref))
    return e->ref;
  ValueId id = newValue(name, e->type);
  addStatement(Statement::Kind::Elementwise, id).expr = std::move(e);
  return id;
}

void GradBuilder::emitInto(ValueId result, ExprPtr e) {
  addStatement(Statement::Kind::Elementwise, result).expr = std::move(e);
}

ValueId GradBuilder::emitContraction(std::unique_ptr<typed::Contraction> c,
                                     const TensorType &type,
                                     const std::string &name) {
  ValueId id = newValue(name, type);
  Statement &st = addStatement(Statement::Kind::Contraction, id);
  for (const typed::Access &a : c->operands)
    st.operands.push_back(a.value);
  st.contraction = std::move(c);
  return id;
}

ValueId GradBuilder::emitStatement(Statement::Kind kind,
                                   std::vector<ValueId> operands,
                                   const TensorType &type,
                                   const std::string &name) {
  ValueId id = newValue(name, type);
  addStatement(kind, id).operands = std::move(operands);
  return id;
}

ValueId GradBuilder::reduceTo(ValueId v, const std::vector<int64_t> &shape) {
  const std::vector<int64_t> in = typeOf(v).shape;
  if (in == shape)
    return v;
  // As simple_reduce: the trailing dims of `in` align with `shape`; a dim
  // kept where the sizes agree (and are not a broadcast 1), summed away
  // otherwise.
  auto c = std::make_unique<typed::Contraction>();
  c->agg = ast::AggKind::Sum;
  c->comb = ast::CombKind::None;
  typed::Access access{v, {}, loc};
  for (size_t k = 0; k < in.size(); ++k) {
    c->vars.push_back({"x" + std::to_string(k), loc, 0, in[k] - 1});
    access.indices.push_back(Affine::variable(k));
  }
  size_t offset = in.size() - shape.size();
  for (size_t j = 0; j < shape.size(); ++j) {
    size_t k = offset + j;
    c->outIndices.push_back(shape[j] == in[k] && in[k] != 1
                                ? Affine::variable(k)
                                : Affine());
  }
  c->operands.push_back(std::move(access));
  c->combineType = typeOf(v).dtype;
  return emitContraction(std::move(c), TensorType{typeOf(v).dtype, shape},
                         tempName());
}

ValueId GradBuilder::ones(const TensorType &type) {
  auto key = std::make_pair(type.dtype, type.shape);
  auto it = onesByType.find(key);
  if (it != onesByType.end())
    return it->second;
  ValueId id = emit(scalar(1.0, type.dtype, type.shape), tempName());
  onesByType[key] = id;
  return id;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

ExprPtr GradBuilder::ref(ValueId v) {
  auto e = std::make_unique<Expr>();
  e->op = ExprOp::Ref;
  e->type = typeOf(v);
  e->loc = loc;
  e->ref = v;
  return e;
}

ExprPtr GradBuilder::scalar(double value, DType t,
                            std::vector<int64_t> shape) {
  auto e = std::make_unique<Expr>();
  e->op = ExprOp::Const;
  e->type = TensorType{t, std::move(shape)};
  e->loc = loc;
  e->constant.dtype = t;
  if (isFloat(t))
    e->constant.f = value;
  else
    e->constant.i = int64_t(value);
  return e;
}

ExprPtr GradBuilder::node(ExprOp op, std::vector<ExprPtr> args) {
  auto e = std::make_unique<Expr>();
  e->op = op;
  e->loc = loc;
  std::vector<int64_t> shape;
  for (const ExprPtr &a : args)
    shape = broadcast(shape, a->type.shape);
  DType t = op == ExprOp::Select ? args[1]->type.dtype : args[0]->type.dtype;
  if (isComparison(op))
    t = DType::Bool;
  e->type = TensorType{t, shape};
  e->args = std::move(args);
  return e;
}

ExprPtr GradBuilder::cast(ExprPtr a, DType t) {
  if (a->type.dtype == t)
    return a;
  if (a->op == ExprOp::Const && isFloat(t) && isFloat(a->type.dtype))
    return scalar(a->constant.f, t, a->type.shape);
  auto e = std::make_unique<Expr>();
  e->op = ExprOp::Cast;
  e->loc = loc;
  e->type = TensorType{t, a->type.shape};
  e->args.push_back(std::move(a));
  return e;
}

ExprPtr GradBuilder::select(ExprPtr c, ExprPtr t, ExprPtr f) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(c));
  args.push_back(std::move(t));
  args.push_back(std::move(f));
  return node(ExprOp::Select, std::move(args));
}

ExprPtr GradBuilder::scale(ExprPtr adj, ExprPtr g, ExprOp op) {
  // C ? A : 0  ->  C ? A op g : 0 (and the mirrored form).
  if (adj->op == ExprOp::Select) {
    for (unsigned branch : {1u, 2u}) {
      if (!isScalar(*adj->args[3 - branch], 0))
        continue;
      std::vector<int64_t> shape = adj->type.shape;
      ExprPtr inner = scale(std::move(adj->args[branch]), std::move(g), op);
      ExprPtr zero = scalar(0.0, inner->type.dtype);
      ExprPtr cond = std::move(adj->args[0]);
      ExprPtr result = branch == 1 ? select(std::move(cond), std::move(inner),
                                            std::move(zero))
                                   : select(std::move(cond), std::move(zero),
                                            std::move(inner));
      return result;
    }
  }
  // 1 * g is g when it keeps the adjoint's shape.
  if (op == ExprOp::Mul && isScalar(*adj, 1) &&
      g->type.shape == adj->type.shape && g->type.dtype == adj->type.dtype)
    return g;
  return op == ExprOp::Mul ? mul(std::move(adj), std::move(g))
                           : div(std::move(adj), std::move(g));
}

ExprPtr GradBuilder::materialize(ExprPtr e, const std::string &name) {
  return ref(emit(std::move(e), name)); // emit keeps a whole value's Ref
}
