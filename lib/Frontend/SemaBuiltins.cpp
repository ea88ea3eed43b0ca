//===- SemaBuiltins.cpp - The builtin functions of section 8 --------------===//
//
// Math and casts become elementwise nodes; the inline-defined functions are
// bound through their expansions of docs/language.md 8.2 (so their types and
// NaN behaviour follow from the expansion); shape functions, gather, scatter
// and the random-number builtins become statements of their own; the
// bind-time helpers of 8.7 fold.
//
//===----------------------------------------------------------------------===//

#include "Binder.h"

#include <cmath>

using namespace tilec;
using namespace tilec::sema;
using ast::BinaryOp;
using ast::UnaryOp;

/// A second use of an operand that is a name or a constant.
static Operand dup(Binder &b, const Operand &op) {
  if (op.isTensor()) {
    Operand r = b.refOperand(op.expr->ref, op.loc);
    r.name = op.name;
    return r;
  }
  Operand r = b.constOperand(op.c, op.loc);
  r.name = op.name;
  return r;
}

static std::string argName(const Operand &op) {
  return op.name.empty() ? std::string("the argument") : "'" + op.name + "'";
}

std::optional<int64_t> Binder::constIntArg(const ast::Expr &call,
                                           const std::vector<Operand> &args,
                                           unsigned index) {
  const Operand &a = args[index];
  if (!a.isConst() || a.c.isFloat) {
    error(a.loc, "argument " + std::to_string(index + 1) + " of '" +
                     call.name + "' must be a constant integer");
    return std::nullopt;
  }
  return a.c.i;
}

/// Reads constant sizes from argument `first` on (reshape, simple_reduce,
/// prng_step): each at least 1, their product within the tensor limit.
static std::optional<std::vector<int64_t>>
sizeArgs(Binder &b, const ast::Expr &call, const std::vector<Operand> &args,
         unsigned first) {
  std::vector<int64_t> dims;
  for (unsigned k = first; k < args.size(); ++k) {
    auto v = b.constIntArg(call, args, k);
    if (!v)
      return std::nullopt;
    if (*v < 1) {
      b.error(args[k].loc, "argument " + std::to_string(k + 1) + " of '" +
                               call.name + "' must be at least 1, got " +
                               std::to_string(*v));
      return std::nullopt;
    }
    dims.push_back(*v);
  }
  if (dims.size() > kMaxRank) {
    b.error(call.loc, "'" + call.name + "' gives a rank above " +
                          std::to_string(kMaxRank));
    return std::nullopt;
  }
  int64_t count = elementCount(dims);
  if (count < 0 || count > kMaxElements) {
    b.error(call.loc, "'" + call.name + "' to " + shapeStr(dims) +
                          " is too large (at most 2^40 elements)");
    return std::nullopt;
  }
  return dims;
}

/// Marks the top node of an expansion with the builtin it came from, for
/// differentiation (TypedAST.h); a folded constant stays unmarked.
static std::optional<Operand> tagged(std::optional<Operand> op,
                                     typed::ExprOp top,
                                     typed::ExprOrigin origin) {
  if (op && op->isTensor() && op->expr->op == top)
    op->expr->origin = origin;
  return op;
}

