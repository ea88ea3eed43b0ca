//===- FlattenContractions.cpp - tilec-gpu-flatten-contractions -----------===//
//
// The outer-product tiling takes a contraction with one free loop per
// operand and one reduction loop; a convolution has several of each: an
// NHWC 3x3 convolution reads the image along n, y and x (its rows), the
// filter along the output channel, and reduces over the window's rows,
// columns and the input channels. As an implicit GEMM it is a matmul of
// n*y*x rows by the output channels over 9*CI products: this pass
// rewrites such a nest so, coalescing each run of neighbouring band loops
// that only one operand reads into one loop, and the reduction's chain of
// loops into one (innermost fastest, so a chunk of it walks the input
// channels), with the old induction variables as div/mod of the new ones
// folded into the accesses' maps. The guard of a padded window stays
// around the step; the tiling predicates the image's loads with it.
//
// Only nests that then have one loop per operand side are rewritten, only
// those without a schedule (one is made for the loops it names), and only
// for a known GPU that is not a CPU (#tilec.gpu_target): the outer-product
// tiling is for those, and the other mappings run the nests better as
// they are (one loop per grid dimension, the rest on z). The nest keeps
// its name and fingerprint.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "tilec/Dialect/Kernel/Transforms/ComposeAccesses.h"
#include "tilec/Dialect/Kernel/Analysis/ContractionNest.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUFLATTENCONTRACTIONSPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace mlir::affine;
using namespace tilec;

namespace {

/// A run of neighbouring band loops that become one.
struct LoopGroup {
  SmallVector<AffineForOp> loops;
  int64_t extent() const {
    int64_t product = 1;
    for (AffineForOp loop : loops)
      product *= loop.getConstantUpperBound();
    return product;
  }
};

/// The band's loops grouped: each run of loops that one operand alone
/// reads, and every other loop alone; a loop of one iteration (whatever
/// reads it: its index is always 0) joins the run before it, or the first.
/// std::nullopt unless each operand's free loops form one run and
/// something is to be coalesced.
std::optional<SmallVector<LoopGroup>> groupBand(const ContractionNest &nest) {
  SmallVector<LoopGroup> groups;
  SmallVector<BandRole> groupRoles;
  SmallVector<AffineForOp> leadingUnits;
  for (auto [loop, role] : llvm::zip(nest.band, nest.roles)) {
    if (AffineForOp(loop).getConstantUpperBound() == 1) {
      if (groups.empty())
        leadingUnits.push_back(loop);
      else
        groups.back().loops.push_back(loop);
      continue;
    }
    bool free = role == BandRole::Free0 || role == BandRole::Free1;
    if (free && !groupRoles.empty() && groupRoles.back() == role) {
      groups.back().loops.push_back(loop);
      continue;
    }
    groups.push_back({leadingUnits});
    groups.back().loops.push_back(loop);
    leadingUnits.clear();
    groupRoles.push_back(role);
  }
  if (!leadingUnits.empty())
    return std::nullopt;
  bool coalesces = nest.reductionChain.size() > 1;
  for (BandRole side : {BandRole::Free0, BandRole::Free1}) {
    if (llvm::count(groupRoles, side) != 1)
      return std::nullopt;
    for (auto [group, role] : llvm::zip(groups, groupRoles))
      coalesces |= role == side && group.loops.size() > 1;
  }
  if (!coalesces)
    return std::nullopt;
  return groups;
}

/// Maps the induction variables of `loops` (outermost first) to `position`
/// split into their iterations, innermost fastest, by affine.apply at `b`.
void splitPosition(OpBuilder &b, Location loc, ArrayRef<AffineForOp> loops,
                   Value position, IRMapping &mapping) {
  if (loops.size() == 1) {
    mapping.map(AffineForOp(loops.front()).getInductionVar(), position);
    return;
  }
  int64_t stride = 1;
  for (AffineForOp loop : llvm::reverse(loops)) {
    int64_t extent = loop.getConstantUpperBound();
    AffineExpr d = b.getAffineDimExpr(0);
    AffineExpr index = d.floorDiv(stride);
    if (loop != loops.front())
      index = index % extent;
    Value value = AffineApplyOp::create(b, loc, AffineMap::get(1, 0, index),
                                        ValueRange{position});
    mapping.map(loop.getInductionVar(), value);
    stride *= extent;
  }
}

void flatten(AffineForOp kernel, ContractionNest &nest,
             ArrayRef<LoopGroup> groups) {
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  IRMapping mapping;
  SmallVector<Value> positions;
  AffineForOp root;
  for (const LoopGroup &group : groups) {
    auto loop = AffineForOp::create(b, loc, 0, group.extent());
    if (!root)
      root = loop;
    positions.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  for (auto [group, position] : llvm::zip(groups, positions))
    splitPosition(b, loc, group.loops, position, mapping);
  for (Operation *op : nest.prologue)
    b.clone(*op, mapping);

  // The reduction, one loop over the chain's iterations.
  int64_t steps = 1;
  for (AffineForOp loop : nest.reductionChain)
    steps *= loop.getConstantUpperBound();
  auto reduction = AffineForOp::create(
      b, loc, 0, steps, 1,
      ValueRange{mapping.lookupOrDefault(nest.reduction.getInits()[0])});
  {
    OpBuilder::InsertionGuard keep(b);
    b.setInsertionPointToStart(reduction.getBody());
    splitPosition(b, loc, nest.reductionChain, reduction.getInductionVar(),
                  mapping);
    mapping.map(nest.innermost().getRegionIterArgs()[0],
                reduction.getRegionIterArgs()[0]);
    // A loop built with iter_args has no terminator: the innermost step's
    // yield is cloned with the rest.
    for (Operation &op : *nest.innermost().getBody())
      b.clone(op, mapping);
  }
  mapping.map(nest.reduction.getResult(0), reduction.getResult(0));
  for (Operation *op : nest.epilogue)
    b.clone(*op, mapping);

  // The kernel's own attributes (name, fingerprint), not its bounds.
  root->setDiscardableAttrs(kernel->getDiscardableAttrDictionary());
  composeAccesses(root);
  kernel.erase();
}

struct FlattenContractionsPass
    : tilec::impl::TilecGPUFlattenContractionsPassBase<
          FlattenContractionsPass> {
  void runOnOperation() override {
    if (!schedule::isKnownGPU(tilec::kernel::getGPUTarget(getOperation())))
      return;
    for (AffineForOp kernel : tilec::getKernelNests(getOperation())) {
      if (kernel->hasAttr(tilec::kernel::Schedule::getNameStr()))
        continue;
      std::optional<ContractionNest> nest =
          matchContractionNest(kernel, getParallelBand(kernel));
      if (!nest)
        continue;
      if (std::optional<SmallVector<LoopGroup>> groups = groupBand(*nest))
        flatten(kernel, *nest, *groups);
    }
  }
};

} // namespace
