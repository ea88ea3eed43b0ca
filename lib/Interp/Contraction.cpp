//===- Contraction.cpp - Contractions (docs/language.md 7.3-7.5) ----------===//
//
// Enumerates the index box [lo, hi] of every variable and aggregates the
// combination of the operands at each valid assignment (7.3).
//
// Every polynomial c0 + sum(ci * vi) is scaled by the common denominator D
// of its coefficients into integers n0 + sum(ni * vi); the polynomial is an
// integer in [0, size) exactly when the scaled value is a multiple of D in
// [0, size * D). Loops run in a fixed variable order; a polynomial is
// checked at the loop of its last variable, where the admissible values of
// that variable form an interval intersected with an arithmetic progression
// (the congruence that makes the polynomial integral). Those loops therefore
// only visit valid values. The innermost loop then advances every operand's
// and the output's flat offset by a constant stride, which keeps it tight.
//
// Float contributions are combined and aggregated in f64 and each cell is
// rounded to the output type once, at the end: at least as accurate as the
// language asks (7.5 leaves the order, hence the rounding, unspecified).
// Integers combine with wraparound in the combination type; sums and
// products wrap at the end, which gives the same bits as wrapping each step.
//
// When bounds are asked for, the same runs also feed ContractionBounds.
//
//===----------------------------------------------------------------------===//

#include "ContractionBounds.h"
#include "InterpInternal.h"
#include "tilec/Support/CheckedMath.h"

#include <cstring>
#include <functional>
#include <numeric>
#include <optional>

using namespace tilec;
using namespace tilec::interp;
using ast::AggKind;
using ast::CombKind;

namespace {

/// Bounds every scaled polynomial value so that sums of a few never
/// overflow int64.
constexpr int64_t kValueLimit = int64_t(1) << 61;
/// Loop nests deeper than this are refused (the walk recurses per variable).
constexpr size_t kMaxVars = 4096;

/// A polynomial scaled to integers, with the loop levels renumbered.
struct ScaledPoly {
  int64_t constant = 0;        ///< n0
  std::vector<int64_t> coeffs; ///< per loop level
  int64_t den = 1;             ///< D
  int64_t limit = 0;           ///< size * D (exclusive)
  int last = -1;               ///< deepest loop level with a coefficient
  int64_t modulus = 1;         ///< D / gcd(|n_last|, D): period of integrality
  int owner = -1;              ///< -1 output, 0.. operand, -2 constraint
  int64_t stride = 0;          ///< flat stride of its dimension in `owner`
};

/// The element arrays of one contraction, in the accumulator's form.
template <typename T> struct Operands {
  const T *value[3] = {nullptr, nullptr, nullptr}; ///< value operands
  const int64_t *key[2] = {nullptr, nullptr};      ///< compared (Eq, Cond)
};

/// How a combination result in an integer type is wrapped to that type.
struct Wrap {
  enum Mode : uint8_t { None, Signed, Unsigned, Bool } mode = None;
  unsigned shift = 0; ///< 64 - width
  int64_t apply(int64_t v) const {
    switch (mode) {
    case None:
      return v;
    case Signed:
      return int64_t(uint64_t(v) << shift) >> shift;
    case Unsigned:
      return int64_t((uint64_t(v) << shift) >> shift);
    case Bool:
      return v != 0;
    }
    return v;
  }
};

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b, r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}
int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }
int64_t positiveMod(Wide a, int64_t m) { return int64_t(floorMod(a, m)); }

/// Combines two values (Mul, Add) in the accumulator's form.
template <typename T> inline T combineValues(CombKind comb, T a, T b) {
  if constexpr (std::is_same_v<T, double>)
    return comb == CombKind::Mul ? a * b : a + b;
  else
    return comb == CombKind::Mul ? T(uint64_t(a) * uint64_t(b))
                                 : T(uint64_t(a) + uint64_t(b));
}

