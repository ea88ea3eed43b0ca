//===- StagedReduction.cpp - A reduction reading local memory -------------===//
//
// The staged form of a register reduction (see StagedReduction.h). The
// barriers sit in code every work-item of a work-group runs the same number
// of times: work-items past the end of a loop run the reduction on clamped
// indices and only skip the stores.
//
// Every loop of the reduction has a constant trip count: the full blocks
// run in one loop and a last partial block, if any, after it. The
// schedule's unroll is applied once the body is built, when the loads read
// the tiles (unrolling the host nest first would replace the loads the
// staging plan recorded), and with constant trip counts it makes no
// epilogue loop that can run zero times: MLIR's SCF-to-SPIR-V lowering
// (LLVM 22) returns undefined values from a zero-trip loop with iter_args
// (llvm/llvm-project#211981).
//
//===----------------------------------------------------------------------===//

#include "StagedReduction.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

using namespace mlir;
using namespace tilec;

namespace {

class StagedBodyBuilder {
public:
  StagedBodyBuilder(KernelPlan &plan, OpBuilder &b, IRMapping &mapping,
                    const WorkItemPlace &place)
      : plan(plan), staging(*plan.staging), b(b), mapping(mapping),
        place(place), loc(plan.root.getLoc()) {}

  void build(ValueRange tiles);

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value mul(Value lhs, int64_t rhs) {
    return rhs == 1 ? lhs : arith::MulIOp::create(b, loc, lhs, constant(rhs));
  }
  Value add(Value lhs, Value rhs) {
    return arith::AddIOp::create(b, loc, lhs, rhs);
  }
  /// An scf.for of step 1 carrying `accs`, with a body still to be filled
  /// and terminated.
  scf::ForOp emptyLoop(Value lower, Value upper, ValueRange accs) {
    return scf::ForOp::create(b, loc, lower, upper, constant(1), accs,
                              [](OpBuilder &, Location, Value, ValueRange) {});
  }
  /// The first value of a moving loop's induction variable in this block.
  Value firstValue(Value inductionVar, Value reductionStart);
  /// The first index of each dimension of `operand`'s tile.
  SmallVector<Value> tileOrigin(StagedOperand &operand, Value reductionStart);
  void emitCopy(StagedOperand &operand, ArrayRef<Value> origin, Value tile);
  void emitBlock(ValueRange tiles, Value start, int64_t length,
                 ValueRange accs, SmallVectorImpl<Value> &results);
  void emitReductionBlock(ArrayRef<SmallVector<Value>> origins,
                          ValueRange tiles, Value start, int64_t length,
                          ValueRange accs, SmallVectorImpl<Value> &results);
  void redirectLoads(ArrayRef<SmallVector<Value>> origins, ValueRange tiles,
                     IRMapping &clones);
  void unrollReduction();

