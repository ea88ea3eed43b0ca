//===- Contraction.cpp - tile.contract to affine loop nests -----*- C++ -*-===//
//
// A contraction visits every valid assignment of its index variables
// (docs/language.md 7.3): each variable loops over its exact range
// [lower_bound, upper_bound], and an affine.if keeps the assignments whose
// constraints, operand accesses and (when not implied) output access are in
// range. An inequality over a single variable is implied by that variable's
// exact range (its feasible set is an interval holding every valid value),
// so it folds into the loop bounds and needs no guard.
//
// Two forms:
//  * per cell, when every output index is a constant or one variable plus a
//    constant, with distinct variables (O[i, j], O[b, t, 0], O[i + 1, j]):
//    the caller loops over all the output's cells, an affine.if on the
//    cell's indices keeps the cells that some assignment writes, and the
//    remaining (reduction) variables reduce in registers through iter_args.
//    One nest, parallel over the cells, writing every cell once. This form
//    also serves fusion, since it yields one cell's value wherever a
//    consumer asks for it;
//  * in memory otherwise (O[2 * i], O[i + j], O[i, i]): initialise the
//    output, accumulate into it, and, when untouched cells must be told
//    apart (prod, max, min, or a `default`), keep a flag per cell and
//    finish with a last nest. Its accumulation is one serial nest, which a
//    GPU runs as a single invocation, so the pipeline never gets here:
//    tile-reindex-sink first rewrites such contractions into the per-cell
//    form (ReindexSink.cpp). Only IR that skipped that pass does.
// Untouched cells hold 0 or the `default` (7.5). The per-cell form starts
// from the aggregation's identity; a cell outside the written range takes
// 0/default from the affine.if's other branch, and only when guards inside
// the reduction may skip every assignment does a loop-carried "touched"
// flag pick 0/default at the end. The memory form takes the first
// contribution as it is.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Tile/Transforms/AffineForms.h"
#include "tilec/Dialect/Tile/Transforms/Bounds.h"
#include "tilec/Dialect/Tile/Transforms/CellSink.h"
#include "tilec/Dialect/Tile/Transforms/Fusion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <optional>

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;
using tile::AggregationKind;
using tile::CombinationKind;
using tile::CellSinkDim;
using tile::getCellSink;
using tile::usesDimFrom;

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

/// The most reduction variables a per-cell contraction may have.
static constexpr size_t kMaxReductionVars = 256;

namespace {
/// A guard constraint over the index variables: expr >= 0, or == 0.
struct Guard {
  AffineExpr expr;
  bool isEquality;
};

/// What the lowering needs to know about one contraction.
struct ContractionPlan {
  tile::ContractOp op;
  unsigned numVars = 0;
  llvm::SmallBitVector occurs;
  SmallVector<Guard> guards; ///< over the original variables

