//===- Elementwise.cpp - Elementwise expression trees ---------------------===//
//
// Evaluates a typed expression bottom-up, one node at a time over whole
// tensors. A node's value is a column of canonical elements (doubles for
// float types, already rounded to the node's type; int64 for integers and
// bools, normalised to the type), so every operation is a flat loop.
// Children whose shape is smaller are expanded to the node's shape with
// NumPy's broadcasting rule first. When bounds are asked for, a column also
// carries every element's error bound (Bounds.h), computed beside the value.
//
//===----------------------------------------------------------------------===//

#include "Bounds.h"
#include "InterpInternal.h"

#include <cmath>
#include <limits>

using namespace tilec;
using namespace tilec::interp;
using typed::Expr;
using typed::ExprOp;

namespace {
/// A node's value: elements of one type in row-major order.
struct Column {
  DType dtype = DType::F32;
  std::vector<double> f;  ///< float types
  std::vector<int64_t> i; ///< integers and bool
  Radii r; ///< per element, when bounds are computed; else empty
  bool isFloatColumn() const { return isFloat(dtype); }
  size_t size() const { return isFloatColumn() ? f.size() : i.size(); }
  ErrorBound radius(size_t k) const { return r.empty() ? ErrorBound() : r[k]; }
  double asDouble(size_t k) const { return isFloatColumn() ? f[k] : i[k]; }
};

/// Expression trees deeper than this are refused rather than risking the
/// stack (the parser caps nesting well below it).
constexpr unsigned kMaxDepth = 10000;
} // namespace

/// Calls f(dst, src) for every row-major position `dst` of `dstShape` and
/// the position `src` of `srcShape` it reads under broadcasting.
template <typename F>
static void forEachBroadcast(const std::vector<int64_t> &srcShape,
                             const std::vector<int64_t> &dstShape, F f) {
  int64_t n = checkedNumElements(dstShape);
  if (srcShape == dstShape) {
    for (int64_t k = 0; k < n; ++k)
      f(k, k);
    return;
  }
  size_t rank = dstShape.size(), offset = rank - srcShape.size();
  // Source strides aligned to the destination's dimensions; 0 where the
  // source dimension is missing or 1 (it is repeated).
  std::vector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (size_t d = srcShape.size(); d-- > 0;) {
    strides[d + offset] = srcShape[d] == 1 ? 0 : stride;
    stride *= srcShape[d];
  }
  std::vector<int64_t> coord(rank, 0);
  int64_t src = 0;
  for (int64_t k = 0; k < n; ++k) {
    f(k, src);
    for (size_t d = rank; d-- > 0;) {
      src += strides[d];
      if (++coord[d] < dstShape[d])
        break;
      src -= strides[d] * coord[d];
      coord[d] = 0;
    }
  }
}

static bool broadcastsTo(const std::vector<int64_t> &src,
                         const std::vector<int64_t> &dst) {
  if (src.size() > dst.size())
    return false;
  size_t offset = dst.size() - src.size();
  for (size_t d = 0; d < src.size(); ++d)
    if (src[d] != 1 && src[d] != dst[d + offset])
      return false;
  return true;
}

static Element columnElement(const Column &c, size_t k) {
  Element e;
  if (c.isFloatColumn())
    e.f = c.f[k];
  else
    e.i = c.i[k];
  return e;
}

static Column makeColumn(DType dtype, size_t n) {
  Column c;
  c.dtype = dtype;
  if (isFloat(dtype))
    c.f.resize(n);
  else
    c.i.resize(n);
  return c;
}

static void setColumnElement(Column &c, size_t k, Element e) {
  if (c.isFloatColumn())
    c.f[k] = e.f;
  else
    c.i[k] = e.i;
}

/// The bound of element `k` of `c` converted to `to`: floats as Bounds.h
/// says; a bool from a float near 0 may go either way; other integers from
/// floats count as exact (the comparison demands exact integers).
static ErrorBound convertedBound(const Column &c, size_t k, DType to) {
  ErrorBound r = c.radius(k);
  if (r.exact() || !c.isFloatColumn())
    return r;
  if (isFloat(to))
    return convertBound(c.f[k], r, c.dtype, to);
  if (to == DType::Bool && comparisonUncertain(c.f[k], 0, r, ErrorBound()))
    return ErrorBound::uncertain();
  return ErrorBound();
}

