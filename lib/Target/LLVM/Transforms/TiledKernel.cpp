//===- TiledKernel.cpp - Register tiles, cache tiles and remainders -------===//
//
// The band's iteration space is cut into boxes: along each register-blocked
// loop i (thread[i] > 1) either the full tiles [0, E - E mod t) or the
// remainder [E - E mod t, E). The box of full tiles along every loop is
// cache-tiled and runs the vectorised micro-kernel; the other boxes run
// smaller micro-kernels (one tile of the rows left over along their
// remainder loops, scalar when the remainder is along the lanes). Every
// box is a top-level loop nest carrying the kernel's attributes, so later
// passes (OpenMP) see kernels as before.
//
// Where the lanes' tile loop is the outermost (the lane panel order), the
// operands read along the lanes and the reduction alone (a matmul's
// B[k, n], a convolution's F[ky, kx, ci, co]) are packed per tile: their
// panel, every leading index by the tile's lanes, is copied into a
// contiguous buffer that the tile's micro-kernels then read through a view
// of the operand's shape. The panel's rows, one operand row apart (often a
// power of two bytes, which maps them onto few cache sets), become one
// tile row apart, and the panel stays in cache for every row of the
// operand it meets. An operand that is an argument of the kernel's
// function has all its panels in one buffer before the kernel, copied
// under a flag (KeptPanels.h): a weight can then be packed once for many
// runs.
//
//===----------------------------------------------------------------------===//

#include "TiledKernel.h"

#include "KeptPanels.h"
#include "MicroKernel.h"

#include "tilec/Schedule/Schedule.h"
#include "tilec/Target/LLVM/Transforms/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/MapVector.h"

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
  /// After the boxes: frees the buffers of kept panels (at `after`), or,
  /// when the kernel stays as it was, erases them.
  void finish(bool succeeded, Operation *after);

private:
  const KernelNest &nest;
  const BandTiling &tiling;
  OpBuilder builder;
  /// The buffers of kept panels and their flags, before the kernel.
  SmallVector<Operation *> keptOps;

  AffineForOp loop(Value from, int64_t lower, int64_t upper, int64_t step,
                   int64_t block);
  /// A lane tile's packed panel of one operand.
  struct Panel {
    /// A view of the operand's shape onto the panel.
    Value view;
    /// The buffer to free at the end of the tile (none for a kept panel,
    /// see KeptPanels.h).
    Value buffer;
    /// For a kept panel that is prefetched, the view kPrefetchRows rows
    /// further on.
    Value ahead;
  };
  /// Copies the panel of `operand` for the lane tile [from, min(from +
  /// block, r.upper)) of `tile` into a buffer, `width` lanes at a time.
  Panel packPanel(Value operand, AffineForOp tile, const DimRange &r,
                  int64_t block, int64_t width);
  /// The micro-kernel of `points` inside the box's loops. Where a lane
  /// tile reads kept panels, its first pass over the rows (where the
  /// panels come from beyond L2) is a copy that prefetches them ahead.
  LogicalResult emitFirstPassVersions(ArrayRef<DimRange> ranges,
                                      ArrayRef<Value> intraIVs,
                                      const llvm::DenseMap<Value, Value> &ahead,
                                      MutableArrayRef<IRMapping> points,
                                      int64_t width);
  /// The buffer of every panel of `argument` before `tile`, and its flag.
  std::pair<Value, Value> keptPanels(BlockArgument argument,
                                     AffineForOp tile, Type elementType,
                                     int64_t elements);
};

/// How many rows (reduction steps) ahead of the micro-kernel the first pass
/// over a kept panel prefetches it: 4 KiB for 32 lanes of f32. A weight
/// that is a program input comes from beyond L2 on each run of a network;
/// without the prefetches, a lane tile's first pass over the rows waited on
/// memory. In ResNet-18 the 3x3 convolutions on 7x7 images (9 MiB of
/// filter each) went from 0.97-1.11 ms to 0.88-1.02 (64 or 128 rows ahead
/// did no better). Prefetching on every pass made the 14x14 ones 1.2-1.5
/// times as slow: the prefetches of lines already in L2 cost load slots.
constexpr int64_t kPrefetchRows = 32;

/// Whether the micro-kernel prefetches the kept panels of `operand`, of
/// `rows` rows each, ahead: not where it reads too few rows for the
/// distance (a bias), nor for an operand smaller than `minBytes`.
bool prefetchesAhead(MemRefType operand, int64_t rows, int64_t minBytes) {
  int64_t bytes =
      operand.getNumElements() * operand.getElementTypeBitWidth() / 8;
  return rows > 2 * kPrefetchRows && bytes >= minBytes;
}