/// Expands the functions of 8.2 that are plain elementwise formulas.
static std::optional<Operand> inlineElementwise(Binder &b, llvm::StringRef name,
                                                std::vector<Operand> &args,
                                                SMLoc loc) {
  for (Operand &a : args) {
    auto m = b.materialize(std::move(a));
    if (!m)
      return std::nullopt;
    a = std::move(*m);
  }
  auto zero = [&] { return b.constOperand(Const::weakInt(0), loc); };
  auto one = [&] { return b.constOperand(Const::weakFloat(1.0), loc); };
  Operand &x = args[0];
  if (name == "abs" || name == "relu") {
    auto lt = b.binary(BinaryOp::Lt, dup(b, x), zero(), loc);
    if (!lt)
      return std::nullopt;
    std::optional<Operand> onTrue =
        name == "abs" ? b.unary(UnaryOp::Neg, dup(b, x), loc) : zero();
    if (!onTrue)
      return std::nullopt;
    return tagged(b.select(std::move(*lt), std::move(*onTrue), dup(b, x), loc),
                  typed::ExprOp::Select,
                  name == "abs" ? typed::ExprOrigin::Abs
                                : typed::ExprOrigin::Relu);
  }
  if (name == "max" || name == "min") {
    Operand &y = args[1];
    auto lt = b.binary(BinaryOp::Lt, dup(b, x), dup(b, y), loc);
    if (!lt)
      return std::nullopt;
    bool isMax = name == "max";
    return b.select(std::move(*lt), dup(b, isMax ? y : x),
                    dup(b, isMax ? x : y), loc);
  }
  if (name == "sigmoid") {
    auto neg = b.unary(UnaryOp::Neg, dup(b, x), loc);
    if (!neg)
      return std::nullopt;
    auto e = b.math("exp", std::move(*neg), loc);
    if (!e)
      return std::nullopt;
    auto den = b.binary(BinaryOp::Add, one(), std::move(*e), loc);
    if (!den)
      return std::nullopt;
    return tagged(b.binary(BinaryOp::Div, one(), std::move(*den), loc),
                  typed::ExprOp::Div, typed::ExprOrigin::Sigmoid);
  }
  // builtin_binary_crossentropy(P, T, S): -T * log(P) - (1 - T) * log(1 - P)
  Operand &t = args[1];
  auto negT = b.unary(UnaryOp::Neg, dup(b, t), loc);
  auto logP = b.math("log", dup(b, x), loc);
  if (!negT || !logP)
    return std::nullopt;
  auto lhs = b.binary(BinaryOp::Mul, std::move(*negT), std::move(*logP), loc);
  auto oneMinusT =
      b.binary(BinaryOp::Sub, b.constOperand(Const::weakInt(1), loc),
               dup(b, t), loc);
  auto oneMinusP =
      b.binary(BinaryOp::Sub, b.constOperand(Const::weakInt(1), loc),
               dup(b, x), loc);
  if (!lhs || !oneMinusT || !oneMinusP)
    return std::nullopt;
  auto log1P = b.math("log", std::move(*oneMinusP), loc);
  if (!log1P)
    return std::nullopt;
  auto rhs = b.binary(BinaryOp::Mul, std::move(*oneMinusT), std::move(*log1P),
                      loc);
  if (!rhs)
    return std::nullopt;
  return b.binary(BinaryOp::Sub, std::move(*lhs), std::move(*rhs), loc);
}

/// builtin_softmax and builtin_logsoftmax (8.2) on X[R, C].
static std::optional<Operand> softmax(Binder &b, const ast::Expr &call,
                                      std::vector<Operand> &args, bool log) {
  auto r = b.constIntArg(call, args, 1);
  auto c = r ? b.constIntArg(call, args, 2) : std::nullopt;
  if (!c)
    return std::nullopt;
  Operand &x = args[0];
  if (!b.requireData(x))
    return std::nullopt;
  if (!x.isTensor() || x.type().shape != std::vector<int64_t>{*r, *c}) {
    b.error(call.loc, call.name + " needs a rank-2 tensor of shape [R, C]",
            {{x.loc, x.isTensor() ? argName(x) + " has shape " +
                                        shapeStr(x.type().shape) +
                                        " but R, C are " + shapeStr({*r, *c})
                                  : argName(x) + " is a constant"}});
    return std::nullopt;
  }
  SMLoc loc = call.loc;
  auto xv = b.valueOf(std::move(x));
  if (!xv)
    return std::nullopt;
  auto mx = b.reduceRows(ast::AggKind::Max, *xv, loc);
  if (!mx)
    return std::nullopt;
  auto diff = b.binary(BinaryOp::Sub, b.refOperand(*xv, loc),
                       b.refOperand(*mx, loc), loc);
  if (!diff)
    return std::nullopt;
  auto e = b.math("exp", std::move(*diff), loc);
  if (!e)
    return std::nullopt;
  auto ev = b.valueOf(std::move(*e));
  if (!ev)
    return std::nullopt;
  auto z = b.reduceRows(ast::AggKind::Sum, *ev, loc);
  if (!z)
    return std::nullopt;
  if (!log)
    return b.binary(BinaryOp::Div, b.refOperand(*ev, loc),
                    b.refOperand(*z, loc), loc);
  auto logZ = b.math("log", b.refOperand(*z, loc), loc);
  if (!logZ)
    return std::nullopt;
  auto sum = b.binary(BinaryOp::Add, b.refOperand(*mx, loc), std::move(*logZ),
                      loc);
  if (!sum)
    return std::nullopt;
  return b.binary(BinaryOp::Sub, b.refOperand(*xv, loc), std::move(*sum), loc);
}

