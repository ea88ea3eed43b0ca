//===- StagingPlan.cpp - Which operand tiles go to local memory -----------===//
//
// Checks the `stage` entries of a schedule against the kernel and computes
// each staged operand's tile: for one work-group and one block of the
// reduction loop, every index of every load of the operand is an affine
// function of loops whose ranges are known, so its values form an interval
// whose start moves with the work-group and block and whose length is fixed.
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tilec;

namespace {

/// The memrefs the nest reads, in order of first read: operand j of the
/// schedule's `stage` list.
SmallVector<Value> readOperands(affine::AffineForOp root) {
  SmallVector<Value> operands;
  root.walk([&](Operation *op) {
    Value memref;
    if (auto read = dyn_cast<affine::AffineReadOpInterface>(op))
      memref = read.getMemRef();
    else if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef();
    if (memref && !llvm::is_contained(operands, memref))
      operands.push_back(memref);
  });
  return operands;
}

/// The range one loop's induction variable covers in one block.
struct LoopRange {
  unsigned position; ///< band position, then the reduction, then inner loops
  bool moves;        ///< whether its start depends on the group or block
  int64_t lower;     ///< the start, when it does not move
  int64_t span;      ///< last value minus first value
};

class StagingPlanner {
public:
  StagingPlanner(KernelPlan &plan, affine::AffineForOp reduction)
      : plan(plan), reduction(reduction) {}

  LogicalResult run(const schedule::DeviceProfile &target);

private:
  void collectRanges();
  LogicalResult planOperand(unsigned index, Value memref,
                            StagedOperand &operand);
  LogicalResult cornerOf(AffineExpr expr, affine::AffineLoadOp load,
                         TileCorner &corner, unsigned index);
  InFlightDiagnostic operandError(unsigned index) {
    return scheduleError(plan) << "operand " << index << " cannot be staged: ";
  }

