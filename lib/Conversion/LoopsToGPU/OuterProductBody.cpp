//===- OuterProductBody.cpp - A contraction as outer products -------------===//
//
// See OuterProductBody.h. Every loop but the one over reduction chunks is
// unrolled here, in the IR: the register tile is a set of SSA values carried
// by that loop, which both OpenCL C (float4 variables) and SPIR-V (loop
// values, never a private array indexed at run time) keep in registers, and
// no loop can run zero times (llvm#211981) or count against lavapipe's loop
// budget. The arithmetic of a step is the nest's own: its combination and
// aggregation cloned with vector types, fused into one fma where they are a
// float multiply and add.
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

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IntegerSet.h"

using namespace mlir;
using namespace tilec;

namespace {

/// The values one chunk of an operand is staged from: one vector per slot
/// the work-item loads.
using ChunkValues = SmallVector<Value>;

/// One grid side as the emitter needs it.
struct Side {
  const OuterProductSide *sizes;
  ContractionOperand *operand;
  Value tile;
  Value freeIV;         ///< the free loop's induction variable
  int64_t extent;       ///< iterations of the free loop
  Value blockStart;     ///< the work-group's first iteration of it
  SmallVector<Value> fragments; ///< the work-item's, in vectors of the tile
};

class OuterProductEmitter {
public:
  OuterProductEmitter(KernelPlan &plan, OpBuilder &b, IRMapping &mapping,
                      ValueRange tiles)
      : plan(plan), outer(*plan.outerProduct), tiling(outer.tiling),
        nest(outer.nest), b(b), mapping(mapping), loc(plan.root.getLoc()) {
    rows = sideOf(tiling.rows, tiles[0]);
    columns = sideOf(tiling.columns, tiles[1]);
  }

