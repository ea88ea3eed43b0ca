//===- MmaBody.cpp - A contraction on tensor cores ------------------------===//
//
// See MmaBody.h; the chunks, the staging's buffers and the cells' epilogue
// are ChunkedContraction.h's. The instruction is mma.sync m16n8k16 with
// 16-bit inputs summed in f32 (nvgpu.mma.sync), its fragments read from the
// tiles with ldmatrix (nvgpu.ldmatrix), whose four 8 x 8 matrices per lane
// address give exactly the instruction's register layout:
//
//   A (rows), 16 x 16: matrices (rows 0-7, k 0-7), (8-15, 0-7), (0-7, 8-15),
//     (8-15, 8-15); B (columns), 16 x 8 per instruction, two at a time:
//     (columns 0-7, k 0-7), (0-7, 8-15), then the next eight columns.
//
// A tile stored [free][k] gives them with plain ldmatrix, one stored
// [k][free] with ldmatrix.trans (OuterProductTiling.h says which). The
// copies into the tiles go along the tile's rows, as vectors where the
// operand is contiguous there; every element past the end of the
// reduction is zero, so that whole k steps can be computed.
//
//===----------------------------------------------------------------------===//

#include "MmaBody.h"
#include "ChunkedContraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tilec;

namespace {

using T = OuterProductTiling;

class MmaEmitter : public ChunkedContractionEmitter {
public:
  MmaEmitter(KernelPlan &plan, OpBuilder &b, IRMapping &mapping,
             ValueRange tiles)
      : ChunkedContractionEmitter(plan, b, mapping, tiles) {
    element = nest.operands[0].load.getResult().getType();
  }

  void emit() {
    placeBlock();
    placeWarp();
    for (Operation *op : nest.prologue)
      b.clone(*op, mapping);
    Value init = mapping.lookupOrDefault(nest.reduction.getInits()[0]);
    SmallVector<Value> accs(
        tilesM() * tilesN(),
        vector::BroadcastOp::create(b, loc, accType(), init).getResult());
    accs = reduce(accs);
    emitEpilogue(accs);
  }

private:
  int64_t tilesM() const { return rows.sizes->warp / T::kMmaM; }
  int64_t tilesN() const { return columns.sizes->warp / T::kMmaN; }
  VectorType accType() {
    return VectorType::get({2, 2}, b.getF32Type());
  }
  bool freeMajor(const Side &side) const {
    return tiling.freeMajor[side.sizes->operand];
  }

  /// The work-item's warp, its first row and column in the block, and
  /// its lane's group (l / 4) and place in the group (l % 4).
  void placeWarp() {
    Value warp = div(item, 32), lane = rem(item, 32);
    int64_t warpsX = columns.sizes->block / columns.sizes->warp;
    warpRow = mul(div(warp, warpsX), rows.sizes->warp);
    warpColumn = mul(rem(warp, warpsX), columns.sizes->warp);
    laneId = lane;
    group = div(lane, 4);
    inGroup = rem(lane, 4);
  }

  //===--------------------------------------------------------------------===//
  // Staging a chunk
  //===--------------------------------------------------------------------===//

  /// The tile's rows (along k for a free-major tile) and their length.
  int64_t lines(const Side &side) const {
    return freeMajor(side) ? tiling.chunk : side.sizes->block;
  }
  int64_t lineLength(const Side &side) const {
    return freeMajor(side) ? side.sizes->block : tiling.chunk;
  }
  int64_t slots(const Side &side) const {
    return lines(side) * lineLength(side) / tiling.vector;
  }
  std::pair<int64_t, bool> rounds(const Side &side) const {
    return {(slots(side) + tiling.items - 1) / tiling.items,
            slots(side) % tiling.items != 0};
  }
  Value slotOf(int64_t round) { return add(item, round * tiling.items); }

  /// Whether `side`'s copies are whole vector loads: the operand is
  /// contiguous along the tile's rows and a vector never straddles the end
  /// of them.
  bool loadsVectors(const Side &side) const {
    if (freeMajor(side))
      return side.operand->contiguousAlongFree &&
             side.extent % tiling.vector == 0;
    return side.operand->contiguousAlongReduction &&
           nest.reduction.getConstantUpperBound() % tiling.vector == 0;
  }

  VectorType slotType() { return VectorType::get({tiling.vector}, element); }

  /// Where the vector of slot (`line`, `position`) of chunk `chunkStart`
  /// starts in the operand, kept inside it, and (when the chunk holds
  /// `steps` < chunk iterations) whether it is in the reduction, for an
  /// operand loaded as vectors (loadsVectors).
  struct SlotSource {
    SmallVector<Value> indices;
    Value inside; ///< null: always
  };
  SlotSource slotSource(const Side &side, Value chunkStart, int64_t steps,
                        Value line, Value along) {
    int64_t extentK = nest.reduction.getConstantUpperBound();
    Value free, k, inside;
    if (freeMajor(side)) {
      free = add(side.blockStart, along);
      if (overhangs(side))
        free = min(free, side.extent - tiling.vector);
      k = add(chunkStart, line);
      if (steps < tiling.chunk) {
        inside = less(line, steps);
        k = min(k, extentK - 1);
      }
    } else {
      free = add(side.blockStart, line);
      if (overhangs(side))
        free = min(free, side.extent - 1);
      k = add(chunkStart, along);
      if (steps < tiling.chunk) {
        inside = less(along, steps);
        k = min(k, extentK - tiling.vector);
      }
    }
    return {loadIndices(side, free, k), inside};
  }
  Value memrefOf(const Side &side) {
    return mapping.lookupOrDefault(side.operand->load.getMemRef());
  }

