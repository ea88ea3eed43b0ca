//===- ChunkedContraction.cpp - A contraction's reduction in chunks -------===//
//
// See ChunkedContraction.h. Every loop but the one over chunks is unrolled
// in the IR by the tilings: the register tile is a set of SSA values carried
// by that loop, kept in registers by every backend, and no loop can run zero
// times (llvm#211981) or count against lavapipe's loop budget.
//
//===----------------------------------------------------------------------===//

#include "ChunkedContraction.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IntegerSet.h"

using namespace mlir;
using namespace tilec;

ChunkedContractionEmitter::ChunkedContractionEmitter(KernelPlan &plan,
                                                     OpBuilder &b,
                                                     IRMapping &mapping,
                                                     ValueRange tiles)
    : plan(plan), outer(*plan.outerProduct), tiling(outer.tiling),
      nest(outer.nest), b(b), mapping(mapping), loc(plan.root.getLoc()) {
  rows = sideOf(tiling.rows, tiles[0]);
  columns = sideOf(tiling.columns, tiles[1]);
}

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

Value ChunkedContractionEmitter::constant(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}
Value ChunkedContractionEmitter::add(Value lhs, Value rhs) {
  return arith::AddIOp::create(b, loc, lhs, rhs);
}
Value ChunkedContractionEmitter::add(Value lhs, int64_t rhs) {
  return rhs == 0 ? lhs : add(lhs, constant(rhs));
}
Value ChunkedContractionEmitter::mul(Value lhs, int64_t rhs) {
  return rhs == 1 ? lhs
                  : arith::MulIOp::create(b, loc, lhs, constant(rhs))
                        .getResult();
}
Value ChunkedContractionEmitter::div(Value lhs, int64_t rhs) {
  return rhs == 1 ? lhs
                  : arith::DivUIOp::create(b, loc, lhs, constant(rhs))
                        .getResult();
}
Value ChunkedContractionEmitter::rem(Value lhs, int64_t rhs) {
  return rhs == 1 ? constant(0)
                  : arith::RemUIOp::create(b, loc, lhs, constant(rhs))
                        .getResult();
}
Value ChunkedContractionEmitter::min(Value lhs, int64_t rhs) {
  return arith::MinUIOp::create(b, loc, lhs, constant(rhs));
}
Value ChunkedContractionEmitter::less(Value lhs, int64_t rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs,
                               constant(rhs));
}
void ChunkedContractionEmitter::barrier() { gpu::BarrierOp::create(b, loc); }

ChunkedContractionEmitter::Side
ChunkedContractionEmitter::sideOf(const OuterProductSide &sizes, Value tile) {
  Side side;
  side.sizes = &sizes;
  side.operand = &nest.operands[sizes.operand];
  side.tile = tile;
  affine::AffineForOp loop = nest.band[sizes.loop];
  side.freeIV = loop.getInductionVar();
  side.extent = loop.getConstantUpperBound();
  return side;
}

//===----------------------------------------------------------------------===//
// Where the block is
//===----------------------------------------------------------------------===//

Value ChunkedContractionEmitter::enterBlock() {
  const GridDim &x = plan.dims[0], &y = plan.dims[1], &z = plan.dims[2];
  Value tx = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value ty = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  item = add(mul(ty, x.workItems()), tx);
  columns.blockStart =
      mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), x.block);
  rows.blockStart =
      mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), y.block);
  if (!z.loops.empty())
    mapBandInductionVars(plan, z,
                         gpu::BlockIdOp::create(b, loc, gpu::Dimension::z), b,
                         mapping);
  for (Operation *op : nest.prologue)
    b.clone(*op, mapping);
  return mapping.lookupOrDefault(nest.reduction.getInits()[0]);
}

//===----------------------------------------------------------------------===//
// The operands
//===----------------------------------------------------------------------===//

IRMapping ChunkedContractionEmitter::mappingAt(const Side &side, Value free,
                                               Value k) {
  IRMapping at = mapping;
  at.map(side.freeIV, free);
  at.map(nest.innermost().getInductionVar(), k);
  // The other operand's free loop: loop-level maps take every enclosing
  // induction variable, and this operand's does not read it.
  const Side &other = &side == &rows ? columns : rows;
  at.map(other.freeIV, constant(0));
  return at;
}

SmallVector<Value> ChunkedContractionEmitter::loadIndices(const Side &side,
                                                          Value free,
                                                          Value k) {
  IRMapping at = mappingAt(side, free, k);
  affine::AffineLoadOp load = side.operand->load;
  AffineMap map = load.getAffineMap();
  SmallVector<Value> operands;
  for (Value operand : load.getMapOperands())
    operands.push_back(at.lookupOrDefault(operand));
  SmallVector<Value> indices;
  for (AffineExpr result : map.getResults())
    indices.push_back(affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(map.getNumDims(), map.getNumSymbols(), result),
        operands));
  return indices;
}