static std::optional<Operand> castBuiltin(Binder &b, const ast::Expr &call,
                                          std::vector<Operand> &args) {
  llvm::StringRef name = call.name;
  DType t = DType::Bool;
  if (name != "as_bool") {
    auto w = b.constIntArg(call, args, 1);
    if (!w)
      return std::nullopt;
    int64_t width = *w;
    bool ok = false;
    const char *widths = "8, 16, 32 or 64";
    if (name == "as_float") {
      widths = "16, 32 or 64";
      ok = width == 16 || width == 32 || width == 64;
      t = width == 16 ? DType::F16 : width == 32 ? DType::F32 : DType::F64;
    } else if (name == "as_bfloat") {
      widths = "16";
      ok = width == 16;
      t = DType::BF16;
    } else {
      ok = width == 8 || width == 16 || width == 32 || width == 64;
      if (ok)
        t = name == "as_int" ? signedIntType(width) : unsignedIntType(width);
    }
    if (!ok) {
      b.error(args[1].loc, name + " takes a width of " + widths + ", not " +
                               std::to_string(width));
      return std::nullopt;
    }
  }
  if (!b.requireData(args[0]))
    return std::nullopt;
  return b.cast(std::move(args[0]), t, call.loc);
}

static std::optional<Operand> reshape(Binder &b, const ast::Expr &call,
                                      std::vector<Operand> &args) {
  auto dims = sizeArgs(b, call, args, 1);
  if (!dims)
    return std::nullopt;
  Operand &x = args[0];
  std::string name = argName(x);
  auto id = b.valueOf(std::move(x));
  if (!id)
    return std::nullopt;
  const TensorType in = b.program.values[*id].type;
  int64_t have = elementCount(in.shape), want = elementCount(*dims);
  if (have != want) {
    b.error(call.loc, "cannot reshape " + name + " (" + std::to_string(have) +
                          " elements) to " + shapeStr(*dims) + " (" +
                          std::to_string(want) + " elements)");
    return std::nullopt;
  }
  std::string label = b.tempName();
  auto out = b.newValue(label, TensorType{in.dtype, *dims}, call.loc);
  if (!out)
    return std::nullopt;
  typed::Statement &st =
      b.addStatement(typed::Statement::Kind::Reshape, call.loc, label);
  st.results.push_back(*out);
  st.operands.push_back(*id);
  return b.refOperand(*out, call.loc);
}

/// The tensor argument `k` of a builtin that needs one, with rank >= 1 when
/// `needsRank`.
static bool requireTensor(Binder &b, const ast::Expr &call, const Operand &a,
                          bool needsRank) {
  if (!b.requireData(a))
    return false;
  if (!a.isTensor() || (needsRank && a.type().shape.empty()))
    return b.error(a.loc, call.name + " needs a tensor of rank 1 or more");
  return true;
}

