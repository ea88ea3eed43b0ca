//===- WgmmaBody.cpp - A contraction on Hopper's warpgroup MMA ------------===//
//
// See MmaBody.h (emitWgmmaBody); the tiling's rules are
// OuterProductTiling.h's (`wgmma`), the chunks' pipeline
// ChunkedContraction.h's and the copies MmaStaging.h's. Each warpgroup (four
// warps) computes its tile as warp[y] / 64 accumulators of one wgmma
// m64nNk16 each (N = warp[x]), which read both operands straight from
// shared memory through 64-bit matrix descriptors (for TF32, m64nNk8 of
// f32 tiles, rows of 32 elements, both read along the reduction):
//
//   bits 0-13 the tile's address / 16, 16-29 the leading byte offset / 16,
//   32-45 the stride byte offset / 16, 62-63 the swizzle (1: 128 bytes).
//
// A tile read along the reduction (K-major) is rows of the 64 elements of a
// chunk, 128 bytes each, eight rows making one 1024-byte swizzle atom: the
// stride offset is 1024 and a k step of 16 moves the address by 32 bytes.
// A tile read along its free loop (MN-major, the instruction's transpose)
// keeps 64 free elements per row and the chunk's 64 rows together: the
// leading offset, between such blocks, is 64 x 128 bytes, the stride
// offset, between groups of eight k rows, is 1024, and a k step moves the
// address by 16 rows. In both, the 16-byte piece p of row r is stored at
// piece p ^ (r % 8), which is the 128-byte swizzle the descriptor names,
// when the tile starts at a multiple of 1024 bytes
// (tilec-ptx-align-shared-memory aligns it).
//
// wgmma is asynchronous: a step fences, issues its instructions, commits
// them as a group and waits for all but that group, so one step's products
// run while the next step waits for its copies and meets the barrier; the
// cells wait for all. The accumulators are `!llvm.struct`s of N / 2 f32
// per work-item: value 4j + 2h + e of work-item l of warp w in its
// warpgroup is row 16w + l / 4 + 8h, column 8j + 2 (l % 4) + e.
//
//===----------------------------------------------------------------------===//

#include "MmaBody.h"
#include "MmaStaging.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace tilec;

namespace {

using T = OuterProductTiling;

/// Bytes of a swizzled row and of a swizzle atom (eight rows).
constexpr int64_t kRowBytes = T::kWgmmaRowBytes, kAtomBytes = 1024;

class WgmmaEmitter : public MmaStagingEmitter {
public:
  using MmaStagingEmitter::MmaStagingEmitter;

  void emit() {
    Value init = enterBlock();
    placeWarpgroup();
    SmallVector<Value> accs(tilesM(), initialAccumulator(init));
    accs = reduce(accs);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, uint64_t(0));
    emitEpilogue(accs);
  }

private:
  int64_t tilesM() const { return rows.sizes->warp / T::kWgmmaM; }
  int64_t instructionN() const { return columns.sizes->warp; }
  int64_t accumulatorsPerItem() const { return instructionN() / 2; }

  LLVM::LLVMStructType accType() {
    SmallVector<Type> fields(accumulatorsPerItem(), b.getF32Type());
    return LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  }
  Value initialAccumulator(Value init) {
    Value acc = LLVM::PoisonOp::create(b, loc, accType());
    for (int64_t i = 0; i < accumulatorsPerItem(); ++i)
      acc = LLVM::InsertValueOp::create(b, loc, acc, init, i);
    return acc;
  }

  /// The work-item's warpgroup's first row and column in the block, its
  /// warp in the warpgroup, and its lane's group (l / 4) and place in the
  /// group (l % 4).
  void placeWarpgroup() {
    Value warpgroup = div(item, 128);
    int64_t groupsX = columns.sizes->block / columns.sizes->warp;
    groupRow = mul(div(warpgroup, groupsX), rows.sizes->warp);
    groupColumn = mul(rem(warpgroup, groupsX), columns.sizes->warp);
    warpInGroup = rem(div(item, 32), 4);
    Value lane = rem(item, 32);
    group = div(lane, 4);
    inGroup = rem(lane, 4);
  }

  //===--------------------------------------------------------------------===//
  // The swizzled tiles
  //===--------------------------------------------------------------------===//

  /// The 128-byte swizzle: piece p of a row r at piece p ^ (r % 8).
  Value swizzled(Value piece, Value row) {
    return mul(arith::XOrIOp::create(b, loc, piece, rem(row, 8)),
               tiling.vector);
  }

  SmallVector<Value> tileIndices(const Side &side, Value buffer, Value line,
                                 Value along) override {
    Value piece = div(along, tiling.vector);
    if (!freeMajor(side))
      return {buffer, line, swizzled(piece, line)};
    // Line `line` is k; the free elements of a row are those of one block
    // of 64, whose chunk of rows lies together.
    int64_t piecesPerRow = tiling.wgmmaRowElements() / tiling.vector;
    Value block = div(piece, piecesPerRow);
    return {buffer, add(mul(block, tiling.chunk), line),
            swizzled(rem(piece, piecesPerRow), line)};
  }

