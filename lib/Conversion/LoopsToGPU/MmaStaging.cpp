//===- MmaStaging.cpp - Staging 16-bit tiles for tensor cores -------------===//
//
// See MmaStaging.h.
//
//===----------------------------------------------------------------------===//

#include "MmaStaging.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tilec;

MmaStagingEmitter::MmaStagingEmitter(KernelPlan &plan, OpBuilder &b,
                                     IRMapping &mapping, ValueRange tiles)
    : ChunkedContractionEmitter(plan, b, mapping, tiles) {
  element = nest.operands[0].load.getResult().getType();
}

/// Whether `side`'s copies are whole vector loads: the operand is
/// contiguous along the tile's lines (along the reduction, in aligned runs
/// of 8) and a vector never straddles the end of them.
bool MmaStagingEmitter::loadsVectors(const Side &side) const {
  if (loadsAlongFree(side))
    return side.operand->contiguousAlongFree &&
           side.extent % tiling.vector == 0;
  // (Runs of 8 along the reduction hold any vector of 1, 2, 4 or 8.)
  return side.operand->alignedRunsAlongReduction &&
         nest.reduction.getConstantUpperBound() % tiling.vector == 0;
}

/// Where the vector at element `along` of line `line` of chunk `chunkStart`
/// starts in the operand, kept inside it, and (when the chunk holds `steps`
/// < chunk iterations) whether it is in the reduction, for an operand
/// loaded as vectors (loadsVectors).
MmaStagingEmitter::SlotSource
MmaStagingEmitter::slotSource(const Side &side, Value chunkStart,
                              int64_t steps, Value line, Value along) {
  int64_t extentK = nest.reduction.getConstantUpperBound();
  Value free, k, inside;
  if (loadsAlongFree(side)) {
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
  SmallVector<Value> indices = loadIndices(side, free, k);
  if (!isGuarded(side))
    return {indices, inside};
  // A guarded tap (a padded window's, along the reduction: the guard is
  // the same for the vector, ContractionShape::mmaInput) is skipped, read
  // at the operand's first element so that its address stays inside it.
  Value holds = guardHolds(side, free, k);
  for (Value &index : indices)
    index = arith::SelectOp::create(b, loc, holds, index, constant(0));
  inside = inside ? arith::AndIOp::create(b, loc, inside, holds).getResult()
                  : holds;
  return {indices, inside};
}

/// The vector of slot (`line`, `position`) of chunk `chunkStart`, of which
/// `steps` iterations are in the reduction.
Value MmaStagingEmitter::loadSlot(const Side &side, Value chunkStart,
                                  int64_t steps, Value line, Value position) {
  int64_t extentK = nest.reduction.getConstantUpperBound();
  Value along = mul(position, tiling.vector);
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(slotType(), b.getZeroAttr(element)));
  if (loadsVectors(side)) {
    SlotSource source = slotSource(side, chunkStart, steps, line, along);
    int64_t aligned = loadsAlongFree(side)
                          ? side.operand->alignedElements
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
    Value free = loadsAlongFree(side) ? add(along, i) : line;
    Value kInChunk = loadsAlongFree(side) ? line : add(along, i);
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

/// Neighbouring work-items take neighbouring vectors of a line, except on a
/// transposed side, where they take one vector of neighbouring lines (k):
/// their element stores then fall in rows at the same place and in
/// distinct pieces of the swizzle, distinct banks.
std::pair<Value, Value> MmaStagingEmitter::slotPlace(const Side &side,
                                                     Value slot) {
  if (transposed(side))
    return {rem(slot, lines(side)), div(slot, lines(side))};
  int64_t perLine = lineLength(side) / tiling.vector;
  return {div(slot, perLine), rem(slot, perLine)};
}

/// `body(line, position)` for each slot of the work-item, round by round;
/// slots past the tile in a partial last round take the last one again (a
/// load or copy may repeat it; storeChunk guards its stores).
template <typename Body>
void MmaStagingEmitter::forEachSlot(const Side &side, Body body) {
  auto [count, partial] = rounds(side);
  for (int64_t round = 0; round < count; ++round) {
    Value slot = slotOf(round);
    if (partial && round + 1 == count)
      slot = min(slot, slots(side) - 1);
    auto [line, position] = slotPlace(side, slot);
    body(line, position);
  }
}

template <typename Body>
void MmaStagingEmitter::forEachStoredSlot(const Side &side, Body body) {
  auto [count, partial] = rounds(side);
  for (int64_t round = 0; round < count; ++round) {
    Value slot = slotOf(round);
    OpBuilder::InsertionGuard keep(b);
    if (partial && round + 1 == count) {
      auto guard = scf::IfOp::create(b, loc, less(slot, slots(side)), false);
      b.setInsertionPoint(guard.thenBlock()->getTerminator());
    }
    body(slot, round);
  }
}

MmaStagingEmitter::ChunkValues
MmaStagingEmitter::loadChunk(const Side &side, Value chunkStart,
                             int64_t steps) {
  ChunkValues values;
  forEachSlot(side, [&](Value line, Value position) {
    values.push_back(loadSlot(side, chunkStart, steps, line, position));
  });
  return values;
}

/// One 16-byte cp.async per slot, bypassing L1 (the tiles are read once per
/// work-group); a slot past the reduction copies nothing and is
/// zero-filled. A repeated last slot copies the same bytes to the same
/// place.
void MmaStagingEmitter::copyChunkAsync(const Side &side, Value chunkStart,
                                       int64_t steps, Value buffer,
                                       SmallVector<Value> &tokens) {
  if (transposed(side)) {
    pending.push_back({&side, loadChunk(side, chunkStart, steps), buffer});
    return;
  }
  forEachSlot(side, [&](Value line, Value position) {
    Value along = mul(position, tiling.vector);
    SlotSource source = slotSource(side, chunkStart, steps, line, along);
    Value copied;
    if (source.inside)
      copied = arith::SelectOp::create(b, loc, source.inside,
                                       constant(tiling.vector), constant(0));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, side.tile, tileIndices(side, buffer, line, along),
        memrefOf(side), source.indices, b.getIndexAttr(tiling.vector), copied,
        b.getUnitAttr()));
  });
}

