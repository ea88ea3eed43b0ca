//===- ParallelBand.cpp - The parallel loops of a kernel nest -------------===//
//
// Finds the outer band of a kernel nest that may be spread over work-items
// or threads. Upstream's affine::isLoopMemoryParallel gives up on any
// non-affine access, but gathers read through data-dependent `memref.load`s:
// those are harmless when the nest never writes the memref they read, so
// this check runs the same dependence analysis on the affine accesses and
// judges the others by the memrefs they touch. Upstream is also blind to
// views, which this check refuses on a written buffer.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::affine;

namespace {

/// The buffer a memref value views: views of one buffer may alias.
Value rootBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// True if no memory dependence is carried by `loop`.
bool carriesNoDependence(AffineForOp loop) {
  SmallVector<Operation *> accesses;
  SmallVector<Value> gatherSources;
  llvm::SmallDenseSet<Value> writtenBuffers;
  bool understood = true;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<AffineReadOpInterface>(op)) {
      accesses.push_back(op);
    } else if (auto write = dyn_cast<AffineWriteOpInterface>(op)) {
      accesses.push_back(op);
      writtenBuffers.insert(rootBuffer(write.getMemRef()));
    } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
      gatherSources.push_back(load.getMemRef());
    } else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
               !isMemoryEffectFree(op)) {
      understood = false; // a memref.store, an allocation, a call, ...
    }
  });
  if (!understood)
    return false;
  // The dependence analysis compares memref values, so a written buffer must
  // be reached through one value only.
  for (Operation *op : accesses) {
    Value memref = MemRefAccess(op).memref;
    if (memref != rootBuffer(memref) &&
        writtenBuffers.contains(rootBuffer(memref)))
      return false;
  }
  for (Value source : gatherSources)
    if (writtenBuffers.contains(rootBuffer(source)))
      return false;
  // Every ordered pair, as upstream checks: the analysis only finds a
  // dependence from `src` to a later `dst`, so taking only writes as `src`
  // would miss an iteration that reads a cell a later one writes (a race
  // once iterations run in parallel). Two reads give NoDependence.
  unsigned depth = getNestingDepth(loop) + 1;
  for (Operation *src : accesses) {
    MemRefAccess srcAccess(src);
    for (Operation *dst : accesses) {
      MemRefAccess dstAccess(dst);
      if (srcAccess.memref != dstAccess.memref)
        continue;
      DependenceResult result =
          checkMemrefAccessDependence(srcAccess, dstAccess, depth);
      if (result.value != DependenceResult::NoDependence)
        return false;
    }
  }
  return true;
}

} // namespace

SmallVector<AffineForOp> tilec::getKernelNests(func::FuncOp func) {
  SmallVector<AffineForOp> kernels;
  if (func.isExternal())
    return kernels;
  for (auto loop : func.getBody().front().getOps<AffineForOp>())
    if (loop->hasAttr(tilec::kernel::KernelName::getNameStr()))
      kernels.push_back(loop);
  return kernels;
}

bool tilec::isParallelBandLoop(AffineForOp loop, const BandOptions &options) {
  std::optional<uint64_t> trips = getConstantTripCount(loop);
  if (!loop.hasConstantBounds() || loop.getNumIterOperands() != 0 || !trips ||
      *trips == 0)
    return false;
  if (options.zeroBasedUnitStep &&
      (loop.getConstantLowerBound() != 0 || loop.getStepAsInt() != 1))
    return false;
  return carriesNoDependence(loop);
}

SmallVector<AffineForOp> tilec::getParallelBand(AffineForOp kernel,
                                                const BandOptions &options) {
  SmallVector<AffineForOp> band;
  for (AffineForOp loop = kernel; loop && isParallelBandLoop(loop, options);) {
    band.push_back(loop);
    Block *body = loop.getBody();
    if (!llvm::hasSingleElement(body->without_terminator()))
      break;
    loop = dyn_cast<AffineForOp>(body->front());
  }
  return band;
}

SmallVector<int64_t> tilec::getBandExtents(ArrayRef<AffineForOp> band) {
  SmallVector<int64_t> extents;
  for (AffineForOp loop : band)
    extents.push_back(int64_t(*getConstantTripCount(loop)));
  return extents;
}

affine::AffineForOp
tilec::getRegisterReduction(affine::AffineForOp innermostBandLoop) {
  for (Operation &op : innermostBandLoop.getBody()->without_terminator()) {
    auto loop = dyn_cast<affine::AffineForOp>(op);
    if (loop && loop.getNumIterOperands() != 0)
      return loop.hasConstantBounds() ? loop : nullptr;
    if (!isMemoryEffectFree(&op) &&
        !isa<affine::AffineReadOpInterface, memref::LoadOp>(op))
      return nullptr;
  }
  return nullptr;
}