/// `c` converted to `to` (a no-op when the types agree).
static Column convertColumn(Column c, DType to) {
  if (c.dtype == to)
    return c;
  Column out = makeColumn(to, c.size());
  for (size_t k = 0; k < c.size(); ++k)
    setColumnElement(out, k, convertElement(columnElement(c, k), c.dtype, to));
  if (!c.r.empty()) {
    out.r.resize(c.size());
    for (size_t k = 0; k < c.size(); ++k)
      out.r[k] = convertedBound(c, k, to);
  }
  return out;
}

/// `c`, of shape `from`, broadcast to `to`.
static Column expandColumn(Column c, const std::vector<int64_t> &from,
                           const std::vector<int64_t> &to) {
  if (from == to)
    return c;
  Column out = makeColumn(c.dtype, size_t(checkedNumElements(to)));
  if (!c.r.empty())
    out.r.resize(out.size());
  forEachBroadcast(from, to, [&](int64_t dst, int64_t src) {
    setColumnElement(out, dst, columnElement(c, src));
    if (!c.r.empty())
      out.r[dst] = c.r[src];
  });
  return out;
}

//===----------------------------------------------------------------------===//
// Scalar operations
//===----------------------------------------------------------------------===//

static bool isComparison(ExprOp op) {
  return op == ExprOp::Lt || op == ExprOp::Gt || op == ExprOp::Le ||
         op == ExprOp::Ge || op == ExprOp::Eq || op == ExprOp::Ne;
}

/// `x op y` for a comparison `op`; NaN compares false except with !=.
template <typename T> static bool compareValues(ExprOp op, T x, T y) {
  switch (op) {
  case ExprOp::Lt:
    return x < y;
  case ExprOp::Gt:
    return x > y;
  case ExprOp::Le:
    return x <= y;
  case ExprOp::Ge:
    return x >= y;
  case ExprOp::Eq:
    return x == y;
  default:
    return x != y;
  }
}

/// A comparison of two canonical elements of type `t`.
static bool compareElements(ExprOp op, Element a, Element b, DType t) {
  if (isFloat(t))
    return compareValues(op, a.f, b.f);
  if (isUnsigned(t))
    return compareValues<uint64_t>(op, a.i, b.i);
  return compareValues(op, a.i, b.i);
}

/// An integer binary operation in type `t` (wrapping, section 5.4).
static int64_t integerBinary(ExprOp op, int64_t a, int64_t b, DType t) {
  uint64_t ua = a, ub = b;
  bool isSignedType = isSigned(t);
  unsigned width = dtypeBits(t);
  switch (op) {
  case ExprOp::Add:
    return normalizeInteger(int64_t(ua + ub), t);
  case ExprOp::Sub:
    return normalizeInteger(int64_t(ua - ub), t);
  case ExprOp::Mul:
    return normalizeInteger(int64_t(ua * ub), t);
  case ExprOp::Div:
    if (b == 0)
      return 0; // unspecified by the language; the interpreter gives 0
    if (!isSignedType)
      return normalizeInteger(int64_t(ua / ub), t);
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return a; // MIN / -1 gives MIN
    return normalizeInteger(a / b, t);
  case ExprOp::Shl:
  case ExprOp::Shr: {
    bool validCount =
        isSignedType ? (b >= 0 && b < int64_t(width)) : ub < uint64_t(width);
    if (!validCount) // unspecified; a full shift's result
      return op == ExprOp::Shr && isSignedType && a < 0 ? -1 : 0;
    if (op == ExprOp::Shl)
      return normalizeInteger(int64_t(ua << ub), t);
    return isSignedType ? a >> b : normalizeInteger(int64_t(ua >> ub), t);
  }
  case ExprOp::BitAnd:
    return a & b;
  case ExprOp::BitXor:
    return a ^ b;
  case ExprOp::BitOr:
    return a | b;
  default:
    return 0;
  }
}

/// A floating-point binary operation computed in double and rounded to `t`.
static double floatBinary(ExprOp op, double a, double b, DType t) {
  double r;
  switch (op) {
  case ExprOp::Add:
    r = a + b;
    break;
  case ExprOp::Sub:
    r = a - b;
    break;
  case ExprOp::Mul:
    r = a * b;
    break;
  default:
    r = a / b;
    break;
  }
  return roundToFloatType(r, t);
}

