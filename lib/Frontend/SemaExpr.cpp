//===- SemaExpr.cpp - Binding elementwise expressions ---------------------===//
//
// Turns expressions into typed elementwise trees (docs/language.md 6) or, when
// every operand is a constant, folds them (6.1). The typed tree states every
// conversion as a Cast node, so the operands of each arithmetic, bitwise and
// comparison node share the node's computation type (5.3).
//
//===----------------------------------------------------------------------===//

#include "Binder.h"

#include <cmath>

using namespace tilec;
using namespace tilec::sema;
using ast::BinaryOp;
using ast::UnaryOp;
using typed::ExprOp;

namespace {
/// Keeps the expression nesting bounded (deeply nested input must not
/// overflow the stack).
struct DepthGuard {
  unsigned &depth;
  explicit DepthGuard(unsigned &d) : depth(d) { ++depth; }
  ~DepthGuard() { --depth; }
};
} // namespace

static bool isComparison(BinaryOp op) {
  return op == BinaryOp::Lt || op == BinaryOp::Gt || op == BinaryOp::Le ||
         op == BinaryOp::Ge || op == BinaryOp::Eq || op == BinaryOp::Ne;
}
static bool isBitwise(BinaryOp op) {
  return op == BinaryOp::BitAnd || op == BinaryOp::BitOr ||
         op == BinaryOp::BitXor;
}
static bool isShift(BinaryOp op) {
  return op == BinaryOp::Shl || op == BinaryOp::Shr;
}

static ExprOp exprOpOf(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return ExprOp::Add;
  case BinaryOp::Sub: return ExprOp::Sub;
  case BinaryOp::Mul: return ExprOp::Mul;
  case BinaryOp::Div: return ExprOp::Div;
  case BinaryOp::Shl: return ExprOp::Shl;
  case BinaryOp::Shr: return ExprOp::Shr;
  case BinaryOp::Lt: return ExprOp::Lt;
  case BinaryOp::Gt: return ExprOp::Gt;
  case BinaryOp::Le: return ExprOp::Le;
  case BinaryOp::Ge: return ExprOp::Ge;
  case BinaryOp::Eq: return ExprOp::Eq;
  case BinaryOp::Ne: return ExprOp::Ne;
  case BinaryOp::BitAnd: return ExprOp::BitAnd;
  case BinaryOp::BitXor: return ExprOp::BitXor;
  case BinaryOp::BitOr: return ExprOp::BitOr;
  }
  return ExprOp::Add;
}

static std::optional<ExprOp> mathOpOf(llvm::StringRef name) {
  static const std::pair<const char *, ExprOp> table[] = {
      {"exp", ExprOp::Exp},     {"log", ExprOp::Log},
      {"sqrt", ExprOp::Sqrt},   {"sin", ExprOp::Sin},
      {"cos", ExprOp::Cos},     {"tan", ExprOp::Tan},
      {"asin", ExprOp::Asin},   {"acos", ExprOp::Acos},
      {"atan", ExprOp::Atan},   {"sinh", ExprOp::Sinh},
      {"cosh", ExprOp::Cosh},   {"tanh", ExprOp::Tanh},
      {"asinh", ExprOp::Asinh}, {"acosh", ExprOp::Acosh},
      {"atanh", ExprOp::Atanh}, {"floor", ExprOp::Floor},
      {"ceil", ExprOp::Ceil},   {"round", ExprOp::Round},
  };
  for (const auto &entry : table)
    if (name == entry.first)
      return entry.second;
  return std::nullopt;
}

static typed::ExprPtr makeNode(ExprOp op, DType dtype,
                               std::vector<int64_t> shape, SMLoc loc) {
  auto e = std::make_unique<typed::Expr>();
  e->op = op;
  e->type.dtype = dtype;
  e->type.shape = std::move(shape);
  e->loc = loc;
  return e;
}

