//===- TiledKernel.cpp - Register tiles, cache tiles and remainders -------===//
//
// The band's iteration space is cut into boxes: along each register-blocked
// loop i (thread[i] > 1) either the full tiles [0, E - E mod t) or the
// remainder [E - E mod t, E). The box of full tiles along every loop is
// cache-tiled and runs the vectorised micro-kernel; the other boxes run
// smaller micro-kernels (one point along their remainder loops, scalar
// when the remainder is along the lanes). Every box is a top-level loop
// nest carrying the kernel's attributes, so later passes (OpenMP) see
// kernels as before.
//
//===----------------------------------------------------------------------===//

#include "TiledKernel.h"

#include "MicroKernel.h"

#include "tilec/Schedule/Schedule.h"
#include "tilec/Target/LLVM/Transforms/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/LoopUtils.h"

using namespace mlir;
using namespace mlir::affine;
using namespace tilec::transforms;

namespace {

/// The range of one band loop in one box.
struct DimRange {
  int64_t lower, upper, step;
  /// Offsets of the points of a micro-kernel along this loop.
  SmallVector<int64_t> offsets;
};

class BoxEmitter {
public:
  BoxEmitter(const KernelNest &nest, const BandTiling &tiling)
      : nest(nest), tiling(tiling), builder(nest.band.front()) {}

  /// Emits the box with `ranges`; cache-tiles it when `tiled`.
  FailureOr<AffineForOp> emit(ArrayRef<DimRange> ranges, bool tiled,
                              int64_t width);

private:
  const KernelNest &nest;
  const BandTiling &tiling;
  OpBuilder builder;