/// Folds contribution `v` into `acc` (which already holds one).
template <typename T, AggKind Agg> inline T aggregate(T acc, T v) {
  if constexpr (Agg == AggKind::Sum) {
    if constexpr (std::is_same_v<T, double>)
      return acc + v;
    else
      return T(uint64_t(acc) + uint64_t(v));
  } else if constexpr (Agg == AggKind::Prod) {
    if constexpr (std::is_same_v<T, double>)
      return acc * v;
    else
      return T(uint64_t(acc) * uint64_t(v));
  } else if constexpr (Agg == AggKind::Max) {
    return v > acc ? v : acc;
  } else if constexpr (Agg == AggKind::Min) {
    return v < acc ? v : acc;
  } else {
    return v; // '=': the binder proved there is only one
  }
}

/// The output cells: aggregated values and whether each received any.
template <typename T> struct Cells {
  std::vector<T> acc;
  std::vector<uint8_t> touched;
};

using Run = ContractionRun;

/// The innermost loop, specialised on the accumulator type, combination and
/// aggregation so the compiler sees a plain strided loop.
template <typename T, CombKind Comb, AggKind Agg>
void runInner(const Run &run, const Operands<T> &ops, Wrap wrap,
              Cells<T> &cells) {
  auto contribution = [&](const int64_t *off) -> T {
    if constexpr (Comb == CombKind::None) {
      return ops.value[0][off[0]];
    } else if constexpr (Comb == CombKind::Mul || Comb == CombKind::Add) {
      T v = combineValues<T>(Comb, ops.value[0][off[0]], ops.value[1][off[1]]);
      if constexpr (!std::is_same_v<T, double>)
        v = T(wrap.apply(int64_t(v)));
      return v;
    } else if constexpr (Comb == CombKind::Eq) {
      return T(ops.key[0][off[0]] == ops.key[1][off[1]]);
    } else {
      return ops.key[0][off[0]] == ops.key[1][off[1]] ? ops.value[2][off[2]]
                                                      : T(0);
    }
  };
  int64_t off[3] = {run.off[0], run.off[1], run.off[2]};
  if (run.outStep == 0) {
    // All contributions go to one cell: aggregate locally first.
    T local = contribution(off);
    for (int64_t k = 1; k < run.count; ++k) {
      off[0] += run.step[0];
      off[1] += run.step[1];
      off[2] += run.step[2];
      local = aggregate<T, Agg>(local, contribution(off));
    }
    T &cell = cells.acc[run.out];
    uint8_t &touched = cells.touched[run.out];
    cell = touched ? aggregate<T, Agg>(cell, local) : local;
    touched = 1;
    return;
  }
  int64_t out = run.out;
  for (int64_t k = 0; k < run.count; ++k) {
    T v = contribution(off);
    T &cell = cells.acc[out];
    cell = cells.touched[out] ? aggregate<T, Agg>(cell, v) : v;
    cells.touched[out] = 1;
    out += run.outStep;
    off[0] += run.step[0];
    off[1] += run.step[1];
    off[2] += run.step[2];
  }
}

/// The loop nest over valid assignments. The caller fills in the
/// polynomials and the per-level tables, sets `emit`, and calls start().
class Enumerator {
public:
  std::vector<ScaledPoly> polys;
  std::vector<int64_t> lo, hi;            ///< per loop level
  std::vector<std::vector<int>> lastAt;   ///< polys whose last level is k
  std::vector<std::vector<int>> touching; ///< polys with a coefficient at k
  std::vector<int> firstCongruence;       ///< per level, or -1
  std::vector<std::vector<int>> extraCongruences; ///< checked per value
  /// Set when a polynomial without variables is invalid: nothing is valid.
  bool empty = false;
  /// Receives each run of the innermost loop.
  std::function<void(const Run &)> emit;

  void start() {
    if (empty)
      return;
    cur.resize(polys.size());
    for (size_t p = 0; p < polys.size(); ++p)
      cur[p] = polys[p].constant;
    walk(0);
  }

private:
  std::vector<int64_t> cur; ///< scaled polynomial values, outer levels set

  /// Runs the loops from `level` inward.
  void walk(size_t level);
  /// The first valid value >= lo of `level`'s variable and the step between
  /// valid values, or false if none.
  bool valueRange(size_t level, int64_t &first, int64_t &last,
                  int64_t &step) const;
  /// Whether value `t` at `level` keeps the secondary congruences integral.
  bool extraOk(size_t level, int64_t t) const {
    for (int p : extraCongruences[level]) {
      const ScaledPoly &poly = polys[p];
      if ((cur[p] + poly.coeffs[level] * t) % poly.den != 0)
        return false;
    }
    return true;
  }
  /// Emits `count` assignments of the innermost `level`, from value `t` on
  /// in steps of `step`.
  void emitInner(size_t level, int64_t t, int64_t count, int64_t step);
};