  explicit ContractionPlan(tile::ContractOp op) : op(op) {
    numVars = op.getNumVars();
    occurs.resize(numVars);
    auto mark = [&](AffineExpr e) {
      e.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          occurs.set(d.getPosition());
      });
    };
    for (AffineExpr e : op.getSink().getResults())
      mark(e);
    for (Attribute a : op.getSrcs())
      for (AffineExpr e : cast<AffineMapAttr>(a).getValue().getResults())
        mark(e);
    for (AffineExpr e : op.getCons().getConstraints())
      mark(e);
  }

  int64_t lo(unsigned v) { return op.getLowerBounds()[v]; }
  int64_t hi(unsigned v) { return op.getUpperBounds()[v]; }

  /// The least and greatest values of `e` with every variable in its range,
  /// by interval arithmetic (exact when each variable occurs once); none
  /// unless `e` is built from variables and constants by sums, products,
  /// floordivs and mods by constants.
  std::optional<std::pair<int64_t, int64_t>> rangeOf(AffineExpr e) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return std::make_pair(c.getValue(), c.getValue());
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return std::make_pair(lo(d.getPosition()), hi(d.getPosition()));
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return std::nullopt;
    auto l = rangeOf(bin.getLHS()), r = rangeOf(bin.getRHS());
    if (!l || !r)
      return std::nullopt;
    if (e.getKind() == AffineExprKind::Add)
      return std::make_pair(l->first + r->first, l->second + r->second);
    if (r->first != r->second)
      return std::nullopt;
    int64_t k = r->first;
    // By a positive constant, as tile-reindex-sink's lattices divide.
    if (e.getKind() == AffineExprKind::Mod && k > 0)
      return std::make_pair(int64_t(0), k - 1);
    if (e.getKind() == AffineExprKind::FloorDiv && k > 0)
      return std::make_pair(llvm::divideFloorSigned(l->first, k),
                            llvm::divideFloorSigned(l->second, k));
    if (e.getKind() != AffineExprKind::Mul)
      return std::nullopt;
    int64_t a = l->first * k, b = l->second * k;
    return std::make_pair(std::min(a, b), std::max(a, b));
  }

  /// Whether `e >= 0` holds for every value of the variables in their
  /// ranges (which the loops enforce), so needs no guard: the head offset
  /// `E*h + e` of a multi-head access stays within its axis, for example.
  bool holdsOnRanges(AffineExpr e) {
    if (tile::isImpliedByVariableRanges(e))
      return true;
    auto range = rangeOf(e);
    return range && range->first >= 0;
  }

  /// The guards of the constraints and of the operand accesses, plus those
  /// of the output access when `withSink`.
  void collectGuards(bool withSink) {
    IntegerSet cons = op.getCons();
    for (unsigned i = 0; i < cons.getNumConstraints(); ++i) {
      AffineExpr e = cons.getConstraint(i);
      bool eq = cons.isEq(i);
      if (tile::isTriviallyTrue(e, eq) || (!eq && holdsOnRanges(e)))
        continue;
      addUnique(e, eq);
    }
    for (auto [input, attr] : llvm::zip(op.getInputs(), op.getSrcs()))
      addAccessGuards(cast<AffineMapAttr>(attr).getValue(),
                      cast<RankedTensorType>(input.getType()).getShape());
    if (withSink)
      addAccessGuards(op.getSink(), op.getType().getShape());
  }

  void addAccessGuards(AffineMap map, ArrayRef<int64_t> shape) {
    for (auto [e, size] : llvm::zip(map.getResults(), shape)) {
      AffineExpr upper = getAffineConstantExpr(size - 1, e.getContext()) - e;
      if (!holdsOnRanges(e))
        addUnique(e, false);
      if (!holdsOnRanges(upper))
        addUnique(upper, false);
    }
  }

  /// Adds a guard unless the same test is there already (an access bound
  /// that tile-reindex-sink also wrote as a constraint, for example).
  void addUnique(AffineExpr e, bool eq) {
    if (llvm::none_of(guards, [&](const Guard &g) {
          return g.expr == e && g.isEquality == eq;
        }))
      guards.push_back({e, eq});
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Scalar pieces
//===----------------------------------------------------------------------===//

/// acc `agg` c, both of one tile type (for max, min and prod with a
/// first contribution already in `acc`).
static Value aggregate(OpBuilder &b, Location loc, AggregationKind agg,
                       Scalar acc, Scalar c) {
  Value x = acc.value, y = c.value;
  bool isF = isa<FloatType>(x.getType());
  bool isBool = acc.type.isInteger(1);
  bool isU = isUnsignedLike(acc.type);
  switch (agg) {
  case AggregationKind::sum:
    if (isF)
      return arith::AddFOp::create(b, loc, x, y);
    return isBool ? Value(arith::OrIOp::create(b, loc, x, y))
                  : Value(arith::AddIOp::create(b, loc, x, y));
  case AggregationKind::prod:
    if (isF)
      return arith::MulFOp::create(b, loc, x, y);
    return isBool ? Value(arith::AndIOp::create(b, loc, x, y))
                  : Value(arith::MulIOp::create(b, loc, x, y));
  case AggregationKind::max:
    // maxnum, not compare-and-select: LLVM vectorises it as a reduction.
    if (isF)
      return arith::MaxNumFOp::create(b, loc, x, y);
    return isU ? Value(arith::MaxUIOp::create(b, loc, x, y))
               : Value(arith::MaxSIOp::create(b, loc, x, y));
  case AggregationKind::min:
    if (isF)
      return arith::MinNumFOp::create(b, loc, x, y);
    return isU ? Value(arith::MinUIOp::create(b, loc, x, y))
               : Value(arith::MinSIOp::create(b, loc, x, y));
  case AggregationKind::assign:
    return y;
  }
  return y;
}

/// The identity of `agg` in tile type `type`: 0 for sum, 1 for prod, the
/// lowest value (-inf) for max and the highest (+inf) for min.
static Scalar identityScalar(OpBuilder &b, Location loc, AggregationKind agg,
                             Type type) {
  Type reg = registerType(type);
  if (auto f = dyn_cast<FloatType>(reg)) {
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    APFloat v = agg == AggregationKind::prod  ? APFloat::getOne(sem)
                : agg == AggregationKind::max ? APFloat::getInf(sem, true)
                : agg == AggregationKind::min ? APFloat::getInf(sem, false)
                                              : APFloat::getZero(sem);
    return {arith::ConstantOp::create(b, loc, reg, FloatAttr::get(reg, v)),
            type};
  }
  unsigned width = cast<IntegerType>(reg).getWidth();
  bool isU = isUnsignedLike(type);
  APInt v =
      agg == AggregationKind::prod ? APInt(width, 1)
      : agg == AggregationKind::max
          ? (isU ? APInt::getMinValue(width) : APInt::getSignedMinValue(width))
      : agg == AggregationKind::min
          ? (isU ? APInt::getMaxValue(width) : APInt::getSignedMaxValue(width))
          : APInt(width, 0);
  return {arith::ConstantOp::create(b, loc, reg, IntegerAttr::get(reg, v)),
          type};
}

/// The combined value of one assignment (7.4), in the output's tile type;
/// or, for a `+` or `*` of f16 or bf16 computed in `fusedInto`'s f32,
/// unrounded in it. A sum into an f32 accumulator may skip the term's
/// rounding (docs/language.md 5.4: a fused kernel may skip intermediate
/// rounding), and must for the reduction to be a plain sum of extended
/// products, the form tensor cores take (ContractionNest.h).
static FailureOr<Scalar> contribution(KernelLowering &k, OpBuilder &b,
                                      Location loc, tile::ContractOp op,
                                      AffineMap subst, ValueRange dims,
                                      Type fusedInto = {}) {
  Type outType = op.getType().getElementType();
  Type combineType = op.getCombineType();
  SmallVector<Scalar> args;
  for (auto [input, attr] : llvm::zip(op.getInputs(), op.getSrcs())) {
    AffineMap map = cast<AffineMapAttr>(attr).getValue().compose(subst);
    FailureOr<Scalar> s = k.readValue(b, loc, input, map, dims);
    if (failed(s))
      return failure();
    args.push_back(*s);
  }
  auto needArgs = [&](size_t n) -> LogicalResult {
    if (args.size() != n)
      return op.emitOpError("has ")
             << args.size() << " inputs for its combination";
    return success();
  };
  switch (op.getCombo()) {
  case CombinationKind::none:
    if (failed(needArgs(1)))
      return failure();
    return convertScalar(b, loc, args[0], outType);
  case CombinationKind::mul:
  case CombinationKind::add: {
    if (failed(needArgs(2)))
      return failure();
    // In f32 for f16 and bf16, rounded once into the combination's type.
    Type work = computeType(combineType);
    Scalar x = convertScalar(b, loc, args[0], work);
    Scalar y = convertScalar(b, loc, args[1], work);
    bool isMul = op.getCombo() == CombinationKind::mul;
    Value r = aggregate(
        b, loc, isMul ? AggregationKind::prod : AggregationKind::sum, x, y);
    if (fusedInto == work && work != combineType)
      return Scalar{r, work};
    Scalar combined = convertScalar(b, loc, {r, work}, combineType);
    return convertScalar(b, loc, combined, outType);
  }
  case CombinationKind::eq:
  case CombinationKind::cond: {
    bool isCond = op.getCombo() == CombinationKind::cond;
    if (failed(needArgs(isCond ? 3 : 2)))
      return failure();
    Scalar x = convertScalar(b, loc, args[0], combineType);
    Scalar y = convertScalar(b, loc, args[1], combineType);
    Value equal =
        isa<FloatType>(x.value.getType())
            ? Value(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                          x.value, y.value))
            : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          x.value, y.value));
    Scalar truth{equal, IntegerType::get(b.getContext(), 1)};
    if (!isCond)
      return convertScalar(b, loc, truth, outType);
    Scalar value = convertScalar(b, loc, args[2], outType);
    Scalar zero = zeroScalar(b, loc, outType);
    return Scalar{
        arith::SelectOp::create(b, loc, equal, value.value, zero.value),
        outType};
  }
  }
  return failure();
}

