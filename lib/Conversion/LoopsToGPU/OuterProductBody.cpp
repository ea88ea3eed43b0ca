//===- OuterProductBody.cpp - A contraction as outer products -------------===//
//
// See OuterProductBody.h; the chunks, the staging's buffers and the cells'
// epilogue are ChunkedContraction.h's. The register tile is a set of SSA
// values, which both OpenCL C (float4 variables) and SPIR-V (loop values,
// never a private array indexed at run time) keep in registers. The
// arithmetic of a step is the nest's own: its combination and aggregation
// cloned with vector types, fused into one fma where they are a float
// multiply and add.
//
// Layout of a work-item's cells (the warp layout of the best SIMT SGEMMs):
// work-item t of the work-group is lane l = t % lanes of subgroup tile
// w = t / lanes; the subgroup tiles cover the block row by row, and the
// lanes of one cover it ly = l / lanesX rows and lx = l % lanesX columns of
// fragments. Its fragment g of rows starts at row
// (w / tilesX) * warpY + g * lanesY * vector + ly * vector of the block, and
// likewise for columns, so that the lanes of a subgroup read neighbouring
// vectors of the staged tiles and a work-item's fragments lie a warp's
// width apart.
//
//===----------------------------------------------------------------------===//

#include "OuterProductBody.h"
#include "ChunkedContraction.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tilec;

namespace {

class OuterProductEmitter : public ChunkedContractionEmitter {
public:
  using ChunkedContractionEmitter::ChunkedContractionEmitter;

  void emit() {
    Value init = enterBlock();
    placeWarp();
    SmallVector<Value> accs(cells(), broadcast(init));
    accs = reduce(accs);
    emitEpilogue(accs);
  }

private:
  VectorType vectorOf(Type element) {
    return VectorType::get({tiling.vector}, element);
  }
  Value broadcast(Value scalar) {
    return vector::BroadcastOp::create(b, loc, vectorOf(scalar.getType()),
                                       scalar);
  }

  int64_t cells() const {
    return rows.sizes->thread * (columns.sizes->thread / tiling.vector);
  }
  /// The register tile's vectors: row r, column fragment h.
  unsigned cell(int64_t row, int64_t fragment) const {
    return row * (columns.sizes->thread / tiling.vector) + fragment;
  }

  //===--------------------------------------------------------------------===//
  // Where the work-item is
  //===--------------------------------------------------------------------===//

  /// The work-item's subgroup tile and its fragments in it.
  void placeWarp() {
    int64_t lanes = rows.sizes->lanes() * columns.sizes->lanes();
    Value warp = div(item, lanes), lane = rem(item, lanes);
    int64_t warpsX = columns.sizes->block / columns.sizes->warp;
    placeFragments(rows, rowFragments, div(warp, warpsX),
                   div(lane, columns.sizes->lanes()));
    placeFragments(columns, columnFragments, rem(warp, warpsX),
                   rem(lane, columns.sizes->lanes()));
  }

  void placeFragments(const Side &side, SmallVector<Value> &fragments,
                      Value warp, Value lane) {
    const OuterProductSide &sizes = *side.sizes;
    Value first = add(mul(warp, sizes.warp / tiling.vector), lane);
    for (int64_t g = 0; g < sizes.thread / tiling.vector; ++g)
      fragments.push_back(add(first, g * sizes.lanes()));
  }

  //===--------------------------------------------------------------------===//
  // Staging a chunk
  //===--------------------------------------------------------------------===//

  /// Whether `side` is loaded as whole vectors: its rows or columns are
  /// neighbouring elements, made by the load alone, and a vector never
  /// straddles the end.
  bool loadsVectors(const Side &side) const {
    return side.operand->contiguousAlongFree && side.operand->slice.empty() &&
           side.extent % tiling.vector == 0 && !isGuarded(side);
  }