bool Enumerator::valueRange(size_t level, int64_t &first, int64_t &last,
                            int64_t &step) const {
  int64_t a = lo[level], b = hi[level];
  for (int p : lastAt[level]) {
    const ScaledPoly &poly = polys[p];
    int64_t c = poly.coeffs[level], base = cur[p];
    // D divides c, so the value is integral for every t or for none.
    if (poly.modulus == 1 && poly.den != 1 && base % poly.den != 0)
      return false;
    // 0 <= base + c*t <= limit - 1
    if (c > 0) {
      a = std::max(a, ceilDiv(-base, c));
      b = std::min(b, floorDiv(poly.limit - 1 - base, c));
    } else {
      a = std::max(a, ceilDiv(poly.limit - 1 - base, c));
      b = std::min(b, floorDiv(-base, c));
    }
  }
  if (a > b)
    return false;
  step = 1;
  first = a;
  if (int p = firstCongruence[level]; p >= 0) {
    // base + c*t == 0 (mod D): t == r (mod m) when g = gcd(c, D) divides base.
    const ScaledPoly &poly = polys[p];
    int64_t c = poly.coeffs[level], d = poly.den, base = cur[p];
    int64_t g = std::gcd(c < 0 ? -c : c, d);
    if (base % g != 0)
      return false;
    int64_t m = poly.modulus;
    int64_t r = positiveMod(
        Wide(positiveMod(-base / g, m)) * int64_t(inverseMod(c / g, m)), m);
    first = a + positiveMod(Wide(r) - a, m);
    if (first > b)
      return false;
    step = m;
  }
  last = b;
  return true;
}

void Enumerator::emitInner(size_t level, int64_t t, int64_t count,
                           int64_t step) {
  Run run;
  run.count = count;
  for (size_t p = 0; p < polys.size(); ++p) {
    const ScaledPoly &poly = polys[p];
    if (poly.owner == -2)
      continue;
    int64_t c = level < poly.coeffs.size() ? poly.coeffs[level] : 0;
    int64_t value = cur[p] + c * t;
    int64_t index = poly.den == 1 ? value : value / poly.den;
    int64_t delta = poly.den == 1 ? c * step : c * step / poly.den;
    if (poly.owner == -1) {
      run.out += index * poly.stride;
      run.outStep += delta * poly.stride;
    } else {
      run.off[poly.owner] += index * poly.stride;
      run.step[poly.owner] += delta * poly.stride;
    }
  }
  emit(run);
}

void Enumerator::walk(size_t level) {
  if (level == lo.size()) { // no variables at all: one assignment
    emitInner(level, 0, 1, 0);
    return;
  }
  int64_t first, last, step;
  if (!valueRange(level, first, last, step))
    return;
  if (level + 1 == lo.size()) {
    if (extraCongruences[level].empty()) {
      emitInner(level, first, (last - first) / step + 1, step);
      return;
    }
    for (int64_t t = first; t <= last; t += step)
      if (extraOk(level, t))
        emitInner(level, t, 1, step);
    return;
  }
  for (int64_t t = first; t <= last; t += step) {
    if (!extraOk(level, t))
      continue;
    for (int p : touching[level])
      cur[p] += polys[p].coeffs[level] * t;
    walk(level + 1);
    for (int p : touching[level])
      cur[p] -= polys[p].coeffs[level] * t;
  }
}

/// An error for index arithmetic beyond the interpreter's 62-bit budget.
llvm::Error indexOverflow() {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "the interpreter cannot evaluate this contraction: its index "
      "arithmetic overflows 64 bits");
}

