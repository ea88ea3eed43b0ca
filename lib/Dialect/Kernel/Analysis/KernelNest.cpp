//===- KernelNest.cpp - Matching kernels and their lanes ------------------===//
//
// The band is the kernel's parallel band (ParallelBand.h) of loops from 0
// with unit step, so its iterations may be tiled, interleaved and jammed
// freely, and each loop's upper bound is its extent.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/KernelNest.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::affine;
using namespace tilec::transforms;

namespace {

bool isScalar(Type type) { return type.isIntOrIndexOrFloat(); }

/// Whether `op`, somewhere in the band body, is one the transforms know how
/// to copy; stores only at the top of the body (`top`).
bool isKnownOp(Operation *op, bool top) {
  if (isa<AffineLoadOp, AffineApplyOp, AffineYieldOp>(op))
    return true;
  if (isa<AffineStoreOp>(op))
    return top;
  if (auto loop = dyn_cast<AffineForOp>(op))
    return loop.getStepAsInt() == 1;
  if (isa<AffineIfOp>(op))
    return true;
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         llvm::all_of(op->getResultTypes(), isScalar);
}

bool bodyIsKnown(Block &block, bool top) {
  for (Operation &op : block) {
    if (!isKnownOp(&op, top))
      return false;
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        if (!bodyIsKnown(inner, /*top=*/false))
          return false;
  }
  return true;
}

/// The change of `expr` when every dim in `laneDims` grows by one, if it is
/// a constant (it is for any expression linear in them).
std::optional<int64_t> laneStride(AffineExpr expr, ArrayRef<unsigned> laneDims,
                                  unsigned numDims, unsigned numSymbols) {
  DenseMap<AffineExpr, AffineExpr> shift;
  for (unsigned d : laneDims) {
    AffineExpr dim = getAffineDimExpr(d, expr.getContext());
    shift[dim] = dim + 1;
  }
  AffineExpr delta =
      simplifyAffineExpr(expr.replace(shift) - expr, numDims, numSymbols);
  if (auto constant = dyn_cast<AffineConstantExpr>(delta))
    return constant.getValue();
  return std::nullopt;
}

/// Whether an access through `map` moves along the last dimension of a
/// contiguous memref, one element per lane, or not at all.
bool isLaneAccess(AffineMap map, ValueRange operands, Value memref,
                  Value lane) {
  auto type = cast<MemRefType>(memref.getType());
  if (map.getNumResults() == 0 || !type.getLayout().isIdentity() ||
      !isScalar(type.getElementType()) || type.getElementType().isIndex())
    return false;
  std::optional<SmallVector<int64_t>> strides =
      laneStrides(map, operands, lane);
  if (!strides)
    return false;
  for (auto [i, stride] : llvm::enumerate(*strides))
    if (stride != (i + 1 == strides->size() ? 1 : 0))
      return false;
  return true;
}

/// The operands `op` reads: the loop level passes every enclosing IV to an
/// access map, used or not, and a lane IV the map ignores does not make the
/// access differ between lanes.
SmallVector<Value> operandsRead(Operation *op) {
  if (auto load = dyn_cast<AffineLoadOp>(op))
    return usedMapOperands(load.getAffineMap(), load.getMapOperands());
  if (auto apply = dyn_cast<AffineApplyOp>(op))
    return usedMapOperands(apply.getAffineMap(), apply.getMapOperands());
  if (auto store = dyn_cast<AffineStoreOp>(op)) {
    SmallVector<Value> read =
        usedMapOperands(store.getAffineMap(), store.getMapOperands());
    read.push_back(store.getValue());
    return read;
  }
  return llvm::to_vector(op->getOperands());
}

/// Propagates lane dependence from the lane IV through the body to a fixed
/// point (iter_args depend on what their loop yields).
void propagateVarying(KernelNest &nest) {
  DenseSet<Value> &varying = nest.varying;
  varying.insert(nest.laneIV());
  auto isVarying = [&](Value v) { return varying.contains(v); };
  auto mark = [&](Value v, bool changedSoFar) {
    return varying.insert(v).second || changedSoFar;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    nest.body()->walk([&](Operation *op) {
      if (auto loop = dyn_cast<AffineForOp>(op)) {
        auto yield = cast<AffineYieldOp>(loop.getBody()->getTerminator());
        for (unsigned i = 0, e = loop.getNumIterOperands(); i < e; ++i)
          if (isVarying(loop.getInits()[i]) ||
              isVarying(yield.getOperand(i))) {
            changed = mark(loop.getRegionIterArgs()[i], changed);
            changed = mark(loop.getResult(i), changed);
          }
        return;
      }
      if (auto guard = dyn_cast<AffineIfOp>(op)) {
        for (Region *region : {&guard.getThenRegion(), &guard.getElseRegion()})
          if (!region->empty())
            for (auto [i, v] : llvm::enumerate(
                     region->front().getTerminator()->getOperands()))
              if (isVarying(v))
                changed = mark(guard.getResult(i), changed);
        return;
      }
      if (llvm::any_of(operandsRead(op), isVarying))
        for (Value result : op->getResults())
          changed = mark(result, changed);
    });
  }
}

/// Whether every op that sees a lane-dependent value can take vectors.
bool lanesVectorize(const KernelNest &nest) {
  const DenseSet<Value> &varying = nest.varying;
  auto isVarying = [&](Value v) { return varying.contains(v); };
  Value lane = nest.laneIV();
  WalkResult result = nest.body()->walk([&](Operation *op) -> WalkResult {
    // The lane IV itself only addresses memory; anything computed from it
    // (an index_cast, an affine.apply) would need a vector of indices.
    bool usesLane = llvm::is_contained(operandsRead(op), lane);
    // f16 and bf16 lanes stay scalar: their vector conversions lower to a
    // different rounding than the scalar ones the interpreter matches.
    for (Value result : op->getResults())
      if (isVarying(result) && isa<FloatType>(result.getType()) &&
          result.getType().getIntOrFloatBitWidth() < 32)
        return WalkResult::interrupt();
    if (auto load = dyn_cast<AffineLoadOp>(op)) {
      if (isVarying(load.getResult()) &&
          (llvm::any_of(operandsRead(op),
                        [&](Value v) { return isVarying(v) && v != lane; }) ||
           !isLaneAccess(load.getAffineMap(), load.getMapOperands(),
                         load.getMemRef(), lane)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (auto store = dyn_cast<AffineStoreOp>(op)) {
      SmallVector<Value> addressOperands =
          usedMapOperands(store.getAffineMap(), store.getMapOperands());
      bool address = llvm::any_of(addressOperands, isVarying);
      if (llvm::any_of(addressOperands,
                       [&](Value v) { return isVarying(v) && v != lane; }))
        return WalkResult::interrupt();
      if ((address || isVarying(store.getValue())) &&
          (!address || !isLaneAccess(store.getAffineMap(),
                                     store.getMapOperands(),
                                     store.getMemRef(), lane)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (auto guard = dyn_cast<AffineIfOp>(op))
      return llvm::any_of(usedGuardOperands(guard), isVarying)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    if (usesLane)
      return WalkResult::interrupt();
    if (auto loop = dyn_cast<AffineForOp>(op)) {
      if (llvm::any_of(loop.getLowerBoundOperands(), isVarying) ||
          llvm::any_of(loop.getUpperBoundOperands(), isVarying))
        return WalkResult::interrupt();
      for (Value arg : loop.getRegionIterArgs())
        if (isVarying(arg) && arg.getType().isIndex())
          return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (isa<AffineYieldOp>(op))
      return WalkResult::advance();
    bool varyingOp = llvm::any_of(op->getOperands(), isVarying);
    if (varyingOp && (isa<AffineApplyOp>(op) ||
                      !OpTrait::hasElementwiseMappableTraits(op) ||
                      llvm::any_of(op->getResultTypes(),
                                   [](Type t) { return t.isIndex(); })))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

unsigned reductionDepthOf(Block *body) {
  for (Operation &op : *body)
    if (auto loop = dyn_cast<AffineForOp>(op))
      return 1 + reductionDepthOf(loop.getBody());
  return 0;
}

} // namespace

std::optional<SmallVector<int64_t>>
tilec::transforms::laneStrides(AffineMap map, ValueRange operands,
                               Value lane) {
  SmallVector<unsigned> laneDims;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    if (operand != lane)
      continue;
    if (i >= map.getNumDims())
      return std::nullopt; // The lane as a symbol: no stride to reason about.
    laneDims.push_back(i);
  }
  SmallVector<int64_t> strides;
  for (AffineExpr expr : map.getResults()) {
    std::optional<int64_t> stride =
        laneStride(expr, laneDims, map.getNumDims(), map.getNumSymbols());
    if (!stride)
      return std::nullopt;
    strides.push_back(*stride);
  }
  return strides;
}

/// The operands of `exprs` (over `numDims` dims, then symbols) that some
/// expression reads.
static SmallVector<Value> usedOperands(ArrayRef<AffineExpr> exprs,
                                       unsigned numDims, ValueRange operands) {
  SmallVector<Value> used;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    bool isDim = i < numDims;
    unsigned position = isDim ? i : i - numDims;
    if (llvm::any_of(exprs, [&](AffineExpr e) {
          return isDim ? e.isFunctionOfDim(position)
                       : e.isFunctionOfSymbol(position);
        }))
      used.push_back(operand);
  }
  return used;
}

SmallVector<Value> tilec::transforms::usedGuardOperands(AffineIfOp guard) {
  IntegerSet set = guard.getIntegerSet();
  return usedOperands(set.getConstraints(), set.getNumDims(),
                      guard.getOperands());
}

SmallVector<Value> tilec::transforms::usedMapOperands(AffineMap map,
                                                      ValueRange operands) {
  return usedOperands(map.getResults(), map.getNumDims(), operands);
}

Type KernelNest::storedElementType() const {
  for (Operation &op : *body())
    if (auto store = dyn_cast<AffineStoreOp>(op))
      return store.getMemRefType().getElementType();
  return {};
}

std::optional<KernelNest>
tilec::transforms::matchKernelNest(AffineForOp kernel) {
  KernelNest nest;
  nest.band = tilec::getParallelBand(kernel, {/*zeroBasedUnitStep=*/true});
  nest.extents = tilec::getBandExtents(nest.band);
  if (nest.band.empty() || !bodyIsKnown(*nest.body(), /*top=*/true) ||
      !nest.storedElementType())
    return std::nullopt;
  nest.reductionDepth = reductionDepthOf(nest.body());
  propagateVarying(nest);
  nest.vectorizable = lanesVectorize(nest);
  return nest;
}