/// The largest packed panel: every leading index of the operand is copied,
/// which a schedule's order alone does not bound.
constexpr int64_t kMaxPanelBytes = 16 << 20;

/// The operands worth packing per lane tile of `block` lanes: memrefs the
/// nest only loads at [r..., lane] with r functions of the reduction loops
/// alone (static shape, identity layout), whose panel stays within
/// kMaxPanelBytes. Loads inside a guard count too (a padded convolution's
/// filter): the copy reads the operand's whole rows, whatever the guard,
/// and the kernel reads the copy where it read the operand.
SmallVector<Value> lanePanels(const KernelNest &nest, int64_t block) {
  SmallVector<Value> panels;
  Value lane = nest.laneIV();
  auto isBandIV = [&](Value v) {
    return llvm::any_of(nest.band, [&](AffineForOp loop) {
      return loop.getInductionVar() == v;
    });
  };
  // In the order the body first reads them, so that the copies come out
  // the same on every compile.
  llvm::MapVector<Value, bool> packable;
  nest.body()->walk([&](Operation *op) {
    if (auto store = dyn_cast<AffineStoreOp>(op)) {
      packable[store.getMemRef()] = false;
      return;
    }
    auto load = dyn_cast<AffineLoadOp>(op);
    if (!load)
      return;
    auto type = dyn_cast<MemRefType>(load.getMemRef().getType());
    AffineMap map = load.getAffineMap();
    bool fits = type && type.getRank() >= 1 && type.hasStaticShape() &&
                type.getShape().back() > 0 &&
                type.getNumElements() / type.getShape().back() * block *
                        type.getElementTypeBitWidth() / 8 <=
                    kMaxPanelBytes &&
                type.getLayout().isIdentity() &&
                map.getNumSymbols() == 0 &&
                map.getNumResults() == type.getRank();
    if (fits) {
      // The last result is the lane itself; the others read no band loop.
      auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
      fits = last && load.getMapOperands()[last.getPosition()] == lane;
      for (AffineExpr result : map.getResults().drop_back())
        for (auto [i, operand] : llvm::enumerate(load.getMapOperands()))
          if (result.isFunctionOfDim(i) && isBandIV(operand))
            fits = false;
    }
    auto [it, inserted] = packable.insert({load.getMemRef(), fits});
    if (!inserted)
      it->second = it->second && fits;
  });
  for (auto [memref, fits] : packable)
    if (fits)
      panels.push_back(memref);
  return panels;
}

/// Whether `operand` is an argument of the kernel's function, whose panels
/// can be kept packed across calls (KeptPanels.h).
bool isKernelArgument(Value operand) {
  auto argument = dyn_cast<BlockArgument>(operand);
  return argument && isa<func::FuncOp>(argument.getOwner()->getParentOp());
}

/// Whether every call passes one of the program's inputs as `operand`
/// (OutlineKernels.cpp): its panels are packed once for many runs, so they
/// are worth packing even where one row of micro-kernels reads them. Kept
/// in L2 as one contiguous block, a matrix-vector product's weight is read
/// from L2 rather than from beyond it: 784 rows of 2 KiB read by halves,
/// one per core, fall on half of each core's L2 sets, and MNIST's MLP
/// (784 x 512 and 512 x 512 weights) ran its products 2.5 times as fast
/// packed.
bool isProgramInput(Value operand) {
  if (!isKernelArgument(operand))
    return false;
  auto argument = cast<BlockArgument>(operand);
  auto function = cast<func::FuncOp>(argument.getOwner()->getParentOp());
  return bool(function.getArgAttr(argument.getArgNumber(),
                                  tilec::kernel::ProgramInput::getNameStr()));
}

/// Whether a lane tile's panel meets more than one micro-kernel along the
/// other band loops (a matrix-vector product's does not: packing would only
/// add a copy).
bool panelReused(ArrayRef<DimRange> ranges) {
  int64_t tiles = 1;
  for (const DimRange &r : ranges.drop_back())
    tiles *= (r.upper - r.lower + r.step - 1) / r.step;
  return tiles > 1;
}

std::pair<Value, Value> BoxEmitter::keptPanels(BlockArgument argument,
                                               AffineForOp tile,
                                               Type elementType,
                                               int64_t elements) {
  OpBuilder before(tile);
  Location loc = tile.getLoc();
  Attribute number = before.getI64IntegerAttr(argument.getArgNumber());
  auto buffer = memref::AllocOp::create(
      before, loc, MemRefType::get({elements}, elementType));
  buffer->setAttr(kPackedArgument, number);
  auto repack = arith::ConstantOp::create(before, loc, before.getBoolAttr(true));
  repack->setAttr(kRepackArgument, number);
  keptOps.append({buffer, repack});
  return {buffer, repack};
}

