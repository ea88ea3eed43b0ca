//===- MicroKernel.cpp - Jammed, vectorised copies of a kernel body -------===//
//
// Copying op by op, every op is emitted once per point (the copies of one op
// are adjacent, which is what unroll-and-jam gives), except region ops,
// which are merged: one affine.for carries the iter_args of all points and
// one affine.if tests a condition that all points share. A guard whose
// condition differs between points is versioned: the then-branch of an
// affine.if on the conjunction of all conditions runs every point's
// then-branch; else, where it holds at all points but the first row (or all
// but the last: a padded window at an image's edge), those run jammed and
// that row, where it must fail, runs the else-branch; else each point is
// tested alone. A value that depends
// on the lane IV (KernelNest::varying) becomes a vector; uniform values stay
// scalar and are broadcast where a vector op needs them.
//
//===----------------------------------------------------------------------===//

#include "MicroKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IntegerSet.h"

using namespace mlir;
using namespace mlir::affine;
using namespace tilec::transforms;

namespace {

class PointCloner {
public:
  PointCloner(OpBuilder &builder, const KernelNest &nest, int64_t width,
              const llvm::DenseMap<Value, Value> &aheadViews)
      : b(builder), nest(nest), width(width), aheadViews(aheadViews) {}

  /// Copies the ops of `block` but its terminator for every point.
  void cloneBody(Block &block, MutableArrayRef<IRMapping> points) {
    for (Operation &op : block.without_terminator())
      cloneOp(op, points);
  }

private:
  OpBuilder &b;
  const KernelNest &nest;
  int64_t width;
  const llvm::DenseMap<Value, Value> &aheadViews;

  bool isVector(Value original) const {
    return width > 1 && nest.varying.contains(original);
  }
  Type typeOf(Value original) const {
    return isVector(original) ? VectorType::get({width}, original.getType())
                              : original.getType();
  }
  /// `original` as `point` sees it, broadcast when a vector is wanted.
  Value operandFor(Value original, IRMapping &point, bool asVector) {
    Value value = point.lookupOrDefault(original);
    if (!asVector || isa<VectorType>(value.getType()))
      return value;
    return vector::BroadcastOp::create(
        b, value.getLoc(), VectorType::get({width}, value.getType()), value);
  }
  /// The operands of `terminator` for every point, shaped as `results`.
  SmallVector<Value> yieldedValues(Operation *terminator, ValueRange results,
                                   MutableArrayRef<IRMapping> points) {
    SmallVector<Value> values;
    for (IRMapping &point : points)
      for (auto [operand, result] :
           llvm::zip(terminator->getOperands(), results))
        values.push_back(operandFor(operand, point, isVector(result)));
    return values;
  }
  /// Lets LLVM fuse a multiply and the add of the accumulation into one
  /// FMA, as C compilers do by default: that is what keeps a micro-kernel
  /// at the machine's peak (the result stays within float tolerance).
  /// Only f32 and f64 multiplies and adds: `contract` on a conversion lets
  /// MLIR fold extf(truncf(x)) to x, which skips a rounding step the
  /// program asked for, and a fused f16 or bf16 FMA rounds differently from
  /// the interpreter's two operations.
  static void allowContraction(Operation *op) {
    if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(op) ||
        op->getResult(0).getType().getIntOrFloatBitWidth() < 32)
      return;
    auto fastMath = cast<arith::ArithFastMathInterface>(op);
    arith::FastMathFlagsAttr attr = fastMath.getFastMathFlagsAttr();
    arith::FastMathFlags flags =
        attr ? attr.getValue() : arith::FastMathFlags::none;
    op->setAttr(fastMath.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(
                    op->getContext(), flags | arith::FastMathFlags::contract));
  }
  static bool sameForAll(ValueRange values, MutableArrayRef<IRMapping> points) {
    return llvm::all_of(values, [&](Value v) {
      return llvm::all_of(points, [&](IRMapping &p) {
        return p.lookupOrDefault(v) == points.front().lookupOrDefault(v);
      });
    });
  }
  static void mapResults(Operation *original, ValueRange merged,
                         MutableArrayRef<IRMapping> points) {
    unsigned n = original->getNumResults();
    for (auto [k, point] : llvm::enumerate(points))
      for (unsigned i = 0; i < n; ++i)
        point.map(original->getResult(i), merged[k * n + i]);
  }