  /// The slot of the tile that `slot` (a number below chunk x block /
  /// vector) names: its chunk iteration and vector. Consecutive slots go
  /// along memory: along the free loop for vector loads, along the
  /// reduction for gathered ones.
  std::pair<Value, Value> slotPlace(const Side &side, Value slot) {
    int64_t perRow = side.sizes->block / tiling.vector;
    if (loadsVectors(side))
      return {div(slot, perRow), rem(slot, perRow)};
    return {rem(slot, tiling.chunk), div(slot, tiling.chunk)};
  }

  /// Rounds of slots per work-item, and whether the last is partial.
  std::pair<int64_t, bool> rounds(const Side &side) const {
    int64_t slots = tiling.chunk * side.sizes->block / tiling.vector;
    return {(slots + tiling.items - 1) / tiling.items,
            slots % tiling.items != 0};
  }

  Value slotOf(int64_t round) { return add(item, round * tiling.items); }

  /// The vector of slot (`k`, `vector`) of chunk `chunkStart`.
  Value loadSlot(const Side &side, Value chunkStart, Value k, Value vector) {
    Value kIndex = add(chunkStart, k);
    Value first = add(side.blockStart, mul(vector, tiling.vector));
    if (loadsVectors(side)) {
      // Clamped as a whole so that it stays inside the memref; the
      // elements past the end feed only cells that are never stored.
      if (overhangs(side))
        first = min(first, side.extent - tiling.vector);
      // Aligned to its size where the element offsets allow (a whole
      // vector per load on NVIDIA's OpenCL, not one per element).
      llvm::MaybeAlign alignment;
      if (side.operand->alignedElements % tiling.vector == 0)
        alignment = llvm::Align(tiling.vector *
                                elementBytes(side.operand->value.getType()));
      return vector::LoadOp::create(
          b, loc, vectorOf(side.operand->value.getType()),
          mapping.lookupOrDefault(side.operand->load.getMemRef()),
          loadIndices(side, first, kIndex), /*nontemporal=*/false, alignment);
    }
    SmallVector<Value> elements;
    for (int64_t i = 0; i < tiling.vector; ++i) {
      Value free = add(first, i);
      if (overhangs(side))
        free = min(free, side.extent - 1);
      elements.push_back(operandAt(side, free, kIndex));
    }
    return vector::FromElementsOp::create(
        b, loc, vectorOf(side.operand->value.getType()), elements);
  }

  /// In a partial last round the work-items past the tile load the last
  /// slot again, which storeChunk does not store. Of a partial chunk of
  /// `steps` iterations, the slots past them load its last iteration
  /// again, which compute does not read.
  ChunkValues loadChunk(const Side &side, Value chunkStart,
                        int64_t steps) override {
    ChunkValues values;
    auto [count, partial] = rounds(side);
    int64_t slots = tiling.chunk * side.sizes->block / tiling.vector;
    for (int64_t round = 0; round < count; ++round) {
      Value slot = slotOf(round);
      if (partial && round + 1 == count)
        slot = min(slot, slots - 1);
      auto [k, vector] = slotPlace(side, slot);
      if (steps < tiling.chunk)
        k = min(k, steps - 1);
      values.push_back(loadSlot(side, chunkStart, k, vector));
    }
    return values;
  }

  void storeChunk(const Side &side, const ChunkValues &values,
                  Value buffer) override {
    auto [count, partial] = rounds(side);
    int64_t slots = tiling.chunk * side.sizes->block / tiling.vector;
    for (int64_t round = 0; round < count; ++round) {
      Value slot = slotOf(round);
      OpBuilder::InsertionGuard keep(b);
      if (partial && round + 1 == count) {
        auto guard = scf::IfOp::create(b, loc, less(slot, slots), false);
        b.setInsertionPoint(guard.thenBlock()->getTerminator());
      }
      auto [k, vector] = slotPlace(side, slot);
      memref::StoreOp::create(b, loc, values[round], side.tile,
                              ValueRange{buffer, k, vector});
    }
  }