Value ChunkedContractionEmitter::guardHolds(const Side &side, Value free,
                                            Value k) {
  assert(isGuarded(side) && "the guard does not predicate this operand");
  IRMapping at = mappingAt(side, free, k);
  SmallVector<Value> operands = llvm::map_to_vector(
      nest.guard.getOperands(), [&](Value v) { return at.lookupOrDefault(v); });
  IntegerSet set = nest.guard.getIntegerSet();
  Value zero = constant(0);
  Value holds;
  for (auto [constraint, isEquality] :
       llvm::zip(set.getConstraints(), set.getEqFlags())) {
    Value value = affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(set.getNumDims(), set.getNumSymbols(), constraint),
        operands);
    Value met = arith::CmpIOp::create(
        b, loc,
        isEquality ? arith::CmpIPredicate::eq : arith::CmpIPredicate::sge,
        value, zero);
    holds = holds ? arith::AndIOp::create(b, loc, holds, met).getResult()
                  : met;
  }
  return holds ? holds : arith::ConstantIntOp::create(b, loc, 1, 1);
}

Value ChunkedContractionEmitter::operandAt(const Side &side, Value free,
                                           Value k, bool raw) {
  IRMapping at = mappingAt(side, free, k);
  if (!isGuarded(side))
    return cloneOperand(side, at, raw);
  // Taps the guard excludes read the fill value instead, which leaves the
  // aggregation as it is (OuterProductPlan.cpp).
  Value value = raw ? side.operand->load.getResult() : side.operand->value;
  auto guard = affine::AffineIfOp::create(
      b, loc, value.getType(), nest.guard.getIntegerSet(),
      llvm::map_to_vector(nest.guard.getOperands(),
                          [&](Value v) { return at.lookupOrDefault(v); }),
      /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard keep(b);
    b.setInsertionPointToStart(guard.getThenBlock());
    affine::AffineYieldOp::create(b, loc, cloneOperand(side, at, raw));
    b.setInsertionPointToStart(guard.getElseBlock());
    affine::AffineYieldOp::create(
        b, loc, arith::ConstantOp::create(b, loc, outer.fill).getResult());
  }
  return guard.getResult(0);
}

Value ChunkedContractionEmitter::cloneOperand(const Side &side, IRMapping &at,
                                              bool raw) {
  b.clone(*side.operand->load, at);
  if (raw)
    return at.lookup(side.operand->load.getResult());
  for (Operation *op : side.operand->slice)
    b.clone(*op, at);
  return at.lookup(side.operand->value);
}

//===----------------------------------------------------------------------===//
// The chunks
//===----------------------------------------------------------------------===//

SmallVector<Value>
ChunkedContractionEmitter::reduce(SmallVector<Value> accs) {
  if (tiling.pipeline)
    return reduceInStages(accs);
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
  // into the other buffer, and one barrier then makes it visible. The loop
  // loads full chunks only; a partial last one is loaded by the chunk
  // before it, peeled.
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

void ChunkedContractionEmitter::copyChunkAsync(const Side &, Value, int64_t,
                                               Value, SmallVector<Value> &) {
  llvm_unreachable("only a tiling with a pipeline copies asynchronously");
}

// With S = `pipeline` buffers, chunk c is copied into buffer c % S while
// chunk c - (S - 2) is computed: the copy of a step goes into the buffer that the
// step before last read, which every work-item has left behind at the last
// step's barrier, so one barrier per chunk suffices, and S - 2 chunks are in
// flight behind the one computed. Each step's copies are one cp.async
// group: waiting for all but the S - 2 latest (fewer near the end) leaves
// the computed chunk complete. The number of chunks is known, so the waits
// are constants; the loop covers the steps that copy a full chunk.
SmallVector<Value>
ChunkedContractionEmitter::reduceInStages(SmallVector<Value> accs) {
  int64_t extent = nest.reduction.getConstantUpperBound();
  int64_t full = extent / tiling.chunk, rest = extent % tiling.chunk;
  int64_t chunks = full + (rest ? 1 : 0);
  int64_t ahead = tiling.pipeline - 2;
  auto stepsOf = [&](int64_t chunk) {
    return chunk >= chunks ? 0 : chunk == full ? rest : tiling.chunk;
  };
  for (int64_t chunk = 0; chunk < std::min(ahead, chunks); ++chunk) {
    SmallVector<Value> tokens;
    copyChunkAsync(rows, constant(chunk * tiling.chunk), stepsOf(chunk),
                   constant(chunk), tokens);
    copyChunkAsync(columns, constant(chunk * tiling.chunk), stepsOf(chunk),
                   constant(chunk), tokens);
    finishCopies();
    if (anyCpAsync())
      nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokens);
  }
  // Steps 0 .. looped - 1 copy full chunks ahead .. ahead + looped - 1.
  int64_t looped = std::max<int64_t>(0, full - ahead);
  accs = overChunks(0, looped, accs, [&](Value start, ValueRange carried) {
    return stagedStep(start, carried, tiling.chunk, tiling.chunk, ahead);
  });
  for (int64_t chunk = looped; chunk < chunks; ++chunk) {
    int64_t issued = std::min(chunks - 1, chunk + ahead);
    accs = stagedStep(constant(chunk * tiling.chunk), accs, stepsOf(chunk),
                      stepsOf(chunk + ahead), issued - chunk);
  }
  return accs;
}