/// The bound of a float binary operation's result `v` (Bounds.h).
static ErrorBound floatBinaryBound(ExprOp op, double a, double b,
                                    ErrorBound ra, ErrorBound rb, double v,
                                    DType t) {
  switch (op) {
  case ExprOp::Add:
  case ExprOp::Sub:
    return addBound(v, ra, rb, t);
  case ExprOp::Mul:
    return mulBound(a, b, ra, rb, v, t);
  default:
    return divBound(a, b, ra, rb, v, t);
  }
}

double interp::mathFunction(ExprOp op, double x) {
  switch (op) {
  case ExprOp::Exp:
    return std::exp(x);
  case ExprOp::Log:
    return std::log(x);
  case ExprOp::Sqrt:
    return std::sqrt(x);
  case ExprOp::Sin:
    return std::sin(x);
  case ExprOp::Cos:
    return std::cos(x);
  case ExprOp::Tan:
    return std::tan(x);
  case ExprOp::Asin:
    return std::asin(x);
  case ExprOp::Acos:
    return std::acos(x);
  case ExprOp::Atan:
    return std::atan(x);
  case ExprOp::Sinh:
    return std::sinh(x);
  case ExprOp::Cosh:
    return std::cosh(x);
  case ExprOp::Tanh:
    return std::tanh(x);
  case ExprOp::Asinh:
    return std::asinh(x);
  case ExprOp::Acosh:
    return std::acosh(x);
  case ExprOp::Atanh:
    return std::atanh(x);
  case ExprOp::Floor:
    return std::floor(x);
  case ExprOp::Ceil:
    return std::ceil(x);
  default:
    return std::round(x); // halves away from zero
  }
}

//===----------------------------------------------------------------------===//
// Tree evaluation
//===----------------------------------------------------------------------===//

namespace {
class ExprEvaluator {
public:
  ExprEvaluator(const std::vector<Tensor> &values, const ValueRadii *radii)
      : values(values), radii(radii) {}

  llvm::Expected<Column> evaluate(const Expr &e, unsigned depth);

private:
  const std::vector<Tensor> &values;
  const ValueRadii *radii; ///< null: no bounds

  /// A column of `dtype` for `n` elements, with radii when bounds are on.
  Column resultColumn(DType dtype, size_t n) const {
    Column c = makeColumn(dtype, n);
    if (radii)
      c.r.assign(n, ErrorBound());
    return c;
  }

  /// Child `k` evaluated, converted to `dtype` and broadcast to e's shape.
  llvm::Expected<Column> operand(const Expr &e, unsigned k, DType dtype,
                                 unsigned depth) {
    if (k >= e.args.size() || !e.args[k])
      return malformedError(llvm::Twine("'") + exprOpName(e.op) +
                            "' lacks an operand");
    const Expr &child = *e.args[k];
    if (!broadcastsTo(child.type.shape, e.type.shape))
      return malformedError(llvm::Twine("operand of '") + exprOpName(e.op) +
                            "' does not broadcast to the node's shape");
    auto c = evaluate(child, depth + 1);
    if (!c)
      return c.takeError();
    return expandColumn(convertColumn(std::move(*c), dtype), child.type.shape,
                        e.type.shape);
  }

  llvm::Expected<Column> evaluateLeaf(const Expr &e, size_t n);
};
} // namespace

llvm::Expected<Column> ExprEvaluator::evaluateLeaf(const Expr &e, size_t n) {
  DType t = e.type.dtype;
  Column out = resultColumn(t, n); // constants and indices are exact
  switch (e.op) {
  case ExprOp::Ref: {
    if (e.ref >= values.size())
      return malformedError("reference to an unknown value");
    const Tensor &src = values[e.ref];
    if (src.data.size() !=
            size_t(src.numElements()) * dtypeBytes(src.type.dtype) ||
        !broadcastsTo(src.type.shape, e.type.shape))
      return malformedError("reference to a value not yet computed or of the "
                            "wrong shape");
    int64_t count = src.numElements();
    Column c = resultColumn(src.type.dtype, size_t(count));
    if (radii && e.ref < radii->size() && !(*radii)[e.ref].empty())
      c.r = (*radii)[e.ref];
    if (c.isFloatColumn())
      for (int64_t k = 0; k < count; ++k)
        c.f[k] = src.getDouble(k);
    else
      for (int64_t k = 0; k < count; ++k)
        c.i[k] = src.getInt(k);
    return expandColumn(convertColumn(std::move(c), t), src.type.shape,
                        e.type.shape);
  }
  case ExprOp::Const: {
    Element v;
    if (isFloat(e.constant.dtype))
      v.f = e.constant.f;
    else
      v.i = e.constant.i;
    v = convertElement(v, e.constant.dtype, t);
    for (size_t k = 0; k < n; ++k)
      setColumnElement(out, k, v);
    return out;
  }
  default: { // Index
    if (e.axis >= e.type.shape.size())
      return malformedError("index axis out of range");
    int64_t inner = 1;
    for (size_t d = e.axis + 1; d < e.type.shape.size(); ++d)
      inner *= e.type.shape[d];
    int64_t size = e.type.shape[e.axis];
    for (size_t k = 0; k < n; ++k) {
      Element v;
      v.i = (int64_t(k) / inner) % size;
      setColumnElement(out, k, convertElement(v, DType::I32, t));
    }
    return out;
  }
  }
}