  int64_t bufferBytes(const Side &side) const {
    return cast<MemRefType>(side.tile.getType()).getNumElements() /
           tiling.pipeline * tiling.elementBytes;
  }

  /// The descriptor of `side`'s tile in buffer `buffer` from free element
  /// `free` (a multiple of 64 where the tile is free-major) at k step 0.
  Value descriptor(const Side &side, Value buffer, Value free) {
    Value address = memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, side.tile);
    address = add(address, mul(buffer, bufferBytes(side)));
    // (A K-major tile's leading offset is unused: one 128-byte row holds
    // the instruction's k.)
    uint64_t leadingUnits = 1;
    if (freeMajor(side)) {
      int64_t leading = tiling.chunk * kRowBytes;
      leadingUnits = uint64_t(leading) / 16;
      address = add(address, mul(div(free, T::kWgmmaRow), leading));
    } else {
      address = add(address, mul(free, kRowBytes));
    }
    Value encoded = arith::IndexCastUIOp::create(
        b, loc, b.getI64Type(), div(address, 16));
    uint64_t fields = leadingUnits << 16 | uint64_t(kAtomBytes / 16) << 32 |
                      uint64_t(1) << 62;
    return arith::OrIOp::create(b, loc, encoded, i64(fields));
  }
  Value i64(uint64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
  }
  /// How far a k step moves `side`'s descriptor (in its 16-byte address
  /// units): 16 rows, or the step's 32 bytes of a row.
  int64_t kStepUnits(const Side &side) const {
    return freeMajor(side) ? tiling.wgmmaK() * kRowBytes / 16
                           : tiling.wgmmaK() * tiling.elementBytes / 16;
  }
  /// NVVM names the layouts of the m x k A and the k x n B as matrices:
  /// A K-major is row-major, B K-major column-major (the instruction's
  /// transpose bits are set for the others).
  NVVM::MMALayout layoutOf(const Side &side) const {
    bool rowMajor = freeMajor(side) == (&side == &columns);
    return rowMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  }

  //===--------------------------------------------------------------------===//
  // Computing a chunk
  //===--------------------------------------------------------------------===//

  bool computesAsynchronously() const override { return true; }

  /// cp.async writes through the generic proxy, wgmma reads through the
  /// async one: each work-item orders its landed copies before the
  /// barrier.
  void afterCopiesLanded() override {
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  }

  SmallVector<Value> compute(ValueRange accs, Value buffer,
                             int64_t steps) override {
    SmallVector<Value> next(accs.begin(), accs.end());
    int64_t k = tiling.wgmmaK();
    int64_t kSteps = (steps + k - 1) / k;
    SmallVector<Value> descA;
    for (int64_t mi = 0; mi < tilesM(); ++mi)
      descA.push_back(
          descriptor(rows, buffer, add(groupRow, mi * T::kWgmmaM)));
    Value descB = descriptor(columns, buffer, groupColumn);
    NVVM::WGMMATypes input = element.isF32()   ? NVVM::WGMMATypes::tf32
                             : element.isF16() ? NVVM::WGMMATypes::f16
                                               : NVVM::WGMMATypes::bf16;
    auto shape = NVVM::MMAShapeAttr::get(b.getContext(), T::kWgmmaM,
                                         instructionN(), k);
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    for (int64_t ks = 0; ks < kSteps; ++ks) {
      Value stepB = addUnits(descB, ks * kStepUnits(columns));
      for (int64_t mi = 0; mi < tilesM(); ++mi)
        next[mi] = NVVM::WgmmaMmaAsyncOp::create(
            b, loc, accType(), next[mi],
            addUnits(descA[mi], ks * kStepUnits(rows)), stepB, shape, input,
            input, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
            NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, layoutOf(rows),
            layoutOf(columns), NVVM::MMAIntOverflowAttr());
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, uint64_t(1));
    return next;
  }
  Value addUnits(Value descriptor, int64_t units) {
    return units == 0 ? descriptor
                      : arith::AddIOp::create(b, loc, descriptor, i64(units))
                            .getResult();
  }

  //===--------------------------------------------------------------------===//
  // The cells
  //===--------------------------------------------------------------------===//

  void emitEpilogue(ArrayRef<Value> accs) {
    Value warpRow = add(add(rows.blockStart, groupRow),
                        add(mul(warpInGroup, 16), group));
    Value firstColumn = add(add(columns.blockStart, groupColumn),
                            mul(inGroup, 2));
    for (int64_t mi = 0; mi < tilesM(); ++mi)
      for (int64_t j = 0; j < instructionN() / 8; ++j)
        for (int64_t half = 0; half < 2; ++half)
          for (int64_t e = 0; e < 2; ++e) {
            Value value = LLVM::ExtractValueOp::create(
                b, loc, accs[mi], 4 * j + 2 * half + e);
            emitCell(add(warpRow, mi * T::kWgmmaM + 8 * half),
                     add(firstColumn, 8 * j + e), value);
          }
  }

  Value groupRow, groupColumn, warpInGroup, group, inGroup;
};

} // namespace

void tilec::emitWgmmaBody(KernelPlan &plan, OpBuilder &b, IRMapping &mapping,
                          ValueRange tiles) {
  WgmmaEmitter(plan, b, mapping, tiles).emit();
}