void BoxEmitter::finish(bool succeeded, Operation *after) {
  if (succeeded) {
    OpBuilder b(after);
    for (Operation *op : keptOps)
      if (auto buffer = dyn_cast<memref::AllocOp>(op))
        memref::DeallocOp::create(b, buffer.getLoc(), buffer);
    return;
  }
  for (Operation *op : llvm::reverse(keptOps))
    op->erase();
}

BoxEmitter::Panel BoxEmitter::packPanel(Value operand, AffineForOp tile,
                                        const DimRange &r, int64_t block,
                                        int64_t width) {
  Location loc = nest.innermost().getLoc();
  Value from = tile.getInductionVar();
  int64_t upper = r.upper;
  auto type = cast<MemRefType>(operand.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rows = 1;
  for (int64_t extent : shape.drop_back())
    rows *= extent;
  // The view's offset puts the tile's panel at the start of `buffer` or,
  // for kept panels, at the tile's place among all of them.
  Value buffer, offset, repack;
  bool prefetch = isKernelArgument(operand) &&
                  prefetchesAhead(type, rows, tiling.prefetchMinBytes);
  if (isKernelArgument(operand)) {
    auto argument = cast<BlockArgument>(operand);
    int64_t tiles = (upper - r.lower + block - 1) / block;
    // Past the last panel, room for the rows prefetched ahead of it.
    int64_t slack = prefetch ? kPrefetchRows : 0;
    std::tie(buffer, repack) =
        keptPanels(argument, tile, type.getElementType(),
                   (tiles * rows + slack) * block);
    AffineExpr d0 = builder.getAffineDimExpr(0);
    offset = AffineApplyOp::create(
        builder, loc,
        AffineMap::get(1, 0, (d0 - r.lower).floorDiv(block) * (rows * block) - d0),
        from);
  } else {
    buffer = memref::AllocOp::create(
        builder, loc, MemRefType::get({rows * block}, type.getElementType()));
    offset = arith::SubIOp::create(
        builder, loc, arith::ConstantIndexOp::create(builder, loc, 0), from);
  }
  // The view: element [r..., l] at the row-major position of r times
  // `block`, plus l - from.
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = int64_t(shape.size()) - 2; i >= 0; --i)
    strides[i] = (i + 2 == int64_t(shape.size()) ? block : strides[i + 1] *
                                                                shape[i + 1]);
  auto viewType = MemRefType::get(
      shape, type.getElementType(),
      StridedLayoutAttr::get(builder.getContext(), ShapedType::kDynamic,
                             strides));
  SmallVector<OpFoldResult> sizes, strideValues;
  for (int64_t extent : shape)
    sizes.push_back(builder.getIndexAttr(extent));
  for (int64_t stride : strides)
    strideValues.push_back(builder.getIndexAttr(stride));
  Value view = memref::ReinterpretCastOp::create(
      builder, loc, viewType, buffer, OpFoldResult(offset), sizes,
      strideValues);
  Value ahead;
  if (prefetch) {
    AffineExpr d0 = builder.getAffineDimExpr(0);
    Value aheadOffset = AffineApplyOp::create(
        builder, loc, AffineMap::get(1, 0, d0 + kPrefetchRows * block),
        offset);
    ahead = memref::ReinterpretCastOp::create(
        builder, loc, viewType, buffer, OpFoldResult(aheadOffset), sizes,
        strideValues);
  }
  // The copy: every leading index, the tile's lanes innermost.
  OpBuilder::InsertionGuard guard(builder);
  if (repack) {
    auto copyIf = scf::IfOp::create(builder, loc, repack, false);
    builder.setInsertionPointToStart(copyIf.thenBlock());
  }
  SmallVector<Value> indices;
  for (int64_t extent : shape.drop_back()) {
    auto loop = AffineForOp::create(builder, loc, 0, extent);
    builder.setInsertionPointToStart(loop.getBody());
    indices.push_back(loop.getInductionVar());
  }
  // The tile's lanes, as the box's own lane loop walks them, in vectors
  // where every tile holds whole vectors: copied one float at a time, the
  // packing of a 3x3 convolution's 9 MiB of filters took a third of its
  // time on a 7x7 image.
  int64_t step = block % width == 0 && upper % width == 0 ? width : 1;
  indices.push_back(loop(from, 0, upper, step, block).getInductionVar());
  if (step > 1) {
    auto vectorType = VectorType::get({step}, type.getElementType());
    Value lanes =
        AffineVectorLoadOp::create(builder, loc, vectorType, operand, indices);
    AffineVectorStoreOp::create(builder, loc, lanes, view, indices);
  } else {
    Value element = AffineLoadOp::create(builder, loc, operand, indices);
    AffineStoreOp::create(builder, loc, element, view, indices);
  }
  return {view, repack ? Value() : buffer, ahead};
}

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
  SmallVector<IRMapping> points(1);
  // The packed panels' buffers, freed at the end of the lane tile.
  SmallVector<Value> buffers;
  // Kept panels' views -> their views kPrefetchRows rows ahead.
  llvm::DenseMap<Value, Value> ahead;
  AffineForOp laneTile;
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
    if (!outermost) {
      outermost = tile;
      if (i + 1 == n) {
        laneTile = tile;
        bool reused = panelReused(ranges);
        for (Value operand : lanePanels(nest, block)) {
          if (!reused && !isProgramInput(operand))
            continue;
          Panel panel = packPanel(operand, tile, r, block, width);
          points.front().map(operand, panel.view);
          if (panel.ahead)
            ahead[panel.view] = panel.ahead;
          if (panel.buffer)
            buffers.push_back(panel.buffer);
        }
      }
    }
  }
  SmallVector<Value> intraIVs;
  for (unsigned i = 0; i < n; ++i) {
    const DimRange &r = ranges[i];
    AffineForOp intra =
        loop(tileIVs[i], r.lower, r.upper, r.step, blocks[i]);
    if (!outermost)
      outermost = intra;
    intraIVs.push_back(intra.getInductionVar());
  }
  // The points in row-major order of their offsets (the lane loop's vectors
  // of one row adjacent): the micro-kernel peels a padded image edge by
  // rows of points (MicroKernel.cpp).
  for (unsigned i = n; i-- > 0;) {
    const DimRange &r = ranges[i];
    Value iv = intraIVs[i];
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
  if (failed(emitFirstPassVersions(ranges, intraIVs, ahead, points, width))) {
    outermost.erase();
    return failure();
  }
  if (laneTile) {
    builder.setInsertionPoint(laneTile.getBody()->getTerminator());
    for (Value buffer : buffers)
      memref::DeallocOp::create(builder, buffer.getLoc(), buffer);
  }
  return outermost;
}