  void emit() {
    placeWorkItem();
    for (Operation *op : nest.prologue)
      b.clone(*op, mapping);
    SmallVector<Value> accs(cells(), broadcast(mapping.lookupOrDefault(
                                        nest.reduction.getInits()[0])));
    accs = reduce(accs);
    emitEpilogue(accs);
  }

private:
  //===--------------------------------------------------------------------===//
  // Small builders
  //===--------------------------------------------------------------------===//

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value lhs, Value rhs) {
    return arith::AddIOp::create(b, loc, lhs, rhs);
  }
  Value add(Value lhs, int64_t rhs) {
    return rhs == 0 ? lhs : add(lhs, constant(rhs));
  }
  Value mul(Value lhs, int64_t rhs) {
    return rhs == 1 ? lhs
                    : arith::MulIOp::create(b, loc, lhs, constant(rhs))
                          .getResult();
  }
  Value div(Value lhs, int64_t rhs) {
    return rhs == 1 ? lhs
                    : arith::DivUIOp::create(b, loc, lhs, constant(rhs))
                          .getResult();
  }
  Value rem(Value lhs, int64_t rhs) {
    return rhs == 1 ? constant(0)
                    : arith::RemUIOp::create(b, loc, lhs, constant(rhs))
                          .getResult();
  }
  Value min(Value lhs, int64_t rhs) {
    return arith::MinUIOp::create(b, loc, lhs, constant(rhs));
  }
  Value less(Value lhs, int64_t rhs) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs,
                                 constant(rhs));
  }
  VectorType vectorOf(Type element) {
    return VectorType::get({tiling.vector}, element);
  }
  static int64_t elementBytes(Type type) {
    return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
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

  Side sideOf(const OuterProductSide &sizes, Value tile) {
    Side side;
    side.sizes = &sizes;
    side.operand = &nest.operands[sizes.operand];
    side.tile = tile;
    affine::AffineForOp loop = nest.band[sizes.loop];
    side.freeIV = loop.getInductionVar();
    side.extent = loop.getConstantUpperBound();
    return side;
  }

  //===--------------------------------------------------------------------===//
  // Where the work-item is
  //===--------------------------------------------------------------------===//

  /// The work-item's number, its block's first row and column, the band
  /// loops on grid z, and its fragments.
  void placeWorkItem() {
    const GridDim &x = plan.dims[0], &y = plan.dims[1], &z = plan.dims[2];
    Value tx = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value ty = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
    item = add(mul(ty, x.workItems()), tx);
    columns.blockStart =
        mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), x.block);
    rows.blockStart =
        mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), y.block);
    if (!z.loops.empty())
      mapBandInductionVars(
          plan, z, gpu::BlockIdOp::create(b, loc, gpu::Dimension::z), b,
          mapping);
    int64_t lanes = rows.sizes->lanes() * columns.sizes->lanes();
    Value warp = div(item, lanes), lane = rem(item, lanes);
    int64_t warpsX = columns.sizes->block / columns.sizes->warp;
    placeFragments(rows, div(warp, warpsX), div(lane, columns.sizes->lanes()));
    placeFragments(columns, rem(warp, warpsX),
                   rem(lane, columns.sizes->lanes()));
  }

  void placeFragments(Side &side, Value warp, Value lane) {
    const OuterProductSide &sizes = *side.sizes;
    Value first = add(mul(warp, sizes.warp / tiling.vector), lane);
    for (int64_t g = 0; g < sizes.thread / tiling.vector; ++g)
      side.fragments.push_back(add(first, g * sizes.lanes()));
  }

  //===--------------------------------------------------------------------===//
  // Staging a chunk
  //===--------------------------------------------------------------------===//

  /// Whether the work-groups of the last row or column of blocks reach past
  /// the end of `side`'s free loop (and their loads must be kept inside).
  static bool overhangs(const Side &side) {
    return side.extent % side.sizes->block != 0;
  }

  /// Whether `side` is loaded as whole vectors: its rows or columns are
  /// neighbouring elements, made by the load alone, and a vector never
  /// straddles the end.
  bool loadsVectors(const Side &side) const {
    return side.operand->contiguousAlongFree && side.operand->slice.empty() &&
           side.extent % tiling.vector == 0 &&
           outer.guardedOperand != int(side.sizes->operand);
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

  /// The operand's value at free iteration `free` and reduction iteration
  /// `k`: its load and slice cloned there.
  Value operandAt(const Side &side, Value free, Value k) {
    IRMapping at = mapping;
    at.map(side.freeIV, free);
    at.map(nest.innermost().getInductionVar(), k);
    // The other operand's free loop: loop-level maps take every enclosing
    // induction variable, and this operand's does not read it.
    const Side &other = &side == &rows ? columns : rows;
    at.map(other.freeIV, constant(0));
    if (outer.guardedOperand != int(side.sizes->operand))
      return cloneOperand(side, at);
    // Taps the guard excludes read the fill value instead, which leaves
    // the aggregation as it is (OuterProductPlan.cpp).
    auto guard = affine::AffineIfOp::create(
        b, loc, side.operand->value.getType(), nest.guard.getIntegerSet(),
        llvm::map_to_vector(nest.guard.getOperands(),
                            [&](Value v) { return at.lookupOrDefault(v); }),
        /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard keep(b);
      b.setInsertionPointToStart(guard.getThenBlock());
      affine::AffineYieldOp::create(b, loc, cloneOperand(side, at));
      b.setInsertionPointToStart(guard.getElseBlock());
      affine::AffineYieldOp::create(
          b, loc, arith::ConstantOp::create(b, loc, outer.fill).getResult());
    }
    return guard.getResult(0);
  }

  /// The operand's load and slice cloned with `at`; the value.
  Value cloneOperand(const Side &side, IRMapping &at) {
    b.clone(*side.operand->load, at);
    for (Operation *op : side.operand->slice)
      b.clone(*op, at);
    return at.lookup(side.operand->value);
  }

  /// The vector of slot (`k`, `vector`) of chunk `chunkStart`.
  Value loadSlot(const Side &side, Value chunkStart, Value k, Value vector) {
    Value kIndex = add(chunkStart, k);
    Value first = add(side.blockStart, mul(vector, tiling.vector));
    if (loadsVectors(side)) {
      // Clamped as a whole so that it stays inside the memref; the
      // elements past the end feed only cells that are never stored.
      if (overhangs(side))
        first = min(first, side.extent - tiling.vector);
      IRMapping at = mapping;
      at.map(side.freeIV, first);
      at.map(nest.innermost().getInductionVar(), kIndex);
      const Side &other = &side == &rows ? columns : rows;
      at.map(other.freeIV, constant(0));
      affine::AffineLoadOp load = side.operand->load;
      SmallVector<Value> indices;
      for (AffineExpr result : load.getAffineMap().getResults()) {
        AffineMap single =
            AffineMap::get(load.getAffineMap().getNumDims(),
                           load.getAffineMap().getNumSymbols(), result);
        SmallVector<Value> operands;
        for (Value operand : load.getMapOperands())
          operands.push_back(at.lookupOrDefault(operand));
        indices.push_back(
            affine::AffineApplyOp::create(b, loc, single, operands));
      }
      // Aligned to its size where the element offsets allow (a whole
      // vector per load on NVIDIA's OpenCL, not one per element).
      llvm::MaybeAlign alignment;
      if (side.operand->alignedElements % tiling.vector == 0)
        alignment = llvm::Align(tiling.vector *
                                elementBytes(side.operand->value.getType()));
      return vector::LoadOp::create(
          b, loc, vectorOf(side.operand->value.getType()),
          at.lookupOrDefault(load.getMemRef()), indices,
          /*nontemporal=*/false, alignment);
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

  /// The work-item's share of chunk `chunkStart` of `side`, in registers.
  /// In a partial last round the work-items past the tile load the last
  /// slot again, which storeChunk does not store. Of a partial chunk of
  /// `steps` iterations, the slots past them load its last iteration
  /// again, which compute does not read.
  ChunkValues loadChunk(const Side &side, Value chunkStart, int64_t steps) {
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

  /// Stores `values` (loadChunk's) into buffer `buffer` of `side`'s tile.
  void storeChunk(const Side &side, const ChunkValues &values, Value buffer) {
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

  /// The register tile `accs` after the first `steps` iterations of the
  /// chunk in buffer `buffer`.
  SmallVector<Value> compute(ValueRange accs, Value buffer, int64_t steps) {
    SmallVector<Value> next(accs.begin(), accs.end());
    int64_t vector = tiling.vector;
    for (int64_t k = 0; k < steps; ++k) {
      Value kIndex = constant(k);
      SmallVector<Value> rowVectors, columnVectors;
      for (Value fragment : rows.fragments)
        rowVectors.push_back(memref::LoadOp::create(
            b, loc, rows.tile, ValueRange{buffer, kIndex, fragment}));
      for (Value fragment : columns.fragments)
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
  // The chunks
  //===--------------------------------------------------------------------===//

  /// Every chunk of the reduction into `accs`. The last chunk is partial
  /// where the chunk does not divide the reduction: it is loaded and
  /// computed for the iterations left only (the sizes are constants).
  SmallVector<Value> reduce(SmallVector<Value> accs) {
    int64_t extent = nest.reduction.getConstantUpperBound();
    int64_t full = extent / tiling.chunk, rest = extent % tiling.chunk;
    int64_t chunks = full + (rest ? 1 : 0);
    auto stepsOf = [&](int64_t chunk) {
      return chunk == full ? rest : tiling.chunk;
    };
    if (tiling.buffers == 1) {
      accs = overChunks(0, full, accs, [&](Value start, ValueRange carried) {
        return stageAndCompute(start, carried, tiling.chunk);
      });
      if (rest)
        accs = stageAndCompute(constant(full * tiling.chunk), accs, rest);
      return accs;
    }
    // Two buffers: chunk c + 1 is loaded while chunk c is computed, stored
    // into the other buffer, and one barrier then makes it visible. The
    // loop loads full chunks only; a partial last one is loaded by the
    // chunk before it, peeled.
    stage(constant(0), constant(0), stepsOf(0));
    barrier();
    auto overlap = [&](Value start, ValueRange carried, int64_t nextSteps) {
      Value nextStart = add(start, tiling.chunk);
      ChunkValues nextRows = loadChunk(rows, nextStart, nextSteps);
      ChunkValues nextColumns = loadChunk(columns, nextStart, nextSteps);
      Value chunk = div(start, tiling.chunk);
      SmallVector<Value> next = compute(carried, rem(chunk, 2), tiling.chunk);
      Value other = rem(add(chunk, 1), 2);
      storeChunk(rows, nextRows, other);
      storeChunk(columns, nextColumns, other);
      barrier();
      return next;
    };
    int64_t looped = rest ? chunks - 2 : chunks - 1;
    accs = overChunks(0, looped, accs, [&](Value start, ValueRange carried) {
      return overlap(start, carried, tiling.chunk);
    });
    if (rest && chunks >= 2)
      accs = overlap(constant(looped * tiling.chunk), accs, rest);
    return compute(accs, constant((chunks - 1) % 2), stepsOf(chunks - 1));
  }

  /// One buffer: chunk `start` of `steps` iterations staged and computed,
  /// between barriers.
  SmallVector<Value> stageAndCompute(Value start, ValueRange accs,
                                     int64_t steps) {
    stage(start, constant(0), steps);
    barrier();
    SmallVector<Value> next = compute(accs, constant(0), steps);
    barrier();
    return next;
  }

  /// Loads and stores chunk `start` of both operands, `steps` iterations
  /// of it, into `buffer`.
  void stage(Value start, Value buffer, int64_t steps) {
    ChunkValues rowValues = loadChunk(rows, start, steps);
    ChunkValues columnValues = loadChunk(columns, start, steps);
    storeChunk(rows, rowValues, buffer);
    storeChunk(columns, columnValues, buffer);
  }

  void barrier() { gpu::BarrierOp::create(b, loc); }

  /// `body` over chunks [first, last) with the register tile carried; a
  /// single chunk is emitted without a loop, and none leaves `accs`.
  template <typename Body>
  SmallVector<Value> overChunks(int64_t first, int64_t last, ValueRange accs,
                                Body body) {
    if (last <= first)
      return SmallVector<Value>(accs.begin(), accs.end());
    if (last == first + 1)
      return body(constant(first * tiling.chunk), accs);
    auto loop = scf::ForOp::create(b, loc, constant(first * tiling.chunk),
                                   constant(last * tiling.chunk),
                                   constant(tiling.chunk), accs);
    OpBuilder::InsertionGuard keep(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next =
        body(loop.getInductionVar(), loop.getRegionIterArgs());
    scf::YieldOp::create(b, loc, next);
    return SmallVector<Value>(loop.getResults());
  }

  //===--------------------------------------------------------------------===//
  // The cells
  //===--------------------------------------------------------------------===//

  /// The nest's epilogue and store for every cell of the register tile.
  void emitEpilogue(ArrayRef<Value> accs) {
    int64_t vector = tiling.vector;
    bool rowsOverhang = overhangs(rows);
    bool columnsOverhang = overhangs(columns);
    for (auto [g, rowFragment] : llvm::enumerate(rows.fragments))
      for (int64_t i = 0; i < vector; ++i) {
        Value row =
            add(add(rows.blockStart, mul(rowFragment, vector)), i);
        for (auto [h, columnFragment] : llvm::enumerate(columns.fragments))
          for (int64_t j = 0; j < vector; ++j) {
            Value column =
                add(add(columns.blockStart, mul(columnFragment, vector)), j);
            Value acc = accs[cell(g * vector + i, h)];
            emitCell(row, column, acc, j, rowsOverhang, columnsOverhang);
          }
      }
  }

  void emitCell(Value row, Value column, Value acc, int64_t lane,
                bool rowsOverhang, bool columnsOverhang) {
    OpBuilder::InsertionGuard keep(b);
    Value inside;
    if (rowsOverhang)
      inside = less(row, rows.extent);
    if (columnsOverhang) {
      Value inColumns = less(column, columns.extent);
      inside = inside ? arith::AndIOp::create(b, loc, inside, inColumns)
                            .getResult()
                      : inColumns;
    }
    if (inside) {
      auto guard = scf::IfOp::create(b, loc, inside, false);
      b.setInsertionPoint(guard.thenBlock()->getTerminator());
    }
    IRMapping at = mapping;
    at.map(rows.freeIV, row);
    at.map(columns.freeIV, column);
    at.map(nest.reduction.getResult(0),
           vector::ExtractOp::create(b, loc, acc, lane).getResult());
    for (Operation *op : nest.epilogue)
      b.clone(*op, at);
  }

  KernelPlan &plan;
  OuterProductPlan &outer;
  const OuterProductTiling &tiling;
  ContractionNest &nest;
  OpBuilder &b;
  IRMapping &mapping;
  Location loc;
  Side rows, columns;
  Value item; ///< the work-item's number in its work-group
};

} // namespace

void tilec::emitOuterProductBody(KernelPlan &plan, OpBuilder &b,
                                 IRMapping &mapping, ValueRange tiles) {
  OuterProductEmitter(plan, b, mapping, tiles).emit();
}