void MmaStagingEmitter::storeChunk(const Side &side, const ChunkValues &values,
                                   Value buffer) {
  if (transposed(side))
    return storeTransposed(side, values, buffer);
  forEachStoredSlot(side, [&](Value slot, int64_t round) {
    auto [line, position] = slotPlace(side, slot);
    Value along = mul(position, tiling.vector);
    vector::StoreOp::create(b, loc, values[round], side.tile,
                            tileIndices(side, buffer, line, along),
                            /*nontemporal=*/false,
                            llvm::Align(tiling.vector * elementBytes(element)));
  });
}

/// Each element of a vector along the free loop at reduction iteration k
/// goes to its own line of the tile, at k.
void MmaStagingEmitter::storeTransposed(const Side &side,
                                        const ChunkValues &values,
                                        Value buffer) {
  forEachStoredSlot(side, [&](Value slot, int64_t round) {
    auto [k, position] = slotPlace(side, slot);
    Value firstFree = mul(position, tiling.vector);
    for (int64_t e = 0; e < tiling.vector; ++e) {
      SmallVector<Value> indices =
          tileIndices(side, buffer, add(firstFree, e), k);
      indices.back() = add(indices.back(), rem(k, tiling.vector));
      Value scalar = vector::ExtractOp::create(b, loc, values[round], e);
      memref::StoreOp::create(b, loc, scalar, side.tile, indices);
    }
  });
}

void MmaStagingEmitter::finishCopies() {
  for (PendingCopy &copy : pending)
    storeTransposed(*copy.side, copy.values, copy.buffer);
  pending.clear();
}
