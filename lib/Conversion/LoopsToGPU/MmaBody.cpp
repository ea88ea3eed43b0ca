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
// copies into the tiles are MmaStaging.h's.
//
//===----------------------------------------------------------------------===//

#include "MmaBody.h"
#include "MmaStaging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tilec;

namespace {

using T = OuterProductTiling;

class MmaEmitter : public MmaStagingEmitter {
public:
  using MmaStagingEmitter::MmaStagingEmitter;

  void emit() {
    Value init = enterBlock();
    placeWarp();
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

  Value warpRow, warpColumn, laneId, group, inGroup;
};

} // namespace

void tilec::emitMmaBody(KernelPlan &plan, OpBuilder &b, IRMapping &mapping,
                        ValueRange tiles) {
  MmaEmitter(plan, b, mapping, tiles).emit();
}