  KernelPlan &plan;
  affine::AffineForOp reduction;
  StagingPlan staging;
  llvm::DenseMap<Value, LoopRange> ranges;
};

void StagingPlanner::collectRanges() {
  for (auto [i, loop] : llvm::enumerate(plan.band)) {
    int64_t span = 0;
    for (GridDim &dim : plan.dims)
      if (dim.loops.size() == 1 && dim.loops.front() == i)
        span = loop.getStepAsInt() * (dim.block - 1);
    ranges[loop.getInductionVar()] = {unsigned(i), true, 0, span};
  }
  unsigned position = plan.band.size();
  ranges[reduction.getInductionVar()] = {
      position++, true, 0, reduction.getStepAsInt() * (staging.block - 1)};
  reduction.getBody()->walk([&](affine::AffineForOp inner) {
    std::optional<uint64_t> trips = affine::getConstantTripCount(inner);
    if (!inner.hasConstantBounds() || !trips || *trips == 0)
      return;
    ranges[inner.getInductionVar()] = {
        position++, false, inner.getConstantLowerBound(),
        inner.getStepAsInt() * (int64_t(*trips) - 1)};
  });
}

LogicalResult StagingPlanner::cornerOf(AffineExpr expr,
                                       affine::AffineLoadOp load,
                                       TileCorner &corner, unsigned index) {
  AffineMap map = load.getAffineMap();
  SmallVector<int64_t> flat;
  if (failed(getFlattenedAffineExpr(expr, map.getNumDims(),
                                    map.getNumSymbols(), &flat)) ||
      flat.size() != map.getNumInputs() + 1)
    return operandError(index) << "an index is no linear function of loops";
  corner.offset = flat.back();
  for (auto [value, coefficient] : llvm::zip(load.getMapOperands(), flat)) {
    if (coefficient == 0)
      continue;
    auto range = ranges.find(value);
    if (range == ranges.end())
      return operandError(index)
             << "an index depends on a value that is no loop with constant "
                "bounds";
    LoopRange &r = range->second;
    if (r.moves)
      corner.terms.push_back({value, coefficient});
    else
      corner.offset += coefficient * r.lower;
    if (coefficient < 0)
      corner.offset += coefficient * r.span;
    corner.size += std::abs(coefficient) * r.span;
  }
  llvm::sort(corner.terms, [&](auto &a, auto &b) {
    return ranges[a.first].position < ranges[b.first].position;
  });
  return success();
}

LogicalResult StagingPlanner::planOperand(unsigned index, Value memref,
                                          StagedOperand &operand) {
  operand.memref = memref;
  LogicalResult result = success();
  plan.root.walk([&](Operation *op) {
    if (failed(result))
      return;
    if (auto write = dyn_cast<affine::AffineWriteOpInterface>(op);
        write && write.getMemRef() == memref)
      result = operandError(index) << "the kernel writes it";
    else if (auto store = dyn_cast<memref::StoreOp>(op);
             store && store.getMemRef() == memref)
      result = operandError(index) << "the kernel writes it";
    else if (auto load = dyn_cast<memref::LoadOp>(op);
             load && load.getMemRef() == memref)
      result = operandError(index) << "it is read at data-dependent indices";
    else if (auto read = dyn_cast<affine::AffineReadOpInterface>(op);
             read && read.getMemRef() == memref) {
      auto load = dyn_cast<affine::AffineLoadOp>(op);
      if (!load || !reduction->isProperAncestor(op))
        result = operandError(index) << "it is read outside the reduction";
      else
        operand.loads.push_back(load);
    }
  });
  if (failed(result))
    return failure();

  for (auto [n, load] : llvm::enumerate(operand.loads)) {
    for (auto [d, expr] : llvm::enumerate(load.getAffineMap().getResults())) {
      TileCorner corner;
      if (failed(cornerOf(expr, load, corner, index)))
        return failure();
      if (n == 0) {
        operand.box.push_back(corner);
        continue;
      }
      // Loads of one operand must move together; their tiles then merge.
      TileCorner &box = operand.box[d];
      if (box.terms != corner.terms)
        return operandError(index) << "its loads move differently";
      int64_t end = std::max(box.offset + box.size,
                             corner.offset + corner.size);
      box.offset = std::min(box.offset, corner.offset);
      box.size = end - box.offset;
    }
  }
  auto type = cast<MemRefType>(memref.getType());
  if (!type.getElementType().isIntOrFloat())
    return operandError(index) << "its elements are no numbers";
  SmallVector<int64_t> shape;
  for (TileCorner &corner : operand.box)
    shape.push_back(corner.size);
  auto workgroup = gpu::AddressSpaceAttr::get(memref.getContext(),
                                              gpu::AddressSpace::Workgroup);
  operand.tileType = MemRefType::get(shape, type.getElementType(),
                                     MemRefLayoutAttrInterface(), workgroup);
  return success();
}

LogicalResult StagingPlanner::run(const schedule::DeviceProfile &target) {
  staging.reduction = reduction;
  std::optional<uint64_t> trips = affine::getConstantTripCount(reduction);
  if (!trips || *trips == 0)
    return scheduleError(plan) << "the reduction loop has no constant trips";
  staging.block = plan.schedule.blockOf(plan.band.size());
  if (staging.block == 0 || staging.block > int64_t(*trips))
    staging.block = int64_t(*trips);
  collectRanges();

  SmallVector<Value> reads = readOperands(plan.root);
  int64_t bytes = 0;
  for (auto [index, staged] : llvm::enumerate(plan.schedule.stage)) {
    if (!staged)
      continue;
    if (index >= reads.size())
      return scheduleError(plan) << "stage[" << index
                                 << "] names no operand: the kernel reads "
                                 << reads.size() << " memrefs";
    StagedOperand operand;
    if (failed(planOperand(index, reads[index], operand)))
      return failure();
    Type element = operand.tileType.getElementType();
    bytes += operand.tileType.getNumElements() *
             ((element.getIntOrFloatBitWidth() + 7) / 8);
    staging.operands.push_back(std::move(operand));
  }
  if (bytes > target.localMemBytes)
    return scheduleError(plan) << "the staged tiles need " << bytes
                               << " bytes of local memory, above the "
                               << target.localMemBytes << " of the device";
  plan.staging = std::move(staging);
  return success();
}

} // namespace

LogicalResult tilec::planStaging(KernelPlan &plan,
                                 const schedule::DeviceProfile &target) {
  if (llvm::none_of(plan.schedule.stage, [](bool staged) { return staged; }))
    return success();
  affine::AffineForOp reduction;
  if (!plan.band.empty())
    reduction = getRegisterReduction(plan.band.back());
  if (!reduction)
    return scheduleError(plan)
           << "stages operands, but the kernel is no register reduction "
              "inside parallel loops";
  return StagingPlanner(plan, reduction).run(target);
}