  void cloneOp(Operation &op, MutableArrayRef<IRMapping> points) {
    if (auto loop = dyn_cast<AffineForOp>(op))
      return cloneLoop(loop, points);
    if (auto guard = dyn_cast<AffineIfOp>(op))
      return cloneGuard(guard, points);
    // The addresses prefetched for this load, once each: the points of a
    // column of rows read the same lanes.
    SmallVector<SmallVector<Value>> prefetched;
    for (IRMapping &point : points) {
      if (auto load = dyn_cast<AffineLoadOp>(op); load && isVector(load)) {
        Value memref = point.lookupOrDefault(load.getMemRef());
        auto operands = llvm::map_to_vector(
            load.getMapOperands(),
            [&](Value v) { return point.lookupOrDefault(v); });
        prefetchAhead(load, memref, operands, prefetched);
        Value vector = AffineVectorLoadOp::create(
            b, load.getLoc(), cast<VectorType>(typeOf(load)), memref,
            load.getAffineMap(), operands);
        point.map(load.getResult(), vector);
        continue;
      }
      if (auto store = dyn_cast<AffineStoreOp>(op);
          store && (isVector(store.getValue()) ||
                    llvm::any_of(usedMapOperands(store.getAffineMap(),
                                                 store.getMapOperands()),
                                 [&](Value v) { return isVector(v); }))) {
        AffineVectorStoreOp::create(
            b, store.getLoc(), operandFor(store.getValue(), point, true),
            point.lookupOrDefault(store.getMemRef()), store.getAffineMap(),
            llvm::map_to_vector(store.getMapOperands(), [&](Value v) {
              return point.lookupOrDefault(v);
            }));
        continue;
      }
      Operation *copy = b.clone(op, point);
      allowContraction(copy);
      if (llvm::none_of(op.getResults(),
                        [&](Value v) { return isVector(v); }))
        continue;
      // An elementwise op on lanes (KernelNest checked the trait): the same
      // op on vectors, every operand broadcast to the lane count.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(copy);
      for (OpOperand &operand : copy->getOpOperands())
        operand.set(operandFor(operand.get(), point, true));
      for (auto [result, original] :
           llvm::zip(copy->getResults(), op.getResults()))
        result.setType(typeOf(original));
    }
  }

  /// Prefetches into L2 what a copy of `load` from `memref` at `operands`
  /// will read kPrefetchRows rows on, where `memref` is a kept panel that
  /// has a view that far ahead.
  void prefetchAhead(AffineLoadOp load, Value memref, ArrayRef<Value> operands,
                     SmallVector<SmallVector<Value>> &prefetched) {
    auto ahead = aheadViews.find(memref);
    if (ahead == aheadViews.end())
      return;
    SmallVector<Value> used = usedMapOperands(load.getAffineMap(), operands);
    if (llvm::is_contained(prefetched, used))
      return;
    prefetched.push_back(used);
    AffinePrefetchOp::create(b, load.getLoc(), ahead->second,
                             load.getAffineMap(), operands, /*isWrite=*/false,
                             /*localityHint=*/2, /*isDataCache=*/true);
  }