static std::optional<Operand> shapeOrIndex(Binder &b, const ast::Expr &call,
                                           std::vector<Operand> &args) {
  Operand &x = args[0];
  if (!requireTensor(b, call, x, true))
    return std::nullopt;
  std::vector<int64_t> shape = x.type().shape;
  if (call.name == "index") {
    auto axis = b.constIntArg(call, args, 1);
    if (!axis)
      return std::nullopt;
    if (*axis < 0 || *axis >= int64_t(shape.size())) {
      b.error(args[1].loc, "axis " + std::to_string(*axis) +
                               " is out of range for " + argName(x) +
                               " of rank " + std::to_string(shape.size()));
      return std::nullopt;
    }
    Operand out;
    out.kind = Bound::Kind::Tensor;
    out.loc = call.loc;
    out.expr = std::make_unique<typed::Expr>();
    out.expr->op = typed::ExprOp::Index;
    out.expr->type = TensorType{DType::I32, shape};
    out.expr->loc = call.loc;
    out.expr->axis = unsigned(*axis);
    return out;
  }
  std::string label = b.tempName();
  auto id = b.newValue(
      label, TensorType{DType::I32, {int64_t(shape.size())}}, call.loc);
  if (!id)
    return std::nullopt;
  typed::Statement &st =
      b.addStatement(typed::Statement::Kind::Literal, call.loc, label);
  st.results.push_back(*id);
  for (int64_t d : shape) {
    typed::Scalar s;
    s.dtype = DType::I32;
    s.i = wrapInt(d, DType::I32);
    st.literal.push_back(s);
  }
  return b.refOperand(*id, call.loc);
}

static bool requireIndices(Binder &b, const ast::Expr &call, const Operand &a) {
  if (!b.requireData(a))
    return false;
  if (!a.isTensor())
    return b.error(a.loc, call.name + " indices must be an integer tensor, "
                                      "got a constant");
  if (!isInteger(a.type().dtype))
    return b.error(a.loc, call.name + " indices must be integers, got " +
                              std::string(dtypeName(a.type().dtype)));
  return true;
}

static std::optional<Operand> gatherScatter(Binder &b, const ast::Expr &call,
                                            std::vector<Operand> &args) {
  bool isGather = call.name == "gather";
  Operand &data = args[0];
  Operand &idx = args[1];
  if (!requireTensor(b, call, data, isGather) ||
      !requireIndices(b, call, idx))
    return std::nullopt;
  TensorType out;
  std::vector<int64_t> d = data.type().shape, i = idx.type().shape;
  out.dtype = data.type().dtype;
  if (isGather) {
    out.shape = i;
    out.shape.insert(out.shape.end(), d.begin() + 1, d.end());
  } else {
    if (!requireTensor(b, call, args[2], true))
      return std::nullopt;
    if (d.size() < i.size() ||
        !std::equal(i.begin(), i.end(), d.begin())) {
      b.error(call.loc, "scatter: the shape of " + argName(data) + " " +
                            shapeStr(d) + " must begin with the shape of " +
                            argName(idx) + " " + shapeStr(i));
      return std::nullopt;
    }
    out.shape = {args[2].type().shape[0]};
    out.shape.insert(out.shape.end(), d.begin() + i.size(), d.end());
  }
  std::vector<ValueId> operands;
  for (Operand &a : args) {
    auto id = b.valueOf(std::move(a));
    if (!id)
      return std::nullopt;
    operands.push_back(*id);
  }
  std::string label = b.tempName();
  auto id = b.newValue(label, out, call.loc);
  if (!id)
    return std::nullopt;
  typed::Statement &st = b.addStatement(
      isGather ? typed::Statement::Kind::Gather
               : typed::Statement::Kind::Scatter,
      call.loc, label);
  st.results.push_back(*id);
  st.operands = operands;
  return b.refOperand(*id, call.loc);
}