  //===--------------------------------------------------------------------===//
  // Computing a chunk
  //===--------------------------------------------------------------------===//

  /// One step of the reduction on a register vector: the nest's
  /// combination of `rowValue` and `columnValue` aggregated into `acc`,
  /// with vector types.
  Value step(Value acc, Value rowValue, Value columnValue) {
    Value operandValues[2];
    operandValues[tiling.rows.operand] = rowValue;
    operandValues[tiling.columns.operand] = columnValue;
    Operation *combine = nest.combine, *aggregate = nest.aggregate;
    if (isa<arith::MulFOp>(combine) && isa<arith::AddFOp>(aggregate))
      return vector::FMAOp::create(b, loc, operandValues[0], operandValues[1],
                                   acc);
    Value combined = widen(combine, {operandValues[0], operandValues[1]});
    Value reducedAcc = nest.innermost().getRegionIterArgs()[0];
    SmallVector<Value> inputs;
    for (Value operand : aggregate->getOperands())
      inputs.push_back(operand == reducedAcc ? acc : combined);
    return widen(aggregate, inputs);
  }

  /// `op` on `vector`-wide operands.
  Value widen(Operation *op, ArrayRef<Value> operands) {
    OperationState state(loc, op->getName());
    state.addOperands(operands);
    state.addTypes(vectorOf(op->getResult(0).getType()));
    state.addAttributes(op->getAttrs());
    return b.create(state)->getResult(0);
  }

  SmallVector<Value> compute(ValueRange accs, Value buffer,
                             int64_t steps) override {
    SmallVector<Value> next(accs.begin(), accs.end());
    int64_t vector = tiling.vector;
    for (int64_t k = 0; k < steps; ++k) {
      Value kIndex = constant(k);
      SmallVector<Value> rowVectors, columnVectors;
      for (Value fragment : rowFragments)
        rowVectors.push_back(memref::LoadOp::create(
            b, loc, rows.tile, ValueRange{buffer, kIndex, fragment}));
      for (Value fragment : columnFragments)
        columnVectors.push_back(memref::LoadOp::create(
            b, loc, columns.tile, ValueRange{buffer, kIndex, fragment}));
      for (auto [g, rowVector] : llvm::enumerate(rowVectors))
        for (int64_t i = 0; i < vector; ++i) {
          Value rowValue = broadcast(
              vector::ExtractOp::create(b, loc, rowVector, i).getResult());
          for (auto [h, columnVector] : llvm::enumerate(columnVectors)) {
            unsigned index = cell(g * vector + i, h);
            next[index] = step(next[index], rowValue, columnVector);
          }
        }
    }
    return next;
  }

  //===--------------------------------------------------------------------===//
  // The cells
  //===--------------------------------------------------------------------===//

  /// The nest's epilogue and store for every cell of the register tile.
  void emitEpilogue(ArrayRef<Value> accs) {
    int64_t vector = tiling.vector;
    for (auto [g, rowFragment] : llvm::enumerate(rowFragments))
      for (int64_t i = 0; i < vector; ++i) {
        Value row = add(add(rows.blockStart, mul(rowFragment, vector)), i);
        for (auto [h, columnFragment] : llvm::enumerate(columnFragments))
          for (int64_t j = 0; j < vector; ++j) {
            Value column =
                add(add(columns.blockStart, mul(columnFragment, vector)), j);
            Value acc = accs[cell(g * vector + i, h)];
            emitCell(row, column,
                     vector::ExtractOp::create(b, loc, acc, j).getResult());
          }
      }
  }

  /// The work-item's fragments, in vectors of the tiles.
  SmallVector<Value> rowFragments, columnFragments;
};

} // namespace

void tilec::emitOuterProductBody(KernelPlan &plan, OpBuilder &b,
                                 IRMapping &mapping, ValueRange tiles) {
  OuterProductEmitter(plan, b, mapping, tiles).emit();
}