  void cloneLoop(AffineForOp loop, MutableArrayRef<IRMapping> points) {
    if (!sameForAll(loop.getLowerBoundOperands(), points) ||
        !sameForAll(loop.getUpperBoundOperands(), points)) {
      for (unsigned k = 0; k < points.size(); ++k)
        cloneLoop(loop, points.slice(k, 1));
      return;
    }
    IRMapping &first = points.front();
    auto mapped = [&](ValueRange values) {
      return llvm::map_to_vector(
          values, [&](Value v) { return first.lookupOrDefault(v); });
    };
    SmallVector<Value> inits;
    for (IRMapping &point : points)
      for (auto [init, arg] :
           llvm::zip(loop.getInits(), loop.getRegionIterArgs()))
        inits.push_back(operandFor(init, point, isVector(arg)));
    auto copy = AffineForOp::create(
        b, loop.getLoc(), mapped(loop.getLowerBoundOperands()),
        loop.getLowerBoundMap(), mapped(loop.getUpperBoundOperands()),
        loop.getUpperBoundMap(), loop.getStepAsInt(), inits);
    unsigned n = loop.getNumIterOperands();
    for (auto [k, point] : llvm::enumerate(points)) {
      point.map(loop.getInductionVar(), copy.getInductionVar());
      for (unsigned i = 0; i < n; ++i)
        point.map(loop.getRegionIterArgs()[i],
                  copy.getRegionIterArgs()[k * n + i]);
    }
    {
      OpBuilder::InsertionGuard guard(b);
      Block *body = copy.getBody();
      if (body->mightHaveTerminator())
        b.setInsertionPoint(body->getTerminator());
      else
        b.setInsertionPointToEnd(body);
      cloneBody(*loop.getBody(), points);
      if (n != 0)
        AffineYieldOp::create(
            b, loop.getLoc(),
            yieldedValues(loop.getBody()->getTerminator(),
                          loop.getRegionIterArgs(), points));
    }
    mapResults(loop, copy.getResults(), points);
  }

  /// The conjunction of `guard`'s condition at every point.
  std::pair<IntegerSet, SmallVector<Value>>
  conjunction(AffineIfOp guard, MutableArrayRef<IRMapping> points) {
    IntegerSet set = guard.getIntegerSet();
    unsigned dims = set.getNumDims(), symbols = set.getNumSymbols();
    unsigned count = points.size();
    SmallVector<AffineExpr> constraints;
    SmallVector<bool> equalities;
    SmallVector<Value> dimOperands, symbolOperands;
    for (auto [k, point] : llvm::enumerate(points)) {
      for (auto [expr, eq] :
           llvm::zip(set.getConstraints(), set.getEqFlags())) {
        constraints.push_back(expr.shiftDims(dims, dims * k)
                                  .shiftSymbols(symbols, symbols * k));
        equalities.push_back(eq);
      }
      for (auto [i, v] : llvm::enumerate(guard.getOperands()))
        (i < dims ? dimOperands : symbolOperands)
            .push_back(point.lookupOrDefault(v));
    }
    IntegerSet all = IntegerSet::get(dims * count, symbols * count,
                                     constraints, equalities);
    SmallVector<Value> operands = dimOperands;
    llvm::append_range(operands, symbolOperands);
    canonicalizeSetAndOperands(&all, &operands);
    return {all, operands};
  }

  /// Fills `region` of a new guard with the copies of `original`'s
  /// branch for `points` and yields their values.
  void fillBranch(Region &region, Region &original, ValueRange results,
                  MutableArrayRef<IRMapping> points) {
    OpBuilder::InsertionGuard guard(b);
    Block *block = &region.front();
    if (block->mightHaveTerminator())
      b.setInsertionPoint(block->getTerminator());
    else
      b.setInsertionPointToEnd(block);
    if (original.empty()) // No else: nothing to compute, no results.
      return;
    cloneBody(original.front(), points);
    if (!results.empty())
      AffineYieldOp::create(
          b, original.getLoc(),
          yieldedValues(original.front().getTerminator(), results, points));
  }

  void cloneGuard(AffineIfOp guard, MutableArrayRef<IRMapping> points) {
    SmallVector<Type> types;
    for (unsigned k = 0; k < points.size(); ++k)
      for (Value result : guard.getResults())
        types.push_back(typeOf(result));
    if (sameForAll(usedGuardOperands(guard), points)) {
      auto copy = AffineIfOp::create(
          b, guard.getLoc(), types, guard.getIntegerSet(),
          llvm::map_to_vector(guard.getOperands(),
                              [&](Value v) {
                                return points.front().lookupOrDefault(v);
                              }),
          guard.hasElse());
      fillBranch(copy.getThenRegion(), guard.getThenRegion(),
                 guard.getResults(), points);
      if (guard.hasElse())
        fillBranch(copy.getElseRegion(), guard.getElseRegion(),
                   guard.getResults(), points);
      mapResults(guard, copy.getResults(), points);
      return;
    }
    auto [set, operands] = conjunction(guard, points);
    auto copy = AffineIfOp::create(b, guard.getLoc(), types, set, operands,
                                   /*withElseRegion=*/true);
    fillBranch(copy.getThenRegion(), guard.getThenRegion(), guard.getResults(),
               points);
    {
      OpBuilder::InsertionGuard insertion(b);
      setInsertionInto(copy.getElseBlock());
      emitPeeled(guard, points, types);
    }
    mapResults(guard, copy.getResults(), points);
  }

private:
  void setInsertionInto(Block *block) {
    if (block->mightHaveTerminator())
      b.setInsertionPoint(block->getTerminator());
    else
      b.setInsertionPointToEnd(block);
  }

