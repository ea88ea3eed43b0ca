//===- SplitReductions.cpp - tilec-gpu-split-reductions -------------------===//
//
// A contraction whose output is too small to fill the GPU (256 x 256
// results summed over 16384 products: four 128 x 128 work-groups for 132
// compute units) runs its reduction in slices instead (the schedule's
// `split` = S): the kernel nest
//
//   for band { prologue; r = reduce k in [0, K) from identity; epilogue(r) }
//
// becomes two kernels and a temporary P of S x band results:
//
//   for s in [0, S), band { prologue; P[s, band] = reduce k in [0, K/S)
//                            of the body at s * K/S + k, from identity }
//   for band { prologue; r = reduce s in [0, S) of P[s, band] from the
//              original start; epilogue(r) }
//
// The first is the same contraction with s as a batch loop read by both
// operands, so it keeps the kernel's schedule (with s prepended, one slice
// per z work-group); the second is a short reduction that the default
// schedule maps. No atomics: each slice writes its own results, so the
// sums are the same on every run. Both kernels keep the nest's fingerprint:
// a tuner times them together as the kernel it scheduled.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "tilec/Dialect/Kernel/Transforms/ComposeAccesses.h"
#include "tilec/Dialect/Kernel/Analysis/OuterProductTiling.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUSPLITREDUCTIONSPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace mlir::affine;
using namespace tilec;
using schedule::KernelSchedule;