/// The guards as an IntegerSet over `numDims` dimensions after substituting
/// the variables by `subst`.
static IntegerSet guardSet(ArrayRef<Guard> guards, AffineMap subst,
                           MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  SmallVector<bool> eqs;
  for (const Guard &g : guards) {
    exprs.push_back(g.expr.compose(subst));
    eqs.push_back(g.isEquality);
  }
  return IntegerSet::get(subst.getNumDims(), 0, exprs, eqs);
}

/// An affine.if with results whose branches `thenFn` and `elseValues` fill.
static ValueRange
guarded(OpBuilder &b, Location loc, IntegerSet set, ValueRange operands,
        ValueRange elseValues,
        llvm::function_ref<SmallVector<Value>(OpBuilder &)> thenFn) {
  auto ifOp = affine::AffineIfOp::create(b, loc, elseValues.getTypes(), set,
                                         operands, /*withElseRegion=*/true);
  auto fill = [&](Block *block, auto makeValues) {
    if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
      block->back().erase();
    OpBuilder inner = OpBuilder::atBlockEnd(block);
    SmallVector<Value> values = makeValues(inner);
    affine::AffineYieldOp::create(inner, loc, values);
  };
  fill(ifOp.getThenBlock(), thenFn);
  fill(ifOp.getElseBlock(), [&](OpBuilder &) {
    return SmallVector<Value>(elseValues.begin(), elseValues.end());
  });
  return ifOp.getResults();
}