  /// Yields the values of `guard`'s results at every point, in order.
  void yieldPointResults(AffineIfOp guard, MutableArrayRef<IRMapping> points) {
    if (guard.getNumResults() == 0)
      return;
    SmallVector<Value> values;
    for (IRMapping &point : points)
      for (Value result : guard.getResults())
        values.push_back(point.lookup(result));
    AffineYieldOp::create(b, guard.getLoc(), values);
  }

  /// What runs where `guard` does not hold at every point, ending with a
  /// yield of its results at every point: where it holds at all but the
  /// first row of points (`stage` 0) or all but the last (`stage` 1), those
  /// points jammed and that row's else-branch; otherwise (and for a guard
  /// without a loop inside) each point alone. A row is the points at the
  /// front (the back) that test the guard on the same values: the vectors
  /// of one pixel when the lanes span several. A 3x3 window at an image's
  /// left or right edge leaves out just the first or the last pixel of a
  /// row of them, and each point alone would load the filter once per
  /// point (a 7x7 image's convolution ran 3x slower; with 7 pixels of 32
  /// lanes, peeling one point instead of one pixel's two, 6 of its 9 taps
  /// still ran each point alone: 0.56 of oneDNN's speed).
  void emitPeeled(AffineIfOp guard, MutableArrayRef<IRMapping> points,
                  ArrayRef<Type> types, unsigned stage = 0) {
    if (points.size() <= 2 || stage > 1 || !worthPeeling(guard))
      return emitEachAlone(guard, points);
    bool first = stage == 0;
    unsigned row = rowLength(guard, points, first);
    if (row + 1 >= points.size())
      return emitPeeled(guard, points, types, stage + 1);
    MutableArrayRef<IRMapping> rest =
        first ? points.drop_front(row) : points.drop_back(row);
    MutableArrayRef<IRMapping> alone =
        first ? points.take_front(row) : points.take_back(row);
    auto [set, operands] = conjunction(guard, rest);
    auto version = AffineIfOp::create(b, guard.getLoc(), types, set, operands,
                                      /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard insertion(b);
      // The guard fails at some point, and holds at every point of `rest`:
      // it fails along the whole row `alone`, which runs its else-branch
      // (nothing, for a padded window: no test left in the loop).
      setInsertionInto(version.getThenBlock());
      if (guard.hasElse())
        cloneBody(guard.getElseRegion().front(), alone);
      cloneBody(guard.getThenRegion().front(), rest);
      if (guard.getNumResults() != 0) {
        SmallVector<Value> values;
        Operation *thenYield = guard.getThenRegion().front().getTerminator();
        Operation *elseYield = guard.getElseRegion().front().getTerminator();
        for (IRMapping &point : points) {
          bool isAlone = alone.begin() <= &point && &point < alone.end();
          Operation *yield = isAlone ? elseYield : thenYield;
          for (auto [operand, result] :
               llvm::zip(yield->getOperands(), guard.getResults()))
            values.push_back(operandFor(operand, point, isVector(result)));
        }
        AffineYieldOp::create(b, guard.getLoc(), values);
      }
      setInsertionInto(version.getElseBlock());
      emitPeeled(guard, points, types, stage + 1);
    }
    mapResults(guard, version.getResults(), points);
    yieldPointResults(guard, points);
  }