static std::optional<Operand> prng(Binder &b, const ast::Expr &call,
                                   std::vector<Operand> &args) {
  if (call.name == "prng_step") {
    Operand &s = args[0];
    if (!b.requireData(s))
      return std::nullopt;
    bool ok = s.isTensor() && s.type().dtype == DType::U32 &&
              s.type().shape == std::vector<int64_t>{3, 2048};
    if (!ok) {
      b.error(s.loc, "prng_step needs a u32 state of shape [3, 2048], got " +
                         (s.isTensor() ? std::string(dtypeName(s.type().dtype)) +
                                             " " + shapeStr(s.type().shape)
                                       : std::string("a constant")));
      return std::nullopt;
    }
    auto dims = sizeArgs(b, call, args, 1);
    if (!dims)
      return std::nullopt;
    auto state = b.valueOf(std::move(s));
    if (!state)
      return std::nullopt;
    PrngHandle h;
    h.state = *state;
    h.shape = *dims;
    h.loc = call.loc;
    b.handles.push_back(h);
    Operand out;
    out.kind = Bound::Kind::Handle;
    out.handle = b.handles.size() - 1;
    out.loc = call.loc;
    return out;
  }
  Operand &hop = args[0];
  if (hop.kind != Bound::Kind::Handle) {
    b.error(hop.loc, call.name + " needs a handle from prng_step");
    return std::nullopt;
  }
  PrngHandle &h = b.handles[hop.handle];
  bool wantValue = call.name == "prng_value";
  (wantValue ? h.valueUses : h.stateUses)++;
  if (!h.results) {
    std::string base = h.name.empty() ? b.tempName() : h.name;
    auto v = b.newValue(b.scope->prefix + base + ".value",
                        TensorType{DType::F32, h.shape}, h.loc);
    auto s = v ? b.newValue(b.scope->prefix + base + ".state",
                            TensorType{DType::U32, {3, 2048}}, h.loc)
               : std::nullopt;
    if (!s)
      return std::nullopt;
    typed::Statement &st = b.addStatement(typed::Statement::Kind::Prng, h.loc,
                                          b.scope->prefix + base);
    st.results = {*v, *s};
    st.operands = {h.state};
    h.results = std::make_pair(*v, *s);
  }
  return b.refOperand(wantValue ? h.results->first : h.results->second,
                      call.loc);
}

/// The helpers of 8.7.
static std::optional<Operand> bindTime(Binder &b, const ast::Expr &call,
                                       std::vector<Operand> &args) {
  llvm::StringRef name = call.name;
  if (name == "tuple") {
    Operand out;
    out.kind = Bound::Kind::Tuple;
    out.loc = call.loc;
    for (Operand &a : args) {
      Bound e;
      e.kind = a.kind;
      if (a.kind == Bound::Kind::Handle) {
        b.error(a.loc, "a random-number handle cannot be put in a tuple");
        return std::nullopt;
      }
      if (a.isConst())
        e.c = a.c;
      else if (a.kind == Bound::Kind::Tuple)
        e.elems = a.elems;
      else {
        auto id = b.valueOf(std::move(a));
        if (!id)
          return std::nullopt;
        e.id = *id;
      }
      out.elems.push_back(std::move(e));
    }
    return out;
  }
  if (name == "element") {
    Operand &t = args[0];
    if (t.kind != Bound::Kind::Tuple) {
      b.error(t.loc,
              "element needs a tuple, but " + argName(t) + " is not one");
      return std::nullopt;
    }
    auto k = b.constIntArg(call, args, 1);
    if (!k)
      return std::nullopt;
    if (*k < 0 || *k >= int64_t(t.elems.size())) {
      b.error(args[1].loc, "element " + std::to_string(*k) +
                               " is out of range for a tuple of " +
                               std::to_string(t.elems.size()) + " values");
      return std::nullopt;
    }
    return b.fromBound(t.elems[*k], "", call.loc);
  }
  for (const Operand &a : args) {
    if (!b.requireData(a))
      return std::nullopt;
    if (!a.isConst()) {
      b.error(a.loc, std::string(name.starts_with("assert_") ? "assert_"
                                                            : name.str()) +
                         " works on constants only; " + argName(a) +
                         " is a tensor");
      return std::nullopt;
    }
  }
  if (name.starts_with("assert_")) {
    const Const &c = args[0].c;
    bool holds = c.isFloat ? c.f != 0 || std::isnan(c.f) : c.i != 0;
    if (!holds) {
      b.error(call.loc, "assertion '" + name + "' failed");
      return std::nullopt;
    }
    return b.constOperand(c, call.loc);
  }
  const Const &x = args[0].c, &y = args[1].c;
  if (name == "mod") {
    if (x.isFloat || y.isFloat) {
      double r = std::fmod(x.asDouble(), y.asDouble());
      if (y.asDouble() == 0) {
        b.error(call.loc, "mod: division by zero");
        return std::nullopt;
      }
      return b.constOperand(Const::weakFloat(r), call.loc);
    }
    if (y.i == 0) {
      b.error(call.loc, "mod: division by zero");
      return std::nullopt;
    }
    int64_t r = (y.i == -1) ? 0 : x.i % y.i;
    Const c = Const::weakInt(r);
    if (x.type || y.type) {
      DType t = x.type && y.type ? joinDTypes(*x.type, *y.type)
                                 : (x.type ? *x.type : *y.type);
      c = convertConst(c, t);
    }
    return b.constOperand(c, call.loc);
  }
  // broadcast and match compare sizes.
  if (x.isFloat || y.isFloat) {
    b.error(call.loc, name + " takes integer sizes");
    return std::nullopt;
  }
  if (name == "match") {
    if (x.i != y.i) {
      b.error(call.loc, "match: " + x.str() + " and " + y.str() + " differ");
      return std::nullopt;
    }
    return b.constOperand(x, call.loc);
  }
  if (x.i == y.i || y.i == 1)
    return b.constOperand(x, call.loc);
  if (x.i == 1)
    return b.constOperand(y, call.loc);
  b.error(call.loc, "broadcast: sizes " + x.str() + " and " + y.str() +
                        " differ and neither is 1");
  return std::nullopt;
}