//===----------------------------------------------------------------------===//
// Per-cell form
//===----------------------------------------------------------------------===//

/// The guard `e >= 0` (or `e == 0`) unless it is a constant that holds.
static void addGuard(SmallVectorImpl<Guard> &guards, AffineExpr e, bool eq) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    if (eq ? c.getValue() == 0 : c.getValue() >= 0)
      return;
  guards.push_back({e, eq});
}

FailureOr<Scalar> loops::emitContractionCell(KernelLowering &k, OpBuilder &b,
                                             Location loc, tile::ContractOp op,
                                             AffineMap map, ValueRange dims) {
  MLIRContext *ctx = op.getContext();
  std::optional<SmallVector<CellSinkDim>> sink = getCellSink(op);
  if (!sink)
    return op.emitOpError("cannot be computed per cell: an output index is "
                          "not a constant or one index variable plus a "
                          "constant");
  ContractionPlan plan(op);
  plan.collectGuards(/*withSink=*/false);
  unsigned m = dims.size();

  // The variables of the sink are fixed by the cell's indices; the others
  // (the reduction) get loops of their own; variables that occur nowhere
  // are 0. Guards are written over the cell's m dimensions followed by the
  // reduction loops.
  SmallVector<AffineExpr> subst(plan.numVars, getAffineConstantExpr(0, ctx));
  SmallVector<Guard> outer, inner;
  for (auto [j, dim] : llvm::enumerate(*sink)) {
    // The cell's index x ranges over the whole output dimension, so the
    // guards below are what confines it to the cells the contraction
    // writes: x == c for a constant index, and for `v + c` the variable's
    // range, which also implies its one-variable constraints. The other
    // cells receive nothing and hold 0 or the default.
    AffineExpr x = map.getResult(j);
    int64_t size = op.getType().getDimSize(j);
    if (!dim.var) {
      if (size != 1 || dim.offset != 0)
        addGuard(outer, x - dim.offset, /*eq=*/true);
      continue;
    }
    unsigned v = *dim.var;
    subst[v] = x - dim.offset;
    if (plan.lo(v) + dim.offset > 0)
      addGuard(outer, x - dim.offset - plan.lo(v), /*eq=*/false);
    if (plan.hi(v) + dim.offset < size - 1)
      addGuard(outer, plan.hi(v) + dim.offset - x, /*eq=*/false);
  }
  llvm::SmallBitVector inSink(plan.numVars);
  for (const CellSinkDim &dim : *sink)
    if (dim.var)
      inSink.set(*dim.var);
  SmallVector<unsigned> reduction;
  bool reductionNonEmpty = true;
  for (unsigned v = 0; v < plan.numVars; ++v)
    if (plan.occurs.test(v) && !inSink.test(v)) {
      subst[v] = getAffineDimExpr(m + reduction.size(), ctx);
      reduction.push_back(v);
      reductionNonEmpty &= plan.lo(v) <= plan.hi(v);
    }
  // The reduction loops are built recursively, one frame per variable.
  if (reduction.size() > kMaxReductionVars)
    return op.emitOpError("has more than ")
           << kMaxReductionVars << " reduction variables";
  unsigned numDims = m + reduction.size();
  AffineMap substMap = AffineMap::get(numDims, 0, subst, ctx);
  for (const Guard &g : plan.guards) {
    AffineExpr e = g.expr.compose(substMap);
    addGuard(usesDimFrom(e, m) ? inner : outer, e, g.isEquality);
  }

  Type outType = op.getType().getElementType();
  Type accType = computeType(outType);
  AggregationKind agg = op.getAgg();
  Value init = op.getInit();
  // Where the outer guards hold, every iteration of the reduction loops
  // contributes unless an inner guard says otherwise, so only inner guards
  // (or an empty loop) can leave a cell untouched; then a loop-carried flag
  // tells an untouched cell, which holds 0 or the default, from one whose
  // aggregate happens to equal the identity.
  bool mayBeUntouched = !inner.empty() || !reductionNonEmpty;
  bool needFlag =
      mayBeUntouched &&
      (agg == AggregationKind::prod || agg == AggregationKind::max ||
       agg == AggregationKind::min || (agg == AggregationKind::sum && init));
  bool needEmpty = needFlag || !outer.empty() || agg == AggregationKind::assign;

  // The value of an untouched cell: 0 or the default's element.
  Scalar empty, emptyAcc;
  if (needEmpty) {
    empty = zeroScalar(b, loc, outType);
    if (init) {
      FailureOr<Scalar> d = k.readValue(b, loc, init, map, dims);
      if (failed(d))
        return failure();
      empty = convertScalar(b, loc, *d, outType);
    }
    emptyAcc = convertScalar(b, loc, empty, accType);
  }
  // The accumulator starts at the aggregation's identity, so the first
  // contribution needs no select on the flag: a select chain in a nested
  // reduction sends LLVM 22's loop vectoriser into exponential time. (A NaN
  // contribution to max or min leaves the cell unspecified, 7.5.)
  Scalar acc0 = agg == AggregationKind::assign
                    ? emptyAcc
                    : identityScalar(b, loc, agg, accType);
  SmallVector<Value> state{acc0.value};
  SmallVector<Value> untouched{emptyAcc.value}; // unused without outer guards
  if (needFlag) {
    Value no = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
    state.push_back(no);
    untouched.push_back(no);
  }

  bool ok = true;
  // One assignment: fold its contribution into the state.
  auto update = [&](OpBuilder &ib, ValueRange all,
                    ValueRange cur) -> SmallVector<Value> {
    FailureOr<Scalar> c =
        contribution(k, ib, loc, op, substMap, all,
                     agg == AggregationKind::sum ? accType : Type());
    if (failed(c)) {
      ok = false;
      return SmallVector<Value>(cur.begin(), cur.end());
    }
    Scalar cv = convertScalar(ib, loc, *c, accType);
    Scalar acc{cur[0], accType};
    Value next = aggregate(ib, loc, agg, acc, cv);
    SmallVector<Value> result{next};
    if (needFlag)
      result.push_back(
          arith::ConstantOp::create(ib, loc, ib.getBoolAttr(true)));
    return result;
  };
  AffineMap allDims = AffineMap::getMultiDimIdentityMap(numDims, ctx);
  // The reduction loops from `level` inward.
  std::function<SmallVector<Value>(OpBuilder &, SmallVector<Value> &,
                                   ValueRange, unsigned)>
      reduce = [&](OpBuilder &rb, SmallVector<Value> &all, ValueRange cur,
                   unsigned level) -> SmallVector<Value> {
    if (level == reduction.size()) {
      if (inner.empty())
        return update(rb, all, cur);
      IntegerSet set = guardSet(inner, allDims, ctx);
      ValueRange r = guarded(rb, loc, set, all, cur, [&](OpBuilder &tb) {
        return update(tb, all, cur);
      });
      return SmallVector<Value>(r.begin(), r.end());
    }
    unsigned v = reduction[level];
    auto loop = affine::AffineForOp::create(
        rb, loc, plan.lo(v), plan.hi(v) + 1, 1, cur,
        [&](OpBuilder &lb, Location, Value iv, ValueRange iters) {
          all.push_back(iv);
          SmallVector<Value> next = reduce(lb, all, iters, level + 1);
          all.pop_back();
          affine::AffineYieldOp::create(lb, loc, next);
        });
    return SmallVector<Value>(loop.getResults().begin(),
                              loop.getResults().end());
  };

  SmallVector<Value> all(dims.begin(), dims.end());
  SmallVector<Value> final;
  if (outer.empty()) {
    final = reduce(b, all, state, 0);
  } else {
    // Outer guards use only the cell's dimensions; a cell they exclude
    // receives nothing.
    IntegerSet set =
        guardSet(outer, AffineMap::getMultiDimIdentityMap(m, ctx), ctx);
    ValueRange r = guarded(b, loc, set, dims, untouched, [&](OpBuilder &tb) {
      return reduce(tb, all, state, 0);
    });
    final.assign(r.begin(), r.end());
  }
  if (!ok)
    return failure();
  Scalar result = convertScalar(b, loc, {final[0], accType}, outType);
  if (needFlag)
    result.value =
        arith::SelectOp::create(b, loc, final[1], result.value, empty.value);
  return result;
}

