//===- RowNest.cpp - A kernel nest read as work on whole rows -------------===//
//
// See RowNest.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/RowNest.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::affine;
using namespace tilec;

int RowNest::reductionCount() const {
  return llvm::count_if(steps, [](const RowStep &step) {
    return step.kind == RowStep::Kind::Reduction;
  });
}

TypedAttr tilec::rowReductionIdentity(Operation *aggregate) {
  std::optional<TypedAttr> identity = arith::getNeutralElement(aggregate);
  return identity ? *identity : TypedAttr();
}

namespace {

/// An affine load or store: its buffer and indices.
struct Access {
  Value memref;
  AffineMap map;
  SmallVector<Value> operands;
  bool isStore;
};

std::optional<Access> accessOf(Operation *op) {
  if (auto load = dyn_cast<AffineLoadOp>(op))
    return Access{load.getMemRef(), load.getAffineMap(),
                  SmallVector<Value>(load.getMapOperands()), false};
  if (auto store = dyn_cast<AffineStoreOp>(op))
    return Access{store.getMemRef(), store.getAffineMap(),
                  SmallVector<Value>(store.getMapOperands()), true};
  return std::nullopt;
}

/// Whether `op` may run as one statement of a row: an affine access or an
/// op without regions and without effects on memory.
bool isStraightLine(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  return accessOf(op) || isa<AffineYieldOp>(op) || isMemoryEffectFree(op);
}

/// Whether index `result` of `access` is exactly induction variable `iv`.
bool indexIs(const Access &access, unsigned result, Value iv) {
  auto dim = dyn_cast<AffineDimExpr>(access.map.getResult(result));
  return dim && access.operands[dim.getPosition()] == iv;
}

/// The columns loop `op` (from 0, unit step, constant trip count, a
/// straight-line body), or null.
AffineForOp columnsLoop(Operation *op) {
  auto loop = dyn_cast<AffineForOp>(op);
  if (!loop || !loop.hasConstantBounds() || loop.getConstantLowerBound() != 0 ||
      loop.getStepAsInt() != 1)
    return {};
  for (Operation &inner : *loop.getBody())
    if (!isStraightLine(&inner))
      return {};
  return loop;
}

/// The op that folds each column into `loop`'s one accumulator, if the loop
/// is such a reduction: the yielded value combines the accumulator (used
/// nowhere else) with something else, by an op with an identity.
Operation *aggregateOf(AffineForOp loop) {
  if (loop.getNumIterOperands() != 1)
    return nullptr;
  Value accumulator = loop.getRegionIterArgs()[0];
  auto yield = cast<AffineYieldOp>(loop.getBody()->getTerminator());
  Operation *aggregate = yield.getOperand(0).getDefiningOp();
  if (!aggregate || aggregate->getBlock() != loop.getBody() ||
      aggregate->getNumOperands() != 2 || !aggregate->hasOneUse() ||
      !accumulator.hasOneUse() ||
      *accumulator.getUsers().begin() != aggregate ||
      aggregate->getOperand(0) == aggregate->getOperand(1) ||
      !rowReductionIdentity(aggregate))
    return nullptr;
  return aggregate;
}

/// Checks the buffer rule of RowNest.h for every access in the row's body
/// and fills `nest.written`.
bool classifyBuffers(RowNest &nest) {
  Block *body = nest.rows.back().getBody();
  SmallVector<std::pair<Access, AffineForOp>> accesses;
  body->walk([&](Operation *op) {
    if (std::optional<Access> access = accessOf(op))
      accesses.push_back(
          {*access, op->getParentOp() == nest.rows.back().getOperation()
                        ? AffineForOp()
                        : cast<AffineForOp>(op->getParentOp())});
  });
  llvm::SmallDenseSet<Value> written;
  for (auto &[access, loop] : accesses) {
    // Aliases would hide who writes what.
    if (Operation *def = access.memref.getDefiningOp())
      if (isa<ViewLikeOpInterface>(def))
        return false;
    if (access.isStore)
      written.insert(access.memref);
  }
  size_t rowCount = nest.rows.size();
  for (auto &[access, loop] : accesses) {
    if (!written.contains(access.memref))
      continue;
    unsigned results = access.map.getNumResults();
    if (results < rowCount)
      return false;
    for (unsigned r = 0; r < rowCount; ++r)
      if (!indexIs(access, r, nest.rows[r].getInductionVar()))
        return false;
    // A column of the enclosing columns loop, or constants (a row scalar,
    // which only the row's own statements store: inside a columns loop
    // every work-item would store its own column's value).
    bool atColumn = loop && results == rowCount + 1 &&
                    indexIs(access, rowCount, loop.getInductionVar());
    bool atConstants = llvm::all_of(
        access.map.getResults().drop_front(rowCount),
        [](AffineExpr index) { return isa<AffineConstantExpr>(index); });
    RowBuffer use;
    if (atColumn)
      use = RowBuffer::Columns;
    else if (atConstants && !(loop && access.isStore))
      use = RowBuffer::Scalar;
    else
      return false;
    auto [at, inserted] = nest.written.insert({access.memref, use});
    if (!inserted && at->second != use)
      return false;
  }
  return true;
}

} // namespace

std::optional<RowNest>
tilec::matchRowNest(AffineForOp kernel, ArrayRef<AffineForOp> band) {
  if (band.empty() || band.front() != kernel)
    return std::nullopt;
  RowNest nest;
  nest.rows.assign(band.begin(), band.end());
  for (AffineForOp row : band)
    if (!getConstantTripCount(row))
      return std::nullopt;
  for (Operation &op : nest.rows.back().getBody()->without_terminator()) {
    if (AffineForOp loop = columnsLoop(&op)) {
      int64_t columns = loop.getConstantUpperBound();
      if (nest.columns != 0 && nest.columns != columns)
        return std::nullopt;
      nest.columns = columns;
      if (loop.getNumIterOperands() == 0) {
        nest.steps.push_back({RowStep::Kind::Columns, &op});
        continue;
      }
      Operation *aggregate = aggregateOf(loop);
      if (!aggregate)
        return std::nullopt;
      nest.steps.push_back({RowStep::Kind::Reduction, &op, aggregate});
      continue;
    }
    if (!isStraightLine(&op))
      return std::nullopt;
    nest.steps.push_back({RowStep::Kind::Scalar, &op});
  }
  if (nest.reductionCount() == 0 || !classifyBuffers(nest))
    return std::nullopt;
  return nest;
}