  /// How many points at the front of `points` (the back unless `front`)
  /// test `guard` on the same values as the first (the last) one.
  static unsigned rowLength(AffineIfOp guard, MutableArrayRef<IRMapping> points,
                            bool front) {
    SmallVector<Value> used = usedGuardOperands(guard);
    IRMapping &end = front ? points.front() : points.back();
    unsigned length = 0;
    for (unsigned k = 0; k < points.size(); ++k, ++length) {
      IRMapping &point = points[front ? k : points.size() - 1 - k];
      if (!llvm::all_of(used, [&](Value v) {
            return point.lookupOrDefault(v) == end.lookupOrDefault(v);
          }))
        break;
    }
    return length;
  }

  /// Whether versions for one row left out can pay for their code (which
  /// the compile pays for): where the guard holds a loop or is the same in
  /// every iteration of the loop around it (a convolution's channels, which
  /// reuse the filter across points). A guard that changes with the loop
  /// around it (a depthwise tap) is tested per iteration either way.
  static bool worthPeeling(AffineIfOp guard) {
    if (!guard.getThenRegion().front().getOps<AffineForOp>().empty())
      return true;
    auto around = guard->getParentOfType<AffineForOp>();
    return around && !llvm::is_contained(usedGuardOperands(guard),
                                         around.getInductionVar());
  }

  void emitEachAlone(AffineIfOp guard, MutableArrayRef<IRMapping> points) {
    for (unsigned k = 0; k < points.size(); ++k)
      cloneGuard(guard, points.slice(k, 1));
    yieldPointResults(guard, points);
  }
};

/// Unswitches `loop` when its body is just an invariant affine.if with an
/// else branch whose results it yields; returns whether it did.
bool unswitch(AffineForOp loop) {
  Block *body = loop.getBody();
  if (body->getOperations().size() != 2)
    return false;
  auto guard = dyn_cast<AffineIfOp>(body->front());
  if (!guard || !guard.hasElse() ||
      !llvm::equal(body->getTerminator()->getOperands(), guard.getResults()) ||
      !llvm::all_of(guard.getOperands(), [&](Value v) {
        return loop.isDefinedOutsideOfLoop(v);
      }))
    return false;
  OpBuilder b(loop);
  auto hoisted =
      AffineIfOp::create(b, guard.getLoc(), loop.getResultTypes(),
                         guard.getIntegerSet(), guard.getOperands(), true);
  for (bool thenBranch : {true, false}) {
    Block *block = thenBranch ? hoisted.getThenBlock() : hoisted.getElseBlock();
    if (block->mightHaveTerminator())
      b.setInsertionPoint(block->getTerminator());
    else
      b.setInsertionPointToEnd(block);
    auto copy = cast<AffineForOp>(b.clone(*loop));
    auto inner = cast<AffineIfOp>(copy.getBody()->front());
    Block *branch = thenBranch ? inner.getThenBlock() : inner.getElseBlock();
    Operation *yield = branch->getTerminator();
    copy.getBody()->getOperations().splice(Block::iterator(inner),
                                           branch->getOperations(),
                                           branch->begin(),
                                           Block::iterator(yield));
    inner.replaceAllUsesWith(yield->getOperands());
    inner.erase();
    if (loop.getNumResults() != 0)
      AffineYieldOp::create(b, loop.getLoc(), copy.getResults());
  }
  loop.replaceAllUsesWith(hoisted.getResults());
  loop.erase();
  return true;
}

} // namespace

LogicalResult tilec::transforms::emitMicroKernel(
    OpBuilder &builder, const KernelNest &nest,
    MutableArrayRef<IRMapping> points, int64_t vectorWidth,
    const llvm::DenseMap<Value, Value> &aheadViews) {
  if (points.empty() || (vectorWidth > 1 && !nest.vectorizable))
    return failure();
  PointCloner(builder, nest, vectorWidth, aheadViews)
      .cloneBody(*nest.body(), points);
  return success();
}

void tilec::transforms::unswitchInvariantGuards(Operation *root) {
  // Innermost loops first; each rewrite may expose the enclosing loop, so
  // walk again until nothing changes (each rewrite moves a guard outwards,
  // which bounds the number of rounds by the nest depth times the guards).
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<AffineForOp> loops;
    root->walk([&](AffineForOp loop) { loops.push_back(loop); });
    for (AffineForOp loop : loops)
      if (loop.getOperation() != root && unswitch(loop)) {
        changed = true;
        break;
      }
  }
}