  /// The vector of slot (`line`, `position`) of chunk `chunkStart`, of
  /// which `steps` iterations are in the reduction.
  Value loadSlot(const Side &side, Value chunkStart, int64_t steps,
                 Value line, Value position) {
    int64_t extentK = nest.reduction.getConstantUpperBound();
    Value along = mul(position, tiling.vector);
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(slotType(), b.getZeroAttr(element)));
    if (loadsVectors(side)) {
      SlotSource source = slotSource(side, chunkStart, steps, line, along);
      int64_t aligned = freeMajor(side) ? side.operand->alignedElements
                                        : side.operand->alignedAlongReduction;
      llvm::MaybeAlign alignment;
      if (aligned % tiling.vector == 0)
        alignment = llvm::Align(tiling.vector * elementBytes(element));
      Value loaded =
          vector::LoadOp::create(b, loc, slotType(), memrefOf(side),
                                 source.indices, /*nontemporal=*/false,
                                 alignment);
      return source.inside ? arith::SelectOp::create(b, loc, source.inside,
                                                     loaded, zero)
                                 .getResult()
                           : loaded;
    }
    SmallVector<Value> elements;
    Value scalarZero =
        arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
    for (int64_t i = 0; i < tiling.vector; ++i) {
      Value free = freeMajor(side) ? add(along, i) : line;
      Value kInChunk = freeMajor(side) ? line : add(along, i);
      free = add(side.blockStart, free);
      if (overhangs(side))
        free = min(free, side.extent - 1);
      Value k = add(chunkStart, kInChunk);
      Value inside;
      if (steps < tiling.chunk) {
        inside = less(kInChunk, steps);
        k = min(k, extentK - 1);
      }
      Value value = operandAt(side, free, k, /*raw=*/true);
      elements.push_back(
          inside ? arith::SelectOp::create(b, loc, inside, value, scalarZero)
                       .getResult()
                 : value);
    }
    return vector::FromElementsOp::create(b, loc, slotType(), elements);
  }

  /// `body(line, position)` for each slot of the work-item, round by
  /// round; slots past the tile in a partial last round take the last one
  /// again (a load or copy may repeat it; storeChunk guards its stores).
  template <typename Body>
  void forEachSlot(const Side &side, Body body) {
    auto [count, partial] = rounds(side);
    int64_t perLine = lineLength(side) / tiling.vector;
    for (int64_t round = 0; round < count; ++round) {
      Value slot = slotOf(round);
      if (partial && round + 1 == count)
        slot = min(slot, slots(side) - 1);
      body(div(slot, perLine), rem(slot, perLine));
    }
  }

  ChunkValues loadChunk(const Side &side, Value chunkStart,
                        int64_t steps) override {
    ChunkValues values;
    forEachSlot(side, [&](Value line, Value position) {
      values.push_back(loadSlot(side, chunkStart, steps, line, position));
    });
    return values;
  }