/// Scales `a` to integers under the loop order `levelOf` (variable ->
/// level); checks that every value over the box stays below kValueLimit.
llvm::Expected<ScaledPoly> scalePoly(const Affine &a, int64_t size,
                                     const std::vector<int> &levelOf,
                                     const std::vector<int64_t> &lo,
                                     const std::vector<int64_t> &hi) {
  size_t numLevels = lo.size();
  ScaledPoly p;
  p.coeffs.assign(numLevels, 0);
  if (a.constant.den <= 0)
    return malformedError("a rational with a non-positive denominator");
  int64_t d = a.constant.den;
  for (const Rational &c : a.coeffs) {
    if (c.den <= 0)
      return malformedError("a rational with a non-positive denominator");
    int64_t g = std::gcd(d, c.den);
    if (__builtin_mul_overflow(d / g, c.den, &d))
      return indexOverflow();
  }
  p.den = d;
  Wide bound = 0;
  auto scaled = [&](Rational r, int64_t &out) {
    Wide v = Wide(r.num) * (d / r.den);
    if (v > kValueLimit || v < -kValueLimit)
      return false;
    out = int64_t(v);
    return true;
  };
  if (!scaled(a.constant, p.constant))
    return indexOverflow();
  bound += absWide(p.constant);
  for (size_t v = 0; v < a.coeffs.size(); ++v) {
    if (a.coeffs[v].num == 0)
      continue;
    if (v >= levelOf.size())
      return malformedError("an index polynomial uses an unknown variable");
    int level = levelOf[v];
    if (!scaled(a.coeffs[v], p.coeffs[level]))
      return indexOverflow();
    int64_t c = p.coeffs[level];
    Wide reach = std::max(absWide(lo[level]), absWide(hi[level]));
    bound += absWide(c) * reach;
    if (bound > kValueLimit)
      return indexOverflow();
    p.last = std::max(p.last, level);
  }
  Wide limit = Wide(size) * d;
  if (limit > kValueLimit)
    return indexOverflow();
  p.limit = int64_t(limit);
  if (p.last >= 0) {
    int64_t c = p.coeffs[p.last];
    p.modulus = d / std::gcd(c < 0 ? -c : c, d);
  }
  return p;
}

/// The form values take in the accumulator for an output of type `t`:
/// double for floats, uint64_t for unsigned integers, int64_t otherwise.
enum class AccKind { Float, Signed, Unsigned };
AccKind accKindOf(DType t) {
  return isFloat(t)      ? AccKind::Float
         : isUnsigned(t) ? AccKind::Unsigned
                         : AccKind::Signed;
}

/// `t`'s elements converted to `dtype`, as the accumulator form T.
template <typename T> std::vector<T> loadValues(const Tensor &t, DType dtype) {
  int64_t n = t.numElements();
  std::vector<T> out(n);
  for (int64_t k = 0; k < n; ++k) {
    Element e = convertElement(readElement(t, k), t.type.dtype, dtype);
    if constexpr (std::is_same_v<T, double>)
      out[k] = e.f;
    else
      out[k] = T(e.i);
  }
  return out;
}

/// Keys that compare equal exactly when the elements, converted to `dtype`,
/// are equal: the integer itself, or the bits of the double with -0 made +0
/// and NaN given a per-operand pattern (`nanKey`) so that NaN != NaN.
std::vector<int64_t> loadKeys(const Tensor &t, DType dtype, int64_t nanKey) {
  int64_t n = t.numElements();
  std::vector<int64_t> out(n);
  for (int64_t k = 0; k < n; ++k) {
    Element e = convertElement(readElement(t, k), t.type.dtype, dtype);
    if (!isFloat(dtype)) {
      out[k] = e.i;
    } else if (e.f != e.f) {
      out[k] = nanKey;
    } else {
      double v = e.f == 0 ? 0.0 : e.f;
      std::memcpy(&out[k], &v, 8);
    }
  }
  return out;
}

