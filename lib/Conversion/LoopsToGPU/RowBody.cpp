//===- RowBody.cpp - A row nest as one work-group per row -----------------===//
//
// See RowBody.h. The work-item's columns are unrolled (at most 64, which
// RowPlan.cpp checks), so every value of a column lives in one SSA value
// per column: a private buffer's columns are registers, and a row's inputs
// read by several steps (softmax reads L for the maximum and again for the
// exponential) are read from memory once. Columns past the end of the row
// (where the work-group's width does not divide it) are computed on the
// last column instead, harmlessly: their stores are skipped and their
// reduction terms replaced by the accumulator.
//
//===----------------------------------------------------------------------===//

#include "RowBody.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>
#include <tuple>
#include <vector>

using namespace mlir;
using namespace mlir::affine;
using namespace tilec;

namespace {

class RowBodyBuilder {
public:
  RowBodyBuilder(KernelPlan &plan, OpBuilder &b, IRMapping &mapping)
      : plan(plan), rows(*plan.rows), b(b), mapping(mapping),
        loc(plan.root.getLoc()) {}

  void build(ValueRange scratch) {
    GridDim rowDim;
    for (unsigned r = 0; r < plan.band.size(); ++r)
      rowDim.loops.push_back(r);
    mapBandInductionVars(plan, rowDim,
                         gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), b,
                         mapping);
    lane = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    emitColumns();
    unsigned reduction = 0;
    for (const RowStep &step : rows.nest.steps) {
      switch (step.kind) {
      case RowStep::Kind::Scalar:
        emitOp(step.op, -1);
        break;
      case RowStep::Kind::Columns: {
        auto loop = cast<AffineForOp>(step.op);
        for (int j = 0; j < int(columns.size()); ++j) {
          mapping.map(loop.getInductionVar(), columns[j]);
          for (Operation &op : loop.getBody()->without_terminator())
            emitOp(&op, j);
        }
        break;
      }
      case RowStep::Kind::Reduction:
        emitReduction(step, scratch[reduction++]);
        break;
      }
    }
  }

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  /// The work-item's columns, clamped into the row, and for those that
  /// may lie past its end, whether they do not.
  void emitColumns() {
    int64_t items = rows.items, length = rows.nest.columns;
    for (int64_t j = 0; j < rows.perItem; ++j) {
      Value column =
          j == 0 ? lane
                 : arith::AddIOp::create(b, loc, lane, constant(j * items))
                       .getResult();
      Value inside;
      if ((j + 1) * items > length) {
        inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       column, constant(length));
        column = arith::MinUIOp::create(b, loc, column, constant(length - 1));
      }
      columns.push_back(column);
      valid.push_back(inside);
    }
  }

  /// The constant indices after the row's of a row-scalar access.
  static std::vector<int64_t> scalarIndices(AffineMap map, unsigned rowCount) {
    std::vector<int64_t> indices;
    for (unsigned r = rowCount; r < map.getNumResults(); ++r)
      indices.push_back(cast<AffineConstantExpr>(map.getResult(r)).getValue());
    return indices;
  }

  /// Emits `op` for column j of the work-item (-1: once for the row).
  void emitOp(Operation *op, int j) {
    if (auto load = dyn_cast<AffineLoadOp>(op))
      return emitLoad(load, j);
    if (auto store = dyn_cast<AffineStoreOp>(op))
      return emitStore(store, j);
    b.clone(*op, mapping);
  }

  void emitLoad(AffineLoadOp load, int j) {
    Value memref = load.getMemRef();
    auto use = rows.nest.written.find(memref);
    if (use != rows.nest.written.end()) {
      if (use->second == RowBuffer::Columns &&
          rows.privateBuffers.count(memref)) {
        mapping.map(load.getResult(), registers[memref][j]);
        return;
      }
      if (use->second == RowBuffer::Scalar) {
        auto known = scalars.find(
            {memref.getAsOpaquePointer(),
             scalarIndices(load.getAffineMap(), plan.band.size())});
        if (known != scalars.end()) {
          mapping.map(load.getResult(), known->second);
          return;
        }
      }
      b.clone(*load, mapping);
      return;
    }
    // An input: what this work-item loaded at the same place is reused.
    std::vector<const void *> operands;
    for (Value operand : load.getMapOperands())
      operands.push_back(mapping.lookupOrDefault(operand).getAsOpaquePointer());
    InputKey key{memref.getAsOpaquePointer(),
                 load.getAffineMap().getAsOpaquePointer(), std::move(operands)};
    auto [at, inserted] = inputs.try_emplace(std::move(key));
    if (inserted)
      at->second = b.clone(*load, mapping)->getResult(0);
    mapping.map(load.getResult(), at->second);
  }

  void emitStore(AffineStoreOp store, int j) {
    Value memref = store.getMemRef();
    Value value = mapping.lookup(store.getValueToStore());
    bool isPrivate = rows.privateBuffers.count(memref);
    Value condition;
    // Every buffer the nest stores to is classified (RowNest.h).
    if (rows.nest.written.find(memref)->second == RowBuffer::Columns) {
      if (isPrivate) {
        SmallVector<Value> &values = registers[memref];
        values.resize(rows.perItem);
        values[j] = value;
        return;
      }
      condition = valid[j];
    } else {
      scalars[{memref.getAsOpaquePointer(),
               scalarIndices(store.getAffineMap(), plan.band.size())}] = value;
      if (isPrivate)
        return;
      // Every work-item has the value; one stores it.
      condition = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                        constant(0));
    }
    if (!condition) {
      b.clone(*store, mapping);
      return;
    }
    auto guard = scf::IfOp::create(b, loc, condition, false);
    OpBuilder::InsertionGuard keep(b);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
    b.clone(*store, mapping);
  }

  /// `aggregate` applied to `lhs` and `rhs`.
  Value combine(Operation *aggregate, Value lhs, Value rhs) {
    Operation *copy = b.clone(*aggregate);
    copy->setOperands({lhs, rhs});
    return copy->getResult(0);
  }

  void emitReduction(const RowStep &step, Value scratch) {
    auto loop = cast<AffineForOp>(step.op);
    Value accumulator = arith::ConstantOp::create(
        b, loc, rowReductionIdentity(step.aggregate));
    auto yield = cast<AffineYieldOp>(loop.getBody()->getTerminator());
    for (int j = 0; j < int(columns.size()); ++j) {
      mapping.map(loop.getInductionVar(), columns[j]);
      mapping.map(loop.getRegionIterArgs()[0], accumulator);
      for (Operation &op : loop.getBody()->without_terminator())
        emitOp(&op, j);
      Value next = mapping.lookup(yield.getOperand(0));
      accumulator = valid[j] ? arith::SelectOp::create(b, loc, valid[j], next,
                                                       accumulator)
                                   .getResult()
                             : next;
    }
    Value total =
        rows.shuffleLanes && accumulator.getType().getIntOrFloatBitWidth() == 32
            ? reduceByShuffles(step, accumulator, scratch)
            : reduceInTree(step, accumulator, scratch);
    Value start = mapping.lookupOrDefault(loop.getInits()[0]);
    mapping.map(loop.getResult(0), combine(step.aggregate, start, total));
  }

  /// The butterfly of `value` over `lanes` neighbouring lanes (a power of
  /// two up to the warp): every lane ends with all of theirs combined.
  Value butterfly(const RowStep &step, Value value, int64_t lanes) {
    for (int64_t offset = lanes / 2; offset >= 1; offset /= 2) {
      Value theirs = gpu::ShuffleOp::create(
                         b, loc, value, int32Constant(offset),
                         int32Constant(rows.shuffleLanes),
                         gpu::ShuffleMode::XOR)
                         .getShuffleResult();
      value = combine(step.aggregate, value, theirs);
    }
    return value;
  }

  Value int32Constant(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, value, 32);
  }

  /// The work-group's reduction by shuffles within each warp, then (for
  /// several warps) one partial per warp through `scratch` and one
  /// barrier, and the partials by shuffles again in every warp; every
  /// work-item ends with the total.
  Value reduceByShuffles(const RowStep &step, Value accumulator,
                         Value scratch) {
    int64_t warp = rows.shuffleLanes;
    Value total = butterfly(step, accumulator, warp);
    int64_t warps = rows.items / warp;
    if (warps == 1)
      return total;
    Value inWarp = arith::RemUIOp::create(b, loc, lane, constant(warp));
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        inWarp, constant(0));
    auto leader = scf::IfOp::create(b, loc, first, false);
    {
      OpBuilder::InsertionGuard keep(b);
      b.setInsertionPoint(leader.thenBlock()->getTerminator());
      Value which = arith::DivUIOp::create(b, loc, lane, constant(warp));
      memref::StoreOp::create(b, loc, total, scratch, ValueRange{which});
    }
    gpu::BarrierOp::create(b, loc);
    // Lane l takes partial l % warps: every aligned run of `warps` lanes
    // holds all of them, so its butterfly gives each lane the total.
    Value slot = arith::RemUIOp::create(b, loc, inWarp, constant(warps));
    Value partial = memref::LoadOp::create(b, loc, scratch, ValueRange{slot});
    return butterfly(step, partial, warps);
  }

  /// The work-group's reduction as a tree in `scratch`, halved per level
  /// with a barrier between levels.
  Value reduceInTree(const RowStep &step, Value accumulator, Value scratch) {
    memref::StoreOp::create(b, loc, accumulator, scratch, ValueRange{lane});
    gpu::BarrierOp::create(b, loc);
    for (int64_t half = rows.items / 2; half >= 1; half /= 2) {
      Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           lane, constant(half));
      auto level = scf::IfOp::create(b, loc, active, false);
      {
        OpBuilder::InsertionGuard keep(b);
        b.setInsertionPoint(level.thenBlock()->getTerminator());
        Value partner = arith::AddIOp::create(b, loc, lane, constant(half));
        Value mine = memref::LoadOp::create(b, loc, scratch, ValueRange{lane});
        Value theirs =
            memref::LoadOp::create(b, loc, scratch, ValueRange{partner});
        memref::StoreOp::create(b, loc, combine(step.aggregate, mine, theirs),
                                scratch, ValueRange{lane});
      }
      gpu::BarrierOp::create(b, loc);
    }
    return memref::LoadOp::create(b, loc, scratch, ValueRange{constant(0)});
  }

  KernelPlan &plan;
  RowPlan &rows;
  OpBuilder &b;
  IRMapping &mapping;
  Location loc;
  Value lane;
  /// Per column of the work-item: its index in the row (clamped), and
  /// whether it lies inside the row (null: always).
  SmallVector<Value> columns, valid;
  /// A private column buffer's value per column of the work-item.
  llvm::DenseMap<Value, SmallVector<Value>> registers;
  /// The last value stored to a row scalar, by buffer and indices.
  std::map<std::pair<void *, std::vector<int64_t>>, Value> scalars;
  /// Inputs loaded, by buffer, map and (mapped) operands.
  using InputKey =
      std::tuple<const void *, const void *, std::vector<const void *>>;
  std::map<InputKey, Value> inputs;
};

} // namespace

void tilec::emitRowBody(KernelPlan &plan, OpBuilder &b, IRMapping &mapping,
                        ValueRange scratch) {
  RowBodyBuilder(plan, b, mapping).build(scratch);
}