LogicalResult BoxEmitter::emitFirstPassVersions(
    ArrayRef<DimRange> ranges, ArrayRef<Value> intraIVs,
    const llvm::DenseMap<Value, Value> &ahead,
    MutableArrayRef<IRMapping> points, int64_t width) {
  // Scalar loads are not prefetched: no copy to make.
  if (ahead.empty() || width == 1)
    return emitMicroKernel(builder, nest, points, width, ahead);
  const llvm::DenseMap<Value, Value> noPrefetch;
  // The first pass of the lane tile: every other loop at its lower bound.
  // Kept panels belong to the outermost tile loop, the lanes', so a loop
  // cache-tiled inside it is at its lower bound only in its first tile.
  SmallVector<AffineExpr> atStart;
  SmallVector<Value> operands;
  for (unsigned i = 0; i + 1 < ranges.size(); ++i) {
    if (ranges[i].upper - ranges[i].lower <= ranges[i].step)
      continue;
    atStart.push_back(builder.getAffineDimExpr(operands.size()) -
                      ranges[i].lower);
    operands.push_back(intraIVs[i]);
  }
  if (atStart.empty()) // One pass: it is the first.
    return emitMicroKernel(builder, nest, points, width, ahead);
  OpBuilder::InsertionGuard guard(builder);
  auto first = AffineIfOp::create(
      builder, nest.innermost().getLoc(),
      IntegerSet::get(operands.size(), 0, atStart,
                      SmallVector<bool>(atStart.size(), true)),
      operands, /*withElseRegion=*/true);
  SmallVector<IRMapping> copies(points.begin(), points.end());
  builder.setInsertionPoint(first.getThenBlock()->getTerminator());
  if (failed(emitMicroKernel(builder, nest, copies, width, ahead)))
    return failure();
  builder.setInsertionPoint(first.getElseBlock()->getTerminator());
  return emitMicroKernel(builder, nest, points, width, noPrefetch);
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
      bool lanes = i + 1 == nest.extents.size();
      if (remainders & (1u << bit++)) {
        r.lower = full;
        // The rows left over run as one smaller tile: one row at a time
        // would stream the lane operand's panel once per row (a 256 x
        // 4096 x 256 matmul in tiles of 6 rows ran 1.2 times as long as
        // in tiles of 8).
        if (!lanes && extent > full) {
          r.step = extent - full;
          r.offsets.clear();
          for (int64_t offset = 0; offset < extent - full; ++offset)
            r.offsets.push_back(offset);
        }
      } else {
        r.upper = full;
        r.step = thread;
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
      emitter.finish(/*succeeded=*/false, kernel);
      return failure();
    }
    boxes.push_back(*box);
  }
  emitter.finish(/*succeeded=*/true, kernel);
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