  KernelPlan &plan;
  StagingPlan &staging;
  OpBuilder &b;
  IRMapping &mapping;
  const WorkItemPlace &place;
  Location loc;
  /// The loops over one block of the reduction (the full blocks', the last
  /// partial block's), once emitted.
  SmallVector<scf::ForOp, 2> reductionBlocks;
};

Value StagedBodyBuilder::firstValue(Value inductionVar, Value reductionStart) {
  affine::AffineForOp loop = staging.reduction;
  Value iteration = reductionStart;
  if (inductionVar != loop.getInductionVar()) {
    unsigned position = 0;
    while (plan.band[position].getInductionVar() != inductionVar)
      ++position;
    loop = plan.band[position];
    iteration = nullptr;
    for (unsigned d = 0; d < 3; ++d)
      if (plan.dims[d].loops.size() == 1 &&
          plan.dims[d].loops.front() == position)
        iteration = place.blockStart[d];
    if (!iteration) // a flattened loop: one value per work-group
      return mapping.lookup(inductionVar);
  }
  Value value = mul(iteration, loop.getStepAsInt());
  if (int64_t lower = loop.getConstantLowerBound(); lower != 0)
    value = add(value, constant(lower));
  return value;
}

SmallVector<Value> StagedBodyBuilder::tileOrigin(StagedOperand &operand,
                                                 Value reductionStart) {
  SmallVector<Value> origin;
  for (TileCorner &corner : operand.box) {
    Value index = constant(corner.offset);
    for (auto [inductionVar, coefficient] : corner.terms)
      index = add(index,
                  mul(firstValue(inductionVar, reductionStart), coefficient));
    origin.push_back(index);
  }
  return origin;
}

void StagedBodyBuilder::emitCopy(StagedOperand &operand,
                                 ArrayRef<Value> origin, Value tile) {
  int64_t workGroup = 1;
  for (GridDim &dim : plan.dims)
    workGroup *= dim.workItems();
  ArrayRef<int64_t> shape = operand.tileType.getShape();
  auto copy = scf::ForOp::create(b, loc, place.linearId,
                                 constant(operand.tileType.getNumElements()),
                                 constant(workGroup));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(copy.getBody()->getTerminator());
  // Cell c of the tile, row-major, and where it lies in the operand.
  Value rest = copy.getInductionVar();
  Value global = mapping.lookup(operand.memref);
  auto globalShape = cast<MemRefType>(global.getType()).getShape();
  SmallVector<Value> cell(shape.size()), source(shape.size());
  Value inside;
  for (unsigned d = shape.size(); d-- > 0;) {
    cell[d] = rest;
    if (d > 0) {
      cell[d] = arith::RemUIOp::create(b, loc, rest, constant(shape[d]));
      rest = arith::DivUIOp::create(b, loc, rest, constant(shape[d]));
    }
    source[d] = add(origin[d], cell[d]);
    // A tile may reach past the operand (padding, the last work-group).
    Value low = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                      source[d], constant(0));
    Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       source[d], constant(globalShape[d]));
    Value both = arith::AndIOp::create(b, loc, low, high);
    inside = inside ? arith::AndIOp::create(b, loc, inside, both) : both;
  }
  Type element = operand.tileType.getElementType();
  Value value;
  if (inside) {
    auto load = scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &then, Location at) {
          Value read = memref::LoadOp::create(then, at, global, source);
          scf::YieldOp::create(then, at, read);
        },
        [&](OpBuilder &otherwise, Location at) {
          Value zero = arith::ConstantOp::create(
              otherwise, at, cast<TypedAttr>(otherwise.getZeroAttr(element)));
          scf::YieldOp::create(otherwise, at, zero);
        });
    value = load.getResult(0);
  } else { // a rank-0 operand
    value = memref::LoadOp::create(b, loc, global, source);
  }
  memref::StoreOp::create(b, loc, value, tile, cell);
}

/// Makes the clones (in `clones`) of the staged operands' loads read the
/// tiles instead.
void StagedBodyBuilder::redirectLoads(ArrayRef<SmallVector<Value>> origins,
                                      ValueRange tiles, IRMapping &clones) {
  OpBuilder::InsertionGuard guard(b);
  for (auto [operand, origin, tile] :
       llvm::zip(staging.operands, origins, tiles))
    for (affine::AffineLoadOp load : operand.loads) {
      auto copy =
          cast<affine::AffineLoadOp>(clones.lookup(load.getOperation()));
      b.setInsertionPoint(copy);
      SmallVector<Value, 8> indices = *affine::expandAffineMap(
          b, copy.getLoc(), copy.getAffineMap(), copy.getMapOperands());
      for (auto [index, first] : llvm::zip(indices, origin))
        index = arith::SubIOp::create(b, copy.getLoc(), index, first);
      Value value = memref::LoadOp::create(b, copy.getLoc(), tile, indices);
      copy.getResult().replaceAllUsesWith(value);
      copy.erase();
    }
}

/// One block of `length` reduction iterations from iteration `start`: the
/// copies of the tiles, a barrier, the reduction over the tiles, and a
/// barrier, so that the next block's copy does not overwrite a tile still
/// being read.
void StagedBodyBuilder::emitBlock(ValueRange tiles, Value start,
                                  int64_t length, ValueRange accs,
                                  SmallVectorImpl<Value> &results) {
  SmallVector<SmallVector<Value>> origins;
  for (auto [operand, tile] : llvm::zip(staging.operands, tiles)) {
    origins.push_back(tileOrigin(operand, start));
    emitCopy(operand, origins.back(), tile);
  }
  gpu::BarrierOp::create(b, loc);
  emitReductionBlock(origins, tiles, start, length, accs, results);
  gpu::BarrierOp::create(b, loc);
}