/// Runs the whole contraction with accumulator type T.
template <typename T>
llvm::Expected<Tensor>
contract(const typed::Contraction &c, const TensorType &outType,
         const std::vector<Tensor> &values, Enumerator &nest,
         const ValueRadii *radii, Radii *radius) {
  DType outDType = outType.dtype;
  // Operand arrays in the accumulator's form.
  std::vector<std::vector<T>> valueStore(3);
  std::vector<std::vector<int64_t>> keyStore(2);
  Operands<T> ops;
  const int64_t nanKeys[2] = {int64_t(0x7ff8000000000001),
                              int64_t(0x7ff8000000000002)};
  for (size_t k = 0; k < c.operands.size(); ++k) {
    const Tensor &t = values[c.operands[k].value];
    bool compared =
        (c.comb == CombKind::Eq || c.comb == CombKind::Cond) && k < 2;
    if (compared) {
      keyStore[k] = loadKeys(t, c.combineType, nanKeys[k]);
      ops.key[k] = keyStore[k].data();
    } else {
      // Mul and Add combine in combineType; a lone operand and Cond's value
      // are already of the output's type (bool counted by + and * as 0/1).
      DType as = (c.comb == CombKind::Mul || c.comb == CombKind::Add)
                     ? c.combineType
                     : outDType;
      valueStore[k] = loadValues<T>(t, as);
      ops.value[k] = valueStore[k].data();
    }
  }
  Wrap wrap;
  if (!isFloat(c.combineType)) {
    unsigned bits = dtypeBits(c.combineType);
    wrap.shift = 64 - bits;
    wrap.mode = c.combineType == DType::Bool ? Wrap::Bool
                : bits == 64                 ? Wrap::None
                : isSigned(c.combineType)    ? Wrap::Signed
                                             : Wrap::Unsigned;
  }

  size_t cellsCount = size_t(outType.numElements());
  // Bounds only for float outputs: integers are exact.
  std::optional<ContractionBounds> bounds;
  std::vector<Radii> operandRadii(3);
  if constexpr (std::is_same_v<T, double>) {
    if (radii && radius) {
      DType termType =
          (c.comb == CombKind::Mul || c.comb == CombKind::Add) &&
                  isFloat(c.combineType)
              ? c.combineType
              : outDType;
      // What --allow-tf32 may put on tensor cores (MmaInput::TF32): a sum
      // of products of two f32 tensors.
      bool tf32 = radii->tf32Products && c.comb == CombKind::Mul &&
                  c.agg == AggKind::Sum && c.combineType == DType::F32 &&
                  llvm::all_of(c.operands, [&](const auto &operand) {
                    return values[operand.value].type.dtype == DType::F32;
                  });
      bounds.emplace(c.comb, c.agg, termType, outDType, cellsCount, tf32);
      for (size_t k = 0; k < c.operands.size(); ++k) {
        bounds->value[k] = ops.value[k];
        if (k < 2)
          bounds->key[k] = ops.key[k];
        typed::ValueId id = c.operands[k].value;
        if (!ops.value[k] || id >= radii->size())
          continue;
        DType as = (c.comb == CombKind::Mul || c.comb == CombKind::Add)
                       ? c.combineType
                       : outDType;
        operandRadii[k] = convertRadii(values[id], (*radii)[id], as);
        if (!operandRadii[k].empty())
          bounds->radius[k] = operandRadii[k].data();
      }
    }
  }
  Cells<T> cells;
  cells.acc.assign(cellsCount, T(0));
  cells.touched.assign(cellsCount, 0);

  void (*inner)(const Run &, const Operands<T> &, Wrap, Cells<T> &) = nullptr;
  auto pickAgg = [&](auto combTag) {
    constexpr CombKind comb = decltype(combTag)::value;
    switch (c.agg) {
    case AggKind::Sum:
      inner = runInner<T, comb, AggKind::Sum>;
      break;
    case AggKind::Prod:
      inner = runInner<T, comb, AggKind::Prod>;
      break;
    case AggKind::Max:
      inner = runInner<T, comb, AggKind::Max>;
      break;
    case AggKind::Min:
      inner = runInner<T, comb, AggKind::Min>;
      break;
    case AggKind::Assign:
      inner = runInner<T, comb, AggKind::Assign>;
      break;
    }
  };
  switch (c.comb) {
  case CombKind::None:
    pickAgg(std::integral_constant<CombKind, CombKind::None>());
    break;
  case CombKind::Mul:
    pickAgg(std::integral_constant<CombKind, CombKind::Mul>());
    break;
  case CombKind::Add:
    pickAgg(std::integral_constant<CombKind, CombKind::Add>());
    break;
  case CombKind::Eq:
    pickAgg(std::integral_constant<CombKind, CombKind::Eq>());
    break;
  case CombKind::Cond:
    pickAgg(std::integral_constant<CombKind, CombKind::Cond>());
    break;
  }
  if (!inner)
    return malformedError("unknown combination or aggregation");
  nest.emit = [&](const Run &run) {
    inner(run, ops, wrap, cells);
    if (bounds)
      bounds->add(run);
  };
  nest.start();

  auto out = allocateTensor(outType, "a contraction result");
  if (!out)
    return out.takeError();
  std::optional<Tensor> defaults;
  if (c.defaultValue)
    defaults = castTensor(values[*c.defaultValue], outDType);
  for (size_t k = 0; k < cellsCount; ++k) {
    if (!cells.touched[k]) {
      if (defaults)
        std::memcpy(out->data.data() + k * dtypeBytes(outDType),
                    defaults->data.data() + k * dtypeBytes(outDType),
                    dtypeBytes(outDType));
      continue;
    }
    if constexpr (std::is_same_v<T, double>)
      out->setDouble(k, cells.acc[k]);
    else
      out->setInt(k, int64_t(cells.acc[k]));
  }
  if (bounds) {
    Radii defaultRadii;
    if (c.defaultValue && *c.defaultValue < radii->size())
      defaultRadii = convertRadii(values[*c.defaultValue],
                                  (*radii)[*c.defaultValue], outDType);
    *radius = bounds->finish(*out, cells.touched, defaultRadii);
  }
  return out;
}

} // namespace