static bool truthy(const Const &c) {
  return c.isFloat ? (c.f != 0 || std::isnan(c.f)) : c.i != 0;
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

Operand Binder::refOperand(ValueId id, SMLoc loc) {
  Operand op;
  op.kind = Bound::Kind::Tensor;
  op.expr = makeNode(ExprOp::Ref, DType::F32, {}, loc);
  op.expr->type = program.values[id].type;
  op.expr->ref = id;
  op.loc = loc;
  return op;
}

Operand Binder::constOperand(Const c, SMLoc loc) {
  Operand op;
  op.kind = Bound::Kind::Const;
  op.c = c;
  op.loc = loc;
  return op;
}

Operand Binder::tensorOperand(typed::ExprPtr expr, SMLoc loc) {
  Operand op;
  op.kind = Bound::Kind::Tensor;
  op.expr = std::move(expr);
  op.loc = loc;
  return op;
}

std::optional<Operand> Binder::foldedOperand(const FoldResult &r, SMLoc loc) {
  if (!r.value) {
    error(loc, r.error);
    return std::nullopt;
  }
  return constOperand(*r.value, loc);
}

std::optional<Operand> Binder::fromBound(const Bound &b,
                                         const std::string &name, SMLoc loc) {
  Operand op;
  switch (b.kind) {
  case Bound::Kind::Const:
    op = constOperand(b.c, loc);
    break;
  case Bound::Kind::Tensor:
    op = refOperand(b.id, loc);
    break;
  case Bound::Kind::Tuple:
    op.kind = Bound::Kind::Tuple;
    op.elems = b.elems;
    op.loc = loc;
    break;
  case Bound::Kind::Handle:
    op.kind = Bound::Kind::Handle;
    op.handle = b.handle;
    op.loc = loc;
    break;
  }
  op.name = name;
  return op;
}

bool Binder::requireData(const Operand &op) {
  if (op.kind == Bound::Kind::Tuple)
    return error(op.loc, op.name.empty()
                             ? std::string("a tuple cannot be used here; use "
                                           "element(<tuple>, <k>)")
                             : "'" + op.name + "' is a tuple; use element(" +
                                   op.name + ", <k>)");
  if (op.kind == Bound::Kind::Handle) {
    std::string name = op.name.empty() ? std::string("the handle of prng_step")
                                       : "'" + op.name + "'";
    return error(op.loc, name + " is a random-number handle; pass it to "
                                "prng_value and prng_state");
  }
  return true;
}

std::string Binder::describe(const Operand &op) {
  std::string shape = shapeStr(op.type().shape);
  return op.name.empty() ? shape : "'" + op.name + "' " + shape;
}

std::optional<std::vector<int64_t>>
Binder::broadcastAll(llvm::ArrayRef<const Operand *> ops, SMLoc loc) {
  std::vector<int64_t> shape;
  const Operand *first = nullptr;
  for (const Operand *op : ops) {
    if (!op->isTensor())
      continue;
    if (!first) {
      first = op;
      shape = op->type().shape;
      continue;
    }
    int64_t x = 0, y = 0;
    auto out = broadcastShapes(shape, op->type().shape, x, y);
    if (!out) {
      error(loc, "cannot broadcast " + describe(*first) + " with " +
                     describe(*op) + ": sizes " + std::to_string(x) + " and " +
                     std::to_string(y) + " differ");
      return std::nullopt;
    }
    shape = std::move(*out);
  }
  return shape;
}

typed::ExprPtr Binder::exprOf(Operand a, DType t) {
  if (a.isConst()) {
    auto e = makeNode(ExprOp::Const, t, {}, a.loc);
    e->constant = toScalar(a.c, t);
    return e;
  }
  if (a.expr->type.dtype == t)
    return std::move(a.expr);
  auto e = makeNode(ExprOp::Cast, t, a.expr->type.shape, a.loc);
  e->args.push_back(std::move(a.expr));
  return e;
}

Operand Binder::cast(Operand a, DType t, SMLoc loc) {
  if (a.isConst())
    return constOperand(convertConst(a.c, t), loc);
  return tensorOperand(exprOf(std::move(a), t), loc);
}

bool Binder::isPlainRef(const Operand &op) const {
  return op.isTensor() && op.expr->op == ExprOp::Ref &&
         op.expr->origin == typed::ExprOrigin::None &&
         op.expr->type == program.values[op.expr->ref].type;
}

std::optional<Operand> Binder::materialize(Operand a) {
  if (!a.isTensor() || isPlainRef(a))
    return a;
  std::string name = tempName();
  auto id = newValue(name, a.type(), a.loc);
  if (!id)
    return std::nullopt;
  typed::Statement &st =
      addStatement(typed::Statement::Kind::Elementwise, a.loc, name);
  st.results.push_back(*id);
  st.expr = std::move(a.expr);
  Operand ref = refOperand(*id, a.loc);
  ref.name = a.name;
  return ref;
}

std::optional<ValueId> Binder::valueOf(Operand a) {
  if (!requireData(a))
    return std::nullopt;
  if (a.isConst()) {
    DType t = a.c.defaultType();
    Operand tensor;
    tensor.kind = Bound::Kind::Tensor;
    tensor.loc = a.loc;
    tensor.expr = exprOf(std::move(a), t);
    a = std::move(tensor);
  }
  auto m = materialize(std::move(a));
  if (!m)
    return std::nullopt;
  return m->expr->ref;
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

/// The location a "does not fit" error points at: the weak constant.
static SMLoc weakConstLoc(const Operand &a, const Operand &b, SMLoc fallback) {
  if (a.isConst() && a.c.isWeak())
    return a.loc;
  if (b.isConst() && b.c.isWeak())
    return b.loc;
  return fallback;
}

std::optional<Operand> Binder::binary(BinaryOp op, Operand a, Operand b,
                                      SMLoc loc) {
  if (!requireData(a) || !requireData(b))
    return std::nullopt;
  bool cmp = isComparison(op);
  TypeInput ins[2];
  for (int k = 0; k < 2; ++k) {
    const Operand &o = k == 0 ? a : b;
    if (o.isTensor())
      ins[k].tensorType = o.type().dtype;
    else
      ins[k].constant = &o.c;
  }
  TypeDecision d = decideType(ins, cmp);
  if (!d.error.empty()) {
    error(weakConstLoc(a, b, loc), d.error);
    return std::nullopt;
  }
  std::string opText = std::string("'") + ast::spelling(op) + "'";
  // Shifts and arithmetic never compute in bool (5.3 step 3).
  if (!d.weak && d.type == DType::Bool && !cmp && !isBitwise(op))
    d.type = DType::I32;
  if (!d.weak && (isBitwise(op) || isShift(op)) && isFloat(d.type)) {
    error(loc, opText + " needs integer or bool operands, got " +
                   std::string(dtypeName(d.type)));
    return std::nullopt;
  }
  if (a.isConst() && b.isConst())
    return foldedOperand(d.weak ? foldBinary(op, a.c, b.c)
                                : foldBinary(op, convertConst(a.c, d.type),
                                             convertConst(b.c, d.type)),
                         loc);
  auto shape = broadcastAll({&a, &b}, loc);
  if (!shape)
    return std::nullopt;
  auto node = makeNode(exprOpOf(op), cmp ? DType::Bool : d.type,
                       std::move(*shape), loc);
  node->args.push_back(exprOf(std::move(a), d.type));
  node->args.push_back(exprOf(std::move(b), d.type));
  return tensorOperand(std::move(node), loc);
}

std::optional<Operand> Binder::unary(UnaryOp op, Operand a, SMLoc loc) {
  if (!requireData(a))
    return std::nullopt;
  if (a.isConst())
    return foldedOperand(foldUnary(op, a.c), loc);
  DType t = a.type().dtype;
  if (op == UnaryOp::BitNot && isFloat(t)) {
    error(loc, "'~' needs integer or bool operands, got " +
                   std::string(dtypeName(t)));
    return std::nullopt;
  }
  if (op == UnaryOp::Neg && t == DType::Bool)
    t = DType::I32;
  std::vector<int64_t> shape = a.type().shape;
  auto node = makeNode(op == UnaryOp::Neg ? ExprOp::Neg : ExprOp::BitNot, t,
                       shape, loc);
  node->args.push_back(exprOf(std::move(a), t));
  return tensorOperand(std::move(node), loc);
}

std::optional<Operand> Binder::select(Operand c, Operand t, Operand f,
                                      SMLoc loc) {
  if (!requireData(c) || !requireData(t) || !requireData(f))
    return std::nullopt;
  TypeInput ins[2];
  ins[0].tensorType = t.isTensor() ? std::optional<DType>(t.type().dtype)
                                   : std::nullopt;
  ins[0].constant = t.isTensor() ? nullptr : &t.c;
  ins[1].tensorType = f.isTensor() ? std::optional<DType>(f.type().dtype)
                                   : std::nullopt;
  ins[1].constant = f.isTensor() ? nullptr : &f.c;
  TypeDecision d = decideType(ins, false);
  if (!d.error.empty()) {
    error(weakConstLoc(t, f, loc), d.error);
    return std::nullopt;
  }
  if (c.isConst()) {
    Operand &chosen = truthy(c.c) ? t : f;
    if (d.weak)
      return std::move(chosen);
    return cast(std::move(chosen), d.type, loc);
  }
  if (d.weak)
    d.type = joinDTypes(t.c.defaultType(), f.c.defaultType());
  auto shape = broadcastAll({&c, &t, &f}, loc);
  if (!shape)
    return std::nullopt;
  auto node = makeNode(ExprOp::Select, d.type, std::move(*shape), loc);
  node->args.push_back(std::move(c.expr));
  node->args.push_back(exprOf(std::move(t), d.type));
  node->args.push_back(exprOf(std::move(f), d.type));
  return tensorOperand(std::move(node), loc);
}

std::optional<Operand> Binder::math(llvm::StringRef name, Operand a,
                                    SMLoc loc) {
  if (!requireData(a))
    return std::nullopt;
  if (a.isConst())
    return foldedOperand(foldMath(name, a.c), loc);
  DType t = a.type().dtype;
  bool keepsIntegers = name == "floor" || name == "ceil" || name == "round";
  if (!isFloat(t)) {
    if (keepsIntegers)
      return a;
    t = DType::F32;
  }
  std::vector<int64_t> shape = a.type().shape;
  auto node = makeNode(*mathOpOf(name), t, shape, loc);
  node->args.push_back(exprOf(std::move(a), t));
  return tensorOperand(std::move(node), loc);
}

std::optional<Operand> Binder::power(Operand a, Operand b, SMLoc loc) {
  if (!requireData(a) || !requireData(b))
    return std::nullopt;
  if (a.isConst() && b.isConst())
    return foldedOperand(foldPow(a.c, b.c), loc);
  // The join of the typed operands; the exponent is never converted, so a
  // weak constant need not fit the base's type (5.4).
  std::optional<DType> t;
  bool weakFloat = false;
  for (const Operand *o : {&a, &b}) {
    std::optional<DType> ot;
    if (o->isTensor())
      ot = o->type().dtype;
    else if (!o->c.isWeak())
      ot = *o->c.type;
    else
      weakFloat |= o->c.isFloat;
    if (ot)
      t = t ? joinDTypes(*t, *ot) : *ot;
  }
  DType rt = t.value_or(DType::F32);
  if (weakFloat && !isFloat(rt))
    rt = joinDTypes(rt, DType::F32);
  if (!isFloat(rt))
    rt = DType::F32;
  auto shape = broadcastAll({&a, &b}, loc);
  if (!shape)
    return std::nullopt;
  auto node = makeNode(ExprOp::Pow, rt, std::move(*shape), loc);
  node->args.push_back(exprOf(std::move(a), rt));
  DType expType = b.isTensor() ? b.type().dtype
                               : (b.c.isWeak() ? rt : *b.c.type);
  node->args.push_back(exprOf(std::move(b), expType));
  return tensorOperand(std::move(node), loc);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

std::optional<Operand> Binder::probeExpr(const ast::Expr &expr) {
  size_t numValues = program.values.size();
  size_t numStatements = program.statements.size();
  std::vector<PrngHandle> savedHandles = handles;
  std::map<std::string, unsigned> savedCalls = callCounter;
  unsigned savedTemps = tempCounter;
  DiagnosticEngine silent(diag->getSourceMgr(), llvm::nulls());
  DiagnosticEngine *real = diag;
  diag = &silent;
  std::optional<Operand> result = bindExpr(expr);
  diag = real;
  // Keep only what describes the value: its kind, type and shape.
  if (result && result->isTensor()) {
    TensorType type = result->type();
    Operand shapeOnly;
    shapeOnly.kind = Bound::Kind::Tensor;
    shapeOnly.loc = result->loc;
    shapeOnly.expr = std::make_unique<typed::Expr>();
    shapeOnly.expr->op = ExprOp::Const;
    shapeOnly.expr->type = type;
    result = std::move(shapeOnly);
  }
  program.values.resize(numValues);
  program.statements.resize(numStatements);
  handles = std::move(savedHandles);
  callCounter = std::move(savedCalls);
  tempCounter = savedTemps;
  return result;
}

/// `C ? T : F` with a constant C (6.1): the chosen branch, converted to the
/// join type of both branches and broadcast to both shapes. The other branch
/// is probed for its type only; its bind-time errors are not reported.
std::optional<Operand> Binder::constantCondition(bool cond,
                                                 const ast::Expr &expr) {
  auto chosen = bindExpr(*expr.operands[cond ? 1 : 2]);
  if (!chosen || !requireData(*chosen))
    return std::nullopt;
  auto other = probeExpr(*expr.operands[cond ? 2 : 1]);
  if (!other || (!other->isConst() && !other->isTensor()))
    return chosen;
  TypeInput ins[2];
  for (int k = 0; k < 2; ++k) {
    const Operand &o = k == 0 ? *chosen : *other;
    if (o.isTensor())
      ins[k].tensorType = o.type().dtype;
    else
      ins[k].constant = &o.c;
  }
  TypeDecision d = decideType(ins, false);
  if (d.weak || !d.error.empty())
    return chosen;
  auto shape = broadcastAll({&*chosen, &*other}, expr.loc);
  if (!shape)
    return std::nullopt;
  Operand result = cast(std::move(*chosen), d.type, expr.loc);
  if (result.isConst()) {
    if (shape->empty())
      return result;
    Operand tensor;
    tensor.kind = Bound::Kind::Tensor;
    tensor.loc = expr.loc;
    tensor.expr = exprOf(std::move(result), d.type);
    result = std::move(tensor);
  } else if (result.type().shape != *shape) {
    // A Ref reads its value broadcast to the node's shape.
    auto ref = materialize(std::move(result));
    if (!ref)
      return std::nullopt;
    result = std::move(*ref);
  }
  result.expr->type.shape = *shape;
  return result;
}

std::optional<Operand> Binder::bindExpr(const ast::Expr &expr) {
  DepthGuard guard(exprDepth);
  if (exprDepth > kMaxDepth) {
    error(expr.loc, "expression nested too deeply (more than " +
                        std::to_string(kMaxDepth) + " levels)");
    return std::nullopt;
  }
  switch (expr.kind) {
  case ast::Expr::Kind::IntLit:
    return constOperand(Const::weakInt(expr.intValue), expr.loc);
  case ast::Expr::Kind::FloatLit:
    return constOperand(Const::weakFloat(expr.floatValue), expr.loc);
  case ast::Expr::Kind::ValueRef: {
    const Bound *b = lookup(expr.name);
    if (!b) {
      error(expr.loc, "use of undefined name '" + expr.name + "'");
      return std::nullopt;
    }
    return fromBound(*b, expr.name, expr.loc);
  }
  case ast::Expr::Kind::Unary: {
    auto a = bindExpr(*expr.operands[0]);
    if (!a)
      return std::nullopt;
    return unary(expr.unaryOp, std::move(*a), expr.loc);
  }
  case ast::Expr::Kind::Binary: {
    auto a = bindExpr(*expr.operands[0]);
    if (!a)
      return std::nullopt;
    auto b = bindExpr(*expr.operands[1]);
    if (!b)
      return std::nullopt;
    return binary(expr.binaryOp, std::move(*a), std::move(*b), expr.loc);
  }
  case ast::Expr::Kind::Cond: {
    auto c = bindExpr(*expr.operands[0]);
    if (!c || !requireData(*c))
      return std::nullopt;
    if (c->isConst())
      return constantCondition(truthy(c->c), expr);
    auto t = bindExpr(*expr.operands[1]);
    if (!t)
      return std::nullopt;
    auto f = bindExpr(*expr.operands[2]);
    if (!f)
      return std::nullopt;
    return select(std::move(*c), std::move(*t), std::move(*f), expr.loc);
  }
  case ast::Expr::Kind::Call:
    return bindCall(expr);
  }
  return std::nullopt;
}