llvm::Expected<Column> ExprEvaluator::evaluate(const Expr &e, unsigned depth) {
  if (depth > kMaxDepth)
    return malformedError("expression nested too deeply");
  int64_t count = checkedNumElements(e.type.shape);
  if (count < 0 || count > kMaxElements)
    return tooLargeError(e.type, "an intermediate value");
  size_t n = size_t(count);
  DType t = e.type.dtype;

  if (e.op == ExprOp::Ref || e.op == ExprOp::Const || e.op == ExprOp::Index)
    return evaluateLeaf(e, n);

  if (e.op == ExprOp::Cast)
    return operand(e, 0, t, depth); // the operand converted (section 5.4)

  if (e.op == ExprOp::Select) {
    if (e.args.size() != 3 || !e.args[0])
      return malformedError("'select' needs three operands");
    auto cond = operand(e, 0, e.args[0]->type.dtype, depth);
    if (!cond)
      return cond.takeError();
    auto a = operand(e, 1, t, depth);
    if (!a)
      return a.takeError();
    auto b = operand(e, 2, t, depth);
    if (!b)
      return b.takeError();
    Column out = resultColumn(t, n);
    for (size_t k = 0; k < n; ++k) {
      // NaN != 0 is true, as the language wants.
      bool c = cond->isFloatColumn() ? cond->f[k] != 0 : cond->i[k] != 0;
      setColumnElement(out, k, columnElement(c ? *a : *b, k));
      if (!radii)
        continue;
      bool uncertain = cond->isFloatColumn()
                           ? comparisonUncertain(cond->f[k], 0,
                                                 cond->radius(k), ErrorBound())
                           : !cond->radius(k).exact();
      out.r[k] = !uncertain ? (c ? *a : *b).radius(k)
                 : isFloat(t)
                     ? eitherBound(a->f[k], b->f[k], a->radius(k),
                                   b->radius(k))
                 : a->i[k] != b->i[k]
                     ? ErrorBound::uncertain()
                     : widerBound(a->radius(k), b->radius(k));
    }
    return out;
  }

  if (isComparison(e.op)) {
    if (e.args.size() != 2 || !e.args[0] || !e.args[1])
      return malformedError("a comparison needs two operands");
    DType cmp = joinDTypes(e.args[0]->type.dtype, e.args[1]->type.dtype);
    auto a = operand(e, 0, cmp, depth);
    if (!a)
      return a.takeError();
    auto b = operand(e, 1, cmp, depth);
    if (!b)
      return b.takeError();
    Column out = resultColumn(t, n);
    for (size_t k = 0; k < n; ++k) {
      Element r;
      r.i = compareElements(e.op, columnElement(*a, k), columnElement(*b, k),
                            cmp);
      setColumnElement(out, k, convertElement(r, DType::Bool, t));
      if (radii && comparisonUncertain(a->asDouble(k), b->asDouble(k),
                                       a->radius(k), b->radius(k)))
        out.r[k] = ErrorBound::uncertain();
    }
    return out;
  }

  if (e.op == ExprOp::Pow) {
    if (e.args.size() != 2 || !e.args[1])
      return malformedError("'pow' needs two operands");
    auto base = operand(e, 0, t, depth);
    if (!base)
      return base.takeError();
    auto exponent = operand(e, 1, e.args[1]->type.dtype, depth);
    if (!exponent)
      return exponent.takeError();
    Column out = resultColumn(t, n);
    for (size_t k = 0; k < n; ++k) {
      Element x = convertElement(columnElement(*base, k), t, DType::F64);
      Element y = convertElement(columnElement(*exponent, k), exponent->dtype,
                                 DType::F64);
      Element r;
      r.f = std::pow(x.f, y.f);
      setColumnElement(out, k, convertElement(r, DType::F64, t));
      if (radii && isFloat(t))
        out.r[k] = powBound(x.f, base->radius(k), y.f, exponent->radius(k),
                            out.f[k], t);
    }
    return out;
  }

  bool unary = e.op == ExprOp::Neg || e.op == ExprOp::BitNot ||
               (e.op >= ExprOp::Exp && e.op <= ExprOp::Round);
  auto a = operand(e, 0, t, depth);
  if (!a)
    return a.takeError();
  Column out = resultColumn(t, n);

  if (unary) {
    bool isBitwise = e.op == ExprOp::BitNot;
    if (isBitwise && isFloat(t))
      return malformedError("'~' on a float type");
    for (size_t k = 0; k < n; ++k) {
      if (e.op == ExprOp::Neg) {
        if (isFloat(t))
          out.f[k] = -a->f[k];
        else
          out.i[k] =
              normalizeInteger(int64_t(uint64_t(0) - uint64_t(a->i[k])), t);
      } else if (isBitwise) {
        // On bool, '~' is logical not.
        out.i[k] = t == DType::Bool ? !a->i[k] : normalizeInteger(~a->i[k], t);
      } else if (!isFloat(t) &&
                 (e.op == ExprOp::Floor || e.op == ExprOp::Ceil ||
                  e.op == ExprOp::Round)) {
        out.i[k] = a->i[k]; // integers are unchanged
      } else {
        Element x = convertElement(columnElement(*a, k), t, DType::F64);
        Element r;
        r.f = mathFunction(e.op, x.f);
        setColumnElement(out, k, convertElement(r, DType::F64, t));
        if (radii)
          out.r[k] = mathBound(e.op, x.f, a->radius(k), out.f[k], t);
        continue;
      }
      if (radii) // negation, logical not and integer rounding are exact
        out.r[k] = a->radius(k);
    }
    return out;
  }

  if (e.op < ExprOp::Add || e.op > ExprOp::BitOr)
    return malformedError(llvm::Twine("unexpected operation '") +
                          exprOpName(e.op) + "'");
  auto b = operand(e, 1, t, depth);
  if (!b)
    return b.takeError();
  bool isBitwise = e.op >= ExprOp::Shl;
  if (isFloat(t)) {
    if (isBitwise)
      return malformedError(llvm::Twine("'") + exprOpName(e.op) +
                            "' on a float type");
    for (size_t k = 0; k < n; ++k)
      out.f[k] = floatBinary(e.op, a->f[k], b->f[k], t);
    if (radii)
      for (size_t k = 0; k < n; ++k)
        out.r[k] = floatBinaryBound(e.op, a->f[k], b->f[k], a->radius(k),
                                     b->radius(k), out.f[k], t);
  } else {
    for (size_t k = 0; k < n; ++k)
      out.i[k] = integerBinary(e.op, a->i[k], b->i[k], t);
    // Bools decided by inexact floats stay "either way" through logic;
    // other integers are exact.
    if (radii && t == DType::Bool)
      for (size_t k = 0; k < n; ++k)
        out.r[k] = widerBound(a->radius(k), b->radius(k));
  }
  return out;
}

llvm::Expected<Tensor>
interp::evaluateElementwise(const Expr &expr, const std::vector<Tensor> &values,
                            const ValueRadii *radii, Radii *radius) {
  int64_t count = checkedNumElements(expr.type.shape);
  if (count < 0 || count > kMaxElements)
    return tooLargeError(expr.type, "a result");
  ExprEvaluator evaluator(values, radius ? radii : nullptr);
  auto column = evaluator.evaluate(expr, 0);
  if (!column)
    return column.takeError();
  auto out = allocateTensor(expr.type, "an elementwise result");
  if (!out)
    return out.takeError();
  if (column->isFloatColumn())
    for (int64_t k = 0; k < count; ++k)
      out->setDouble(k, column->f[k]);
  else
    for (int64_t k = 0; k < count; ++k)
      out->setInt(k, column->i[k]);
  if (radius)
    *radius = std::move(column->r);
  return out;
}