//===----------------------------------------------------------------------===//
// Root kernels
//===----------------------------------------------------------------------===//

/// A loop nest over the variables' ranges (one iteration with none).
static Operation *buildVarNest(OpBuilder &b, Location loc, ArrayRef<int64_t> lo,
                               ArrayRef<int64_t> hi, NestBody body) {
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> ivs;
  Operation *outer = nullptr;
  if (lo.empty()) {
    auto loop = affine::AffineForOp::create(b, loc, 0, 1);
    b.setInsertionPointToStart(loop.getBody());
    body(b, loc, ValueRange());
    return loop;
  }
  for (auto [l, h] : llvm::zip(lo, hi)) {
    auto loop = affine::AffineForOp::create(b, loc, l, h + 1);
    if (!outer)
      outer = loop;
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  body(b, loc, ivs);
  return outer;
}

LogicalResult loops::lowerContraction(KernelLowering &k, tile::ContractOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Value out = k.bufferOf(op.getResult());
  if (!out)
    return op.emitOpError("has no output buffer");
  RankedTensorType outTensor = op.getType();
  Type outType = outTensor.getElementType();
  unsigned rank = outTensor.getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  std::string name = k.kernelName(op);
  bool ok = true;

  if (getCellSink(op)) {
    k.buildNest(loc, outTensor.getShape(), name,
                [&](OpBuilder &b, Location l, ValueRange ivs) {
                  FailureOr<Scalar> cell =
                      emitContractionCell(k, b, l, op, identity, ivs);
                  if (failed(cell)) {
                    ok = false;
                    return;
                  }
                  affine::AffineStoreOp::create(b, l, toStorage(b, l, *cell),
                                                out, identity, ivs);
                });
    return success(ok);
  }

  // In memory: initialise, accumulate, and finish untouched cells.
  AggregationKind agg = op.getAgg();
  Value init = op.getInit();
  bool needFlag = agg == AggregationKind::prod || agg == AggregationKind::max ||
                  agg == AggregationKind::min ||
                  (agg == AggregationKind::sum && init);
  Value flags;
  if (needFlag)
    flags = k.allocTemporary(
        loc, MemRefType::get(outTensor.getShape(), IntegerType::get(ctx, 8)));
  auto readDefault = [&](OpBuilder &b, Location l, ValueRange ivs) {
    FailureOr<Scalar> d = k.readValue(b, l, init, identity, ivs);
    if (failed(d)) {
      ok = false;
      return zeroScalar(b, l, outType);
    }
    return convertScalar(b, l, *d, outType);
  };
  k.buildNest(loc, outTensor.getShape(), name + ".init",
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                Scalar v = agg == AggregationKind::assign && init
                               ? readDefault(b, l, ivs)
                               : zeroScalar(b, l, outType);
                affine::AffineStoreOp::create(b, l, toStorage(b, l, v), out,
                                              identity, ivs);
                if (flags)
                  affine::AffineStoreOp::create(
                      b, l, arith::ConstantIntOp::create(b, l, 0, 8), flags,
                      identity, ivs);
              });

  ContractionPlan plan(op);
  plan.collectGuards(/*withSink=*/true);
  SmallVector<AffineExpr> subst(plan.numVars, getAffineConstantExpr(0, ctx));
  SmallVector<int64_t> lo, hi;
  for (unsigned v = 0; v < plan.numVars; ++v)
    if (plan.occurs.test(v)) {
      subst[v] = getAffineDimExpr(lo.size(), ctx);
      lo.push_back(plan.lo(v));
      hi.push_back(plan.hi(v));
    }
  AffineMap substMap = AffineMap::get(lo.size(), 0, subst, ctx);
  AffineMap cellMap = op.getSink().compose(substMap);

  auto accumulate = [&](OpBuilder &b, Location l, ValueRange ivs) {
    FailureOr<Scalar> c = contribution(k, b, l, op, substMap, ivs);
    if (failed(c)) {
      ok = false;
      return;
    }
    Scalar next = *c;
    if (agg != AggregationKind::assign) {
      Value loaded = affine::AffineLoadOp::create(b, l, out, cellMap, ivs);
      Type work = computeType(outType);
      Scalar acc = convertScalar(b, l, fromStorage(b, l, loaded, outType), work);
      Value merged = aggregate(b, l, agg, acc, convertScalar(b, l, *c, work));
      next = convertScalar(b, l, {merged, work}, outType);
      if (flags) {
        Value f = affine::AffineLoadOp::create(b, l, flags, cellMap, ivs);
        Value touched =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, f,
                                  arith::ConstantIntOp::create(b, l, 0, 8));
        if (agg != AggregationKind::sum)
          next.value =
              arith::SelectOp::create(b, l, touched, next.value, c->value);
        affine::AffineStoreOp::create(b, l,
                                      arith::ConstantIntOp::create(b, l, 1, 8),
                                      flags, cellMap, ivs);
      }
    }
    affine::AffineStoreOp::create(b, l, toStorage(b, l, next), out, cellMap,
                                  ivs);
  };
  Operation *body =
      buildVarNest(k.topBuilder(), loc, lo, hi,
                   [&](OpBuilder &b, Location l, ValueRange ivs) {
                     if (plan.guards.empty())
                       return accumulate(b, l, ivs);
                     IntegerSet set = guardSet(plan.guards, substMap, ctx);
                     auto ifOp =
                         affine::AffineIfOp::create(b, l, set, ivs,
                                                    /*withElseRegion=*/false);
                     OpBuilder tb = ifOp.getThenBodyBuilder();
                     accumulate(tb, l, ivs);
                   });
  tilec::kernel::KernelName(ctx).setAttr(body, StringAttr::get(ctx, name));

  if (flags && init)
    k.buildNest(
        loc, outTensor.getShape(), name + ".final",
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value f = affine::AffineLoadOp::create(b, l, flags, identity, ivs);
          Value touched =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, f,
                                    arith::ConstantIntOp::create(b, l, 0, 8));
          Value loaded = affine::AffineLoadOp::create(b, l, out, identity, ivs);
          Scalar d = readDefault(b, l, ivs);
          Scalar cur = fromStorage(b, l, loaded, outType);
          Value v = arith::SelectOp::create(b, l, touched, cur.value, d.value);
          affine::AffineStoreOp::create(b, l, toStorage(b, l, {v, outType}),
                                        out, identity, ivs);
        });
  return success(ok);
}