void StagedBodyBuilder::emitReductionBlock(
    ArrayRef<SmallVector<Value>> origins, ValueRange tiles, Value start,
    int64_t length, ValueRange accs, SmallVectorImpl<Value> &results) {
  affine::AffineForOp reduction = staging.reduction;
  auto loop = emptyLoop(constant(0), constant(length), accs);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(loop.getBody());
  Value iv = mul(add(start, loop.getInductionVar()), reduction.getStepAsInt());
  if (int64_t lower = reduction.getConstantLowerBound(); lower != 0)
    iv = add(iv, constant(lower));
  // The body is cloned once per block loop, each time with a mapping of its
  // own: a region clone keeps the block arguments a mapping already has, so
  // a second clone through one mapping would lose its loops' arguments.
  IRMapping body = mapping;
  body.map(reduction.getInductionVar(), iv);
  body.map(reduction.getRegionIterArgs(), loop.getRegionIterArgs());
  for (Operation &op : reduction.getBody()->without_terminator())
    b.clone(op, body);
  redirectLoads(origins, tiles, body);
  Operation *yield = reduction.getBody()->getTerminator();
  b.setInsertionPointToEnd(loop.getBody());
  SmallVector<Value> yielded;
  for (Value value : yield->getOperands())
    yielded.push_back(body.lookupOrDefault(value));
  scf::YieldOp::create(b, loc, yielded);
  results.assign(loop.getResults().begin(), loop.getResults().end());
  reductionBlocks.push_back(loop);
}

/// Unrolls what an unstaged nest's unroll covers (MapKernelsToGPU's
/// unrollReductions): the innermost loops inside the work-item, which are
/// the loops the reduction nests, or else the blocks' loops themselves. Run
/// on the finished body, since an epilogue loop takes over the uses of the
/// results. A factor above a loop's trip count unrolls it fully, so that no
/// loop is left to run zero times.
void StagedBodyBuilder::unrollReduction() {
  int64_t factor = plan.schedule.unroll;
  if (factor <= 1)
    return;
  for (scf::ForOp block : reductionBlocks) {
    SmallVector<affine::AffineForOp> innermost;
    block.getBody()->walk([&](affine::AffineForOp loop) {
      bool hasInner = false;
      loop.getBody()->walk([&](affine::AffineForOp) { hasInner = true; });
      if (!hasInner)
        innermost.push_back(loop);
    });
    if (innermost.empty()) {
      int64_t trips = *getConstantIntValue(block.getUpperBound());
      (void)loopUnrollByFactor(block, uint64_t(std::min(factor, trips)));
      continue;
    }
    for (affine::AffineForOp loop : innermost) {
      std::optional<uint64_t> trips = affine::getConstantTripCount(loop);
      if (trips && *trips > 0)
        (void)affine::loopUnrollByFactor(
            loop, std::min(uint64_t(factor), *trips));
    }
  }
}

void StagedBodyBuilder::build(ValueRange tiles) {
  affine::AffineForOp reduction = staging.reduction;
  Block *body = plan.band.back().getBody();
  for (Operation &op : body->without_terminator()) {
    if (&op == reduction.getOperation())
      break;
    b.clone(op, mapping);
  }

  int64_t trips = int64_t(*affine::getConstantTripCount(reduction));
  int64_t fullBlocks = trips / staging.block;
  int64_t tail = trips % staging.block;
  SmallVector<Value> accs;
  for (Value init : reduction.getInits())
    accs.push_back(mapping.lookupOrDefault(init));
  if (fullBlocks > 0) {
    auto outer = emptyLoop(constant(0), constant(fullBlocks), accs);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(outer.getBody());
    SmallVector<Value> results;
    emitBlock(tiles, mul(outer.getInductionVar(), staging.block),
              staging.block, outer.getRegionIterArgs(), results);
    scf::YieldOp::create(b, loc, results);
    accs.assign(outer.getResults().begin(), outer.getResults().end());
  }
  if (tail > 0) {
    SmallVector<Value> results;
    emitBlock(tiles, constant(fullBlocks * staging.block), tail, accs,
              results);
    accs = std::move(results);
  }
  mapping.map(reduction.getResults(), accs);

  if (place.inBounds) {
    auto guard = scf::IfOp::create(b, loc, place.inBounds, false);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
  }
  bool after = false;
  for (Operation &op : body->without_terminator()) {
    if (after)
      b.clone(op, mapping);
    after |= &op == reduction.getOperation();
  }
  unrollReduction();
}

} // namespace

void tilec::emitStagedBody(KernelPlan &plan, OpBuilder &b, IRMapping &mapping,
                           const WorkItemPlace &place, ValueRange tiles) {
  StagedBodyBuilder(plan, b, mapping, place).build(tiles);
}