  /// One 16-byte cp.async per slot, bypassing L1 (the tiles are read
  /// once per work-group); a slot past the reduction copies nothing and
  /// is zero-filled. A repeated last slot copies the same bytes to the same
  /// place.
  void copyChunkAsync(const Side &side, Value chunkStart, int64_t steps,
                      Value buffer, SmallVector<Value> &tokens) override {
    forEachSlot(side, [&](Value line, Value position) {
      Value along = mul(position, tiling.vector);
      SlotSource source = slotSource(side, chunkStart, steps, line, along);
      Value copied;
      if (source.inside)
        copied = arith::SelectOp::create(b, loc, source.inside,
                                         constant(tiling.vector), constant(0));
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          b, loc, side.tile, ValueRange{buffer, line, along}, memrefOf(side),
          source.indices, b.getIndexAttr(tiling.vector), copied,
          b.getUnitAttr()));
    });
  }

  void storeChunk(const Side &side, const ChunkValues &values,
                  Value buffer) override {
    auto [count, partial] = rounds(side);
    int64_t perLine = lineLength(side) / tiling.vector;
    for (int64_t round = 0; round < count; ++round) {
      Value slot = slotOf(round);
      OpBuilder::InsertionGuard keep(b);
      if (partial && round + 1 == count) {
        auto guard = scf::IfOp::create(b, loc, less(slot, slots(side)), false);
        b.setInsertionPoint(guard.thenBlock()->getTerminator());
      }
      Value line = div(slot, perLine);
      Value along = mul(rem(slot, perLine), tiling.vector);
      vector::StoreOp::create(
          b, loc, values[round], side.tile, ValueRange{buffer, line, along},
          /*nontemporal=*/false,
          llvm::Align(tiling.vector * elementBytes(element)));
    }
  }

  //===--------------------------------------------------------------------===//
  // Computing a chunk
  //===--------------------------------------------------------------------===//

  /// ldmatrix of `matrices` 8 x 8 matrices from `side`'s tile: matrix j of
  /// the lane's (j = lane / 8, row r = lane % 8) starts at free offset
  /// `free(j)` and k offset `k(j)` (both in the chunk, past the warp's).
  template <typename FreeOf, typename KOf>
  Value ldmatrix(const Side &side, Value buffer, Value warpStart,
                 int64_t matrices, FreeOf freeOf, KOf kOf) {
    // The per-lane row is computed for every matrix number; the lanes of
    // matrices the instruction does not read give in-bounds addresses.
    Value j = rem(div(laneId, 8), matrices), r = rem(laneId, 8);
    Value free = add(warpStart, freeOf(j)), k = kOf(j);
    if (freeMajor(side))
      k = add(k, r);
    else
      free = add(free, r);
    auto type = VectorType::get({matrices, 2}, element);
    SmallVector<Value> indices =
        freeMajor(side) ? SmallVector<Value>{buffer, k, free}
                        : SmallVector<Value>{buffer, free, k};
    return nvgpu::LdMatrixOp::create(
        b, loc, type, side.tile, indices, b.getBoolAttr(freeMajor(side)),
        b.getI32IntegerAttr(matrices));
  }

  /// 8 x (j % 2) + ..: the offsets of matrix j along the two axes.
  Value times8(Value j, int64_t divisor) { return mul(rem(div(j, divisor), 2), 8); }

  SmallVector<Value> compute(ValueRange accs, Value buffer,
                             int64_t steps) override {
    SmallVector<Value> next(accs.begin(), accs.end());
    int64_t kSteps = (steps + T::kMmaK - 1) / T::kMmaK;
    auto halves = VectorType::get({2, 2}, element);
    for (int64_t ks = 0; ks < kSteps; ++ks) {
      int64_t k0 = ks * T::kMmaK;
      // A: matrices (rows +0/+8 by j % 2, k +0/+8 by j / 2).
      SmallVector<Value> a;
      for (int64_t mi = 0; mi < tilesM(); ++mi)
        a.push_back(ldmatrix(
            rows, buffer, add(warpRow, mi * T::kMmaM), 4,
            [&](Value j) { return times8(j, 1); },
            [&](Value j) { return add(times8(j, 2), k0); }));
      // B: matrices (k +0/+8 by j % 2, columns +0/+8 by j / 2), two
      // instructions' columns per ldmatrix.x4.
      SmallVector<Value> bs;
      for (int64_t ni = 0; ni < tilesN(); ni += 2) {
        int64_t matrices = ni + 1 < tilesN() ? 4 : 2;
        Value pair = ldmatrix(
            columns, buffer, add(warpColumn, ni * T::kMmaN), matrices,
            [&](Value j) { return times8(j, 2); },
            [&](Value j) { return add(times8(j, 1), k0); });
        for (int64_t half = 0; half < matrices / 2; ++half)
          bs.push_back(vector::ShuffleOp::create(
              b, loc, halves, pair, pair,
              ArrayRef<int64_t>{2 * half, 2 * half + 1}));
      }
      for (int64_t mi = 0; mi < tilesM(); ++mi)
        for (int64_t ni = 0; ni < tilesN(); ++ni) {
          Value &acc = next[mi * tilesN() + ni];
          acc = nvgpu::MmaSyncOp::create(
              b, loc, a[mi], bs[ni], acc,
              ArrayRef<int64_t>{T::kMmaM, T::kMmaN, T::kMmaK});
        }
    }
    return next;
  }

  //===--------------------------------------------------------------------===//
  // The cells
  //===--------------------------------------------------------------------===//

  /// Lane (g, t) holds rows g and g + 8, columns 2t and 2t + 1 of each
  /// instruction's 16 x 8 result.
  void emitEpilogue(ArrayRef<Value> accs) {
    for (int64_t mi = 0; mi < tilesM(); ++mi)
      for (int64_t ni = 0; ni < tilesN(); ++ni)
        for (int64_t half = 0; half < 2; ++half)
          for (int64_t j = 0; j < 2; ++j) {
            Value row = add(add(rows.blockStart, warpRow),
                            add(group, mi * T::kMmaM + half * 8));
            Value column = add(add(columns.blockStart, warpColumn),
                               add(mul(inGroup, 2), ni * T::kMmaN + j));
            Value value = vector::ExtractOp::create(
                b, loc, accs[mi * tilesN() + ni], ArrayRef<int64_t>{half, j});
            emitCell(row, column, value);
          }
  }

  Type element; ///< the operands' 16-bit float type
  Value warpRow, warpColumn, laneId, group, inGroup;
};

} // namespace

void tilec::emitMmaBody(KernelPlan &plan, OpBuilder &b, IRMapping &mapping,
                        ValueRange tiles) {
  MmaEmitter(plan, b, mapping, tiles).emit();
}