namespace {

/// The schedule of the sliced kernel: the original without `split`, with
/// the slice loop first (one slice per work-group, on grid z).
KernelSchedule slicedSchedule(KernelSchedule schedule, unsigned bandSize) {
  schedule.split = 1;
  auto prepend = [](std::vector<int64_t> &list, int64_t value) {
    if (!list.empty())
      list.insert(list.begin(), value);
  };
  if (schedule.block.empty())
    schedule.block.assign(bandSize, 0);
  prepend(schedule.block, 1);
  if (schedule.thread.empty())
    schedule.thread.assign(bandSize, 1);
  prepend(schedule.thread, 1);
  prepend(schedule.warp, 1);
  if (!schedule.order.empty()) {
    for (int64_t &loop : schedule.order)
      ++loop;
    schedule.order.insert(schedule.order.begin(), 0);
  }
  return schedule;
}

/// Clones the band loops of `nest` at `b` (inside `outer`'s mapping) and
/// returns the builder positioned in the innermost body, `mapping` taking
/// the old induction variables to the new ones.
AffineForOp cloneBand(OpBuilder &b, Location loc, const ContractionNest &nest,
                      IRMapping &mapping, Block *&innermost) {
  AffineForOp first;
  for (AffineForOp loop : nest.band) {
    auto copy = AffineForOp::create(b, loc, 0, loop.getConstantUpperBound());
    if (!first)
      first = copy;
    mapping.map(loop.getInductionVar(), copy.getInductionVar());
    b.setInsertionPointToStart(copy.getBody());
  }
  innermost = b.getInsertionBlock();
  return first;
}

/// The band's induction variables as `mapping` renames them.
SmallVector<Value> bandIndices(const ContractionNest &nest,
                               IRMapping &mapping) {
  SmallVector<Value> indices;
  for (AffineForOp loop : nest.band)
    indices.push_back(mapping.lookup(loop.getInductionVar()));
  return indices;
}

LogicalResult splitKernel(AffineForOp kernel, const KernelSchedule &schedule) {
  SmallVector<AffineForOp> band = getParallelBand(kernel);
  std::optional<ContractionNest> nest = matchContractionNest(kernel, band);
  auto name = kernel->getAttrOfType<StringAttr>(
      tilec::kernel::KernelName::getNameStr());
  auto fail = [&]() {
    return kernel.emitError("schedule of kernel '")
           << (name ? name.getValue() : StringRef("?")) << "': ";
  };
  if (!nest)
    return fail() << "split = " << schedule.split
                  << " needs a contraction: one register reduction per cell "
                     "combining two loaded operands";
  ContractionShape shape = contractionShapeOf(*nest);
  if (std::optional<std::string> error =
          checkReductionSplit(shape, schedule.split))
    return fail() << *error;

  Location loc = kernel.getLoc();
  int64_t slices = schedule.split;
  int64_t sliceLength = shape.reduction / slices;
  AffineForOp reduction = nest->reduction;
  Type resultType = reduction.getResult(0).getType();
  auto fingerprint = kernel->getAttr(tilec::kernel::Fingerprint::getNameStr());

  // The partial results: slice first, then the band.
  SmallVector<int64_t> shapeOfPartial = {slices};
  for (AffineForOp loop : nest->band)
    shapeOfPartial.push_back(loop.getConstantUpperBound());
  OpBuilder b(kernel);
  auto partial = memref::AllocOp::create(
      b, loc, MemRefType::get(shapeOfPartial, resultType));

  // The slices: the reduction from the identity (the nest's own start),
  // over k in [0, K/S) at s * K/S + k.
  auto sliceLoop = AffineForOp::create(b, loc, 0, slices);
  b.setInsertionPointToStart(sliceLoop.getBody());
  Value s = sliceLoop.getInductionVar();
  IRMapping sliced;
  Block *body = nullptr;
  cloneBand(b, loc, *nest, sliced, body);
  for (Operation *op : nest->prologue)
    b.clone(*op, sliced);
  auto part = AffineForOp::create(
      b, loc, 0, sliceLength, 1,
      ValueRange{sliced.lookupOrDefault(reduction.getInits()[0])});
  sliced.map(reduction.getRegionIterArgs()[0], part.getRegionIterArgs()[0]);
  {
    OpBuilder::InsertionGuard keep(b);
    b.setInsertionPointToStart(part.getBody());
    AffineExpr sliceStart = b.getAffineDimExpr(0) * sliceLength;
    Value k = AffineApplyOp::create(
        b, loc, AffineMap::get(2, 0, sliceStart + b.getAffineDimExpr(1)),
        ValueRange{s, part.getInductionVar()});
    sliced.map(reduction.getInductionVar(), k);
    // A loop built with iter_args has no terminator yet: the cloned yield.
    for (Operation &op : *reduction.getBody())
      b.clone(op, sliced);
  }
  composeAccesses(part);
  SmallVector<Value> cell = {s};
  llvm::append_range(cell, bandIndices(*nest, sliced));
  AffineStoreOp::create(b, loc, part.getResult(0), partial, cell);
  sliceLoop->setAttr(tilec::kernel::KernelName::getNameStr(), name);
  if (fingerprint)
    sliceLoop->setAttr(tilec::kernel::Fingerprint::getNameStr(), fingerprint);
  tilec::kernel::setKernelSchedule(
      sliceLoop, slicedSchedule(schedule, nest->band.size()));

  // The slices aggregated, from the nest's start, then its epilogue.
  b.setInsertionPoint(kernel);
  IRMapping combined;
  AffineForOp combineKernel = cloneBand(b, loc, *nest, combined, body);
  for (Operation *op : nest->prologue)
    b.clone(*op, combined);
  auto total = AffineForOp::create(
      b, loc, 0, slices, 1,
      ValueRange{combined.lookupOrDefault(reduction.getInits()[0])});
  {
    OpBuilder::InsertionGuard keep(b);
    b.setInsertionPointToStart(total.getBody());
    SmallVector<Value> at = {total.getInductionVar()};
    llvm::append_range(at, bandIndices(*nest, combined));
    Value value = AffineLoadOp::create(b, loc, partial, at);
    Value acc = total.getRegionIterArgs()[0];
    // The aggregation with the accumulator where the nest has it.
    Operation *aggregate = nest->aggregate;
    Value reducedAcc = reduction.getRegionIterArgs()[0];
    IRMapping operands;
    for (Value operand : aggregate->getOperands())
      operands.map(operand, operand == reducedAcc ? acc : value);
    Operation *next = b.clone(*aggregate, operands);
    AffineYieldOp::create(b, loc, next->getResult(0));
  }
  combined.map(reduction.getResult(0), total.getResult(0));
  for (Operation *op : nest->epilogue)
    b.clone(*op, combined);
  combineKernel->setAttr(
      tilec::kernel::KernelName::getNameStr(),
      b.getStringAttr((name ? name.getValue() : StringRef("kernel")) +
                      ".combine"));
  if (fingerprint)
    combineKernel->setAttr(tilec::kernel::Fingerprint::getNameStr(),
                           fingerprint);
  kernel.erase();
  return success();
}

struct SplitReductionsPass
    : tilec::impl::TilecGPUSplitReductionsPassBase<SplitReductionsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<AffineForOp, KernelSchedule>> split;
    for (AffineForOp kernel : tilec::getKernelNests(getOperation())) {
      FailureOr<std::optional<KernelSchedule>> schedule =
          tilec::kernel::getKernelSchedule(kernel);
      if (failed(schedule))
        return signalPassFailure();
      if (*schedule && (*schedule)->split > 1)
        split.push_back({kernel, **schedule});
    }
    for (auto &[kernel, schedule] : split)
      if (failed(splitKernel(kernel, schedule)))
        return signalPassFailure();
  }
};

} // namespace