std::optional<Operand> Binder::bindBuiltin(const BuiltinInfo &info,
                                           const ast::Expr &call,
                                           std::vector<Operand> args) {
  llvm::StringRef name = call.name;
  switch (info.kind) {
  case BuiltinKind::Math:
    if (name == "pow")
      return power(std::move(args[0]), std::move(args[1]), call.loc);
    return math(name, std::move(args[0]), call.loc);
  case BuiltinKind::Inline:
    if (name == "reverse_grad")
      return gradientMarker(call, std::move(args));
    if (name == "builtin_softmax" || name == "builtin_logsoftmax")
      return softmax(*this, call, args, name == "builtin_logsoftmax");
    for (const Operand &a : args)
      if (!requireData(a))
        return std::nullopt;
    return inlineElementwise(*this, name, args, call.loc);
  case BuiltinKind::Cast:
    return castBuiltin(*this, call, args);
  case BuiltinKind::Shape:
    if (name == "reshape")
      return reshape(*this, call, args);
    if (name == "ident") {
      if (!requireData(args[0]))
        return std::nullopt;
      return std::move(args[0]);
    }
    if (name == "simple_reduce") {
      auto dims = sizeArgs(*this, call, args, 1);
      if (!dims || !requireTensor(*this, call, args[0], false))
        return std::nullopt;
      std::string xName = argName(args[0]);
      auto id = valueOf(std::move(args[0]));
      if (!id)
        return std::nullopt;
      auto out = simpleReduce(*id, *dims, xName, call.loc);
      if (!out)
        return std::nullopt;
      return refOperand(*out, call.loc);
    }
    return shapeOrIndex(*this, call, args);
  case BuiltinKind::Gather:
    return gatherScatter(*this, call, args);
  case BuiltinKind::Prng:
    return prng(*this, call, args);
  case BuiltinKind::BindTime:
    return bindTime(*this, call, args);
  case BuiltinKind::Gradient:
    if (name == "stop_grad")
      return gradientMarker(call, std::move(args));
    auto results = bindGrad(call, std::move(args));
    if (!results)
      return std::nullopt;
    return std::move(results->front());
  }
  return std::nullopt;
}