llvm::Expected<Tensor>
interp::evaluateContraction(const typed::Contraction &c,
                            const TensorType &outType,
                            const std::vector<Tensor> &values,
                            const ValueRadii *radii, Radii *radius) {
  int64_t cellCount = checkedNumElements(outType.shape);
  if (cellCount < 0 || cellCount > kMaxElements)
    return tooLargeError(outType, "a contraction result");
  size_t expectedOperands = c.comb == CombKind::None   ? 1
                            : c.comb == CombKind::Cond ? 3
                                                       : 2;
  if (c.operands.size() != expectedOperands ||
      c.outIndices.size() != outType.rank())
    return malformedError("contraction operand or index count");
  for (const typed::Access &a : c.operands) {
    if (a.value >= values.size())
      return malformedError("contraction operand id out of range");
    const Tensor &t = values[a.value];
    if (a.indices.size() != t.type.rank() ||
        t.data.size() != size_t(t.numElements()) * dtypeBytes(t.type.dtype))
      return malformedError("contraction operand rank or data");
  }
  if (c.defaultValue) {
    if (*c.defaultValue >= values.size() ||
        values[*c.defaultValue].type.shape != outType.shape ||
        values[*c.defaultValue].data.empty())
      return malformedError("'default' tensor shape");
  }
  if (c.vars.size() > kMaxVars)
    return malformedError("too many index variables");
  if ((c.comb == CombKind::Mul || c.comb == CombKind::Add) &&
      c.combineType != DType::Bool &&
      accKindOf(c.combineType) != accKindOf(outType.dtype))
    return malformedError("the output type differs from the combination's");

  // Loop order (any order visits the same assignments): variables of the
  // output indices first, so that inner loops are reductions. The innermost
  // loop, the only one without per-value overhead, gets the reduction
  // variable with the longest range, unless every reduction is short (a
  // 3x3 window), when the longest range of all is better.
  size_t numVars = c.vars.size();
  std::vector<bool> inOutput(numVars, false), occurs(numVars, false);
  auto markOccurring = [&](const Affine &a, bool output) {
    for (size_t v = 0; v < a.coeffs.size() && v < numVars; ++v)
      if (a.coeffs[v].num != 0) {
        occurs[v] = true;
        inOutput[v] = inOutput[v] || output;
      }
  };
  for (const Affine &a : c.outIndices)
    markOccurring(a, true);
  for (const typed::Access &a : c.operands)
    for (const Affine &index : a.indices)
      markOccurring(index, false);
  for (const typed::ContractionConstraint &cc : c.constraints)
    markOccurring(cc.poly, false);
  auto extent = [&](size_t v) {
    return c.vars[v].hi >= c.vars[v].lo ? c.vars[v].hi - c.vars[v].lo : -1;
  };
  int innermost = -1;
  for (size_t v = 0; v < numVars; ++v)
    if (occurs[v] && !inOutput[v] &&
        (innermost < 0 || extent(v) > extent(innermost)))
      innermost = v;
  constexpr int64_t kShortReduction = 8;
  if (innermost < 0 || extent(innermost) < kShortReduction)
    for (size_t v = 0; v < numVars; ++v)
      if (occurs[v] && (innermost < 0 || extent(v) > extent(innermost)))
        innermost = v;
  // A variable that does not occur (`i - i`) is not enumerated (7.3).
  std::vector<int> order, levelOf(numVars, -1);
  for (int pass = 0; pass < 3; ++pass)
    for (size_t v = 0; v < numVars; ++v) {
      if (!occurs[v])
        continue;
      bool isInner = int(v) == innermost;
      if (pass == 2 ? isInner : !isInner && inOutput[v] == (pass == 0)) {
        levelOf[v] = order.size();
        order.push_back(v);
      }
    }

  Enumerator nest;
  for (int v : order) {
    // An empty range (lo > hi) simply yields no assignment.
    nest.lo.push_back(c.vars[v].lo);
    nest.hi.push_back(c.vars[v].hi);
  }

  // Row-major strides of the output and of every operand.
  auto stridesOf = [](const std::vector<int64_t> &shape) {
    std::vector<int64_t> strides(shape.size());
    int64_t stride = 1;
    for (size_t d = shape.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= shape[d];
    }
    return strides;
  };
  auto addPoly = [&](const Affine &a, int64_t size, int owner,
                     int64_t stride) -> llvm::Error {
    auto poly = scalePoly(a, size, levelOf, nest.lo, nest.hi);
    if (!poly)
      return poly.takeError();
    poly->owner = owner;
    poly->stride = stride;
    if (poly->last < 0 && (poly->constant % poly->den != 0 ||
                           poly->constant < 0 || poly->constant >= poly->limit))
      nest.empty = true; // a constant index outside its range
    nest.polys.push_back(std::move(*poly));
    return llvm::Error::success();
  };
  std::vector<int64_t> outStrides = stridesOf(outType.shape);
  for (size_t d = 0; d < c.outIndices.size(); ++d)
    if (auto err =
            addPoly(c.outIndices[d], outType.shape[d], -1, outStrides[d]))
      return std::move(err);
  for (size_t k = 0; k < c.operands.size(); ++k) {
    const typed::Access &a = c.operands[k];
    const std::vector<int64_t> &shape = values[a.value].type.shape;
    std::vector<int64_t> strides = stridesOf(shape);
    for (size_t d = 0; d < a.indices.size(); ++d)
      if (auto err = addPoly(a.indices[d], shape[d], int(k), strides[d]))
        return std::move(err);
  }
  for (const typed::ContractionConstraint &cc : c.constraints)
    if (auto err = addPoly(cc.poly, cc.bound, -2, 0))
      return std::move(err);

  // Which polynomials each level moves, checks and must keep integral.
  size_t numLevels = order.size();
  nest.lastAt.resize(numLevels);
  nest.touching.resize(numLevels);
  nest.firstCongruence.assign(numLevels, -1);
  nest.extraCongruences.resize(numLevels);
  for (size_t p = 0; p < nest.polys.size(); ++p) {
    const ScaledPoly &poly = nest.polys[p];
    for (size_t level = 0; level < numLevels; ++level)
      if (poly.coeffs[level] != 0)
        nest.touching[level].push_back(p);
    if (poly.last < 0)
      continue;
    nest.lastAt[poly.last].push_back(p);
    if (poly.modulus > 1) {
      if (nest.firstCongruence[poly.last] < 0)
        nest.firstCongruence[poly.last] = p;
      else
        nest.extraCongruences[poly.last].push_back(p);
    }
  }

  switch (accKindOf(outType.dtype)) {
  case AccKind::Float:
    return contract<double>(c, outType, values, nest, radii, radius);
  case AccKind::Signed:
    return contract<int64_t>(c, outType, values, nest, radii, radius);
  case AccKind::Unsigned:
    return contract<uint64_t>(c, outType, values, nest, radii, radius);
  }
  return malformedError("unknown output type");
}