SmallVector<Value> ChunkedContractionEmitter::stagedStep(Value start,
                                                         ValueRange accs,
                                                         int64_t steps,
                                                         int64_t aheadSteps,
                                                         int64_t pending) {
  int64_t ahead = tiling.pipeline - 2;
  Value chunk = div(start, tiling.chunk);
  SmallVector<Value> tokens;
  auto copyAhead = [&] {
    if (aheadSteps <= 0)
      return;
    Value aheadStart = add(start, ahead * tiling.chunk);
    Value buffer = rem(add(chunk, ahead), tiling.pipeline);
    copyChunkAsync(rows, aheadStart, aheadSteps, buffer, tokens);
    copyChunkAsync(columns, aheadStart, aheadSteps, buffer, tokens);
  };
  if (computesAsynchronously()) {
    // The groups after this chunk's but this step's copies; no empty
    // groups, so the count is exact to the end. The buffer copied into
    // was read by the step before last, whose work every work-item waited
    // for before this step's barrier.
    int64_t before = aheadSteps > 0 ? pending - 1 : pending;
    if (anyCpAsync())
      NVVM::CpAsyncWaitGroupOp::create(b, loc, uint32_t(before));
    afterCopiesLanded();
    barrier();
    copyAhead();
    if (!tokens.empty())
      nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokens);
    SmallVector<Value> next = compute(accs, rem(chunk, tiling.pipeline), steps);
    finishCopies();
    return next;
  }
  copyAhead();
  finishCopies();
  // A group even without copies, for the wait's token. Past the last copy
  // everything is waited for: empty groups would count among the latest,
  // and the last chunks have nothing left to overlap with.
  Value group = nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokens);
  if (aheadSteps == 0)
    pending = 0;
  nvgpu::DeviceAsyncWaitOp::create(b, loc, group,
                                   b.getI32IntegerAttr(int32_t(pending)));
  barrier();
  return compute(accs, rem(chunk, tiling.pipeline), steps);
}

SmallVector<Value>
ChunkedContractionEmitter::stageAndCompute(Value start, ValueRange accs,
                                           int64_t steps) {
  stage(start, constant(0), steps);
  barrier();
  SmallVector<Value> next = compute(accs, constant(0), steps);
  barrier();
  return next;
}

void ChunkedContractionEmitter::stage(Value start, Value buffer,
                                      int64_t steps) {
  ChunkValues rowValues = loadChunk(rows, start, steps);
  ChunkValues columnValues = loadChunk(columns, start, steps);
  storeChunk(rows, rowValues, buffer);
  storeChunk(columns, columnValues, buffer);
}

/// `body` over chunks [first, last) with the register tile carried; a
/// single chunk is emitted without a loop, and none leaves `accs`.
template <typename Body>
SmallVector<Value>
ChunkedContractionEmitter::overChunks(int64_t first, int64_t last,
                                      ValueRange accs, Body body) {
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

//===----------------------------------------------------------------------===//
// The cells
//===----------------------------------------------------------------------===//

void ChunkedContractionEmitter::emitCell(Value row, Value column,
                                         Value value) {
  OpBuilder::InsertionGuard keep(b);
  Value inside;
  if (overhangs(rows))
    inside = less(row, rows.extent);
  if (overhangs(columns)) {
    Value inColumns = less(column, columns.extent);
    inside = inside
                 ? arith::AndIOp::create(b, loc, inside, inColumns).getResult()
                 : inColumns;
  }
  if (inside) {
    auto guard = scf::IfOp::create(b, loc, inside, false);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
  }
  IRMapping at = mapping;
  at.map(rows.freeIV, row);
  at.map(columns.freeIV, column);
  at.map(nest.reduction.getResult(0), value);
  for (Operation *op : nest.epilogue)
    b.clone(*op, at);
}