  AffineForOp loop(Value from, int64_t lower, int64_t upper, int64_t step,
                   int64_t block);
};

AffineForOp BoxEmitter::loop(Value from, int64_t lower, int64_t upper,
                             int64_t step, int64_t block) {
  Location loc = nest.innermost().getLoc();
  AffineForOp result;
  if (!from) {
    result = AffineForOp::create(builder, loc, lower, upper, step);
  } else {
    // [from, min(from + block, upper)): the part of a cache tile in range.
    MLIRContext *context = builder.getContext();
    AffineExpr d0 = getAffineDimExpr(0, context);
    AffineMap lowerMap = AffineMap::get(1, 0, d0);
    AffineMap upperMap = AffineMap::get(
        1, 0, {d0 + block, getAffineConstantExpr(upper, context)}, context);
    result = AffineForOp::create(builder, loc, from, lowerMap, from, upperMap,
                                 step);
  }
  // Every loop of a box walks a band loop, and band loops are parallel.
  result->setAttr(tilec::kernel::Parallel::getNameStr(), builder.getUnitAttr());
  builder.setInsertionPointToStart(result.getBody());
  return result;
}

FailureOr<AffineForOp> BoxEmitter::emit(ArrayRef<DimRange> ranges, bool tiled,
                                        int64_t width) {
  OpBuilder::InsertionGuard guard(builder);
  unsigned n = ranges.size();
  AffineForOp outermost;
  SmallVector<Value> tileIVs(n);
  SmallVector<int64_t> blocks(n, 0);
  for (unsigned i : tiling.order) {
    const DimRange &r = ranges[i];
    int64_t block = tiled ? tiling.block[i] : 0;
    // A tile holds whole register tiles: round the block up to the step.
    block = (block + r.step - 1) / r.step * r.step;
    if (block == 0 || block >= r.upper - r.lower)
      continue;
    blocks[i] = block;
    AffineForOp tile = loop({}, r.lower, r.upper, block, 0);
    tileIVs[i] = tile.getInductionVar();
    if (!outermost)
      outermost = tile;
  }
  SmallVector<IRMapping> points(1);
  for (unsigned i = 0; i < n; ++i) {
    const DimRange &r = ranges[i];
    AffineForOp intra =
        loop(tileIVs[i], r.lower, r.upper, r.step, blocks[i]);
    if (!outermost)
      outermost = intra;
    Value iv = intra.getInductionVar();
    AffineForOp bandLoop = nest.band[i];
    Value original = bandLoop.getInductionVar();
    // Every point so far, once per offset along loop i.
    SmallVector<IRMapping> next;
    for (int64_t offset : r.offsets) {
      Value index = iv;
      if (offset != 0) {
        AffineExpr d0 = builder.getAffineDimExpr(0);
        index = AffineApplyOp::create(builder, iv.getLoc(),
                                      AffineMap::get(1, 0, d0 + offset), iv);
      }
      for (IRMapping point : points) {
        point.map(original, index);
        next.push_back(std::move(point));
      }
    }
    points = std::move(next);
  }
  if (failed(emitMicroKernel(builder, nest, points, width))) {
    outermost.erase();
    return failure();
  }
  return outermost;
}

/// The ranges of the box that takes the full tiles along the loops whose
/// bit in `remainders` is clear and the remainders along the others;
/// std::nullopt when the box is empty.
std::optional<SmallVector<DimRange>> boxRanges(const KernelNest &nest,
                                               const BandTiling &tiling,
                                               unsigned remainders,
                                               int64_t width) {
  SmallVector<DimRange> ranges;
  unsigned bit = 0;
  for (auto [i, extent] : llvm::enumerate(nest.extents)) {
    int64_t thread = tiling.thread[i];
    DimRange r{0, extent, 1, {0}};
    if (thread > 1) {
      int64_t full = extent / thread * thread;
      if (remainders & (1u << bit++)) {
        r.lower = full;
      } else {
        r.upper = full;
        r.step = thread;
        bool lanes = i + 1 == nest.extents.size();
        int64_t stride = lanes ? width : 1;
        r.offsets.clear();
        for (int64_t offset = 0; offset < thread; offset += stride)
          r.offsets.push_back(offset);
      }
    }
    if (r.lower >= r.upper)
      return std::nullopt;
    ranges.push_back(std::move(r));
  }
  return ranges;
}

void unrollReductions(AffineForOp box, int64_t factor) {
  SmallVector<AffineForOp> innermost;
  box.walk([&](AffineForOp loop) {
    bool hasInner = false;
    loop.getBody()->walk([&](AffineForOp) { hasInner = true; });
    if (!hasInner && loop.getNumIterOperands() != 0)
      innermost.push_back(loop);
  });
  for (AffineForOp loop : innermost)
    (void)loopUnrollByFactor(loop, factor);
}

} // namespace

LogicalResult tilec::transforms::tileKernel(const KernelNest &nest,
                                            const BandTiling &tiling) {
  AffineForOp kernel = nest.band.front();
  unsigned blocked = llvm::count_if(tiling.thread,
                                    [](int64_t t) { return t > 1; });
  bool lanesBlocked = tiling.thread.back() > 1;
  BoxEmitter emitter(nest, tiling);
  SmallVector<AffineForOp> boxes;
  for (unsigned remainders = 0; remainders < (1u << blocked); ++remainders) {
    // The lanes' loop is the last blocked one: its bit is the highest.
    bool laneRemainder = lanesBlocked && (remainders >> (blocked - 1)) & 1;
    int64_t width = laneRemainder ? 1 : tiling.vector;
    std::optional<SmallVector<DimRange>> ranges =
        boxRanges(nest, tiling, remainders, width);
    if (!ranges)
      continue;
    FailureOr<AffineForOp> box =
        emitter.emit(*ranges, /*tiled=*/remainders == 0, width);
    if (failed(box)) {
      for (AffineForOp done : boxes)
        done.erase();
      return failure();
    }
    boxes.push_back(*box);
  }
  for (AffineForOp box : boxes) {
    for (NamedAttribute attr : kernel->getDiscardableAttrs())
      if (attr.getName() != tilec::kernel::Schedule::getNameStr())
        box->setAttr(attr.getName(), attr.getValue());
    unswitchInvariantGuards(box);
    if (tiling.unroll > 1)
      unrollReductions(box, tiling.unroll);
  }
  kernel.erase();
  return success();
}
