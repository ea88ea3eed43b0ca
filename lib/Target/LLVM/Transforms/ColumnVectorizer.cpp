//===- ColumnVectorizer.cpp - A row's columns loop on SIMD lanes ----------===//
//
// See ColumnVectorizer.h.
//
//===----------------------------------------------------------------------===//

#include "ColumnVectorizer.h"
#include "UniformDivision.h"

#include "tilec/Dialect/Kernel/Analysis/KernelNest.h"
#include "tilec/Schedule/CPUDefaultSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::affine;
using namespace tilec;
using namespace tilec::transforms;

namespace {

/// What vector.reduction calls `aggregate`'s way of combining, if it has one.
std::optional<vector::CombiningKind> combiningKind(Operation *aggregate) {
  using Kind = vector::CombiningKind;
  return llvm::TypeSwitch<Operation *, std::optional<Kind>>(aggregate)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return Kind::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return Kind::MUL; })
      .Case<arith::MaxNumFOp>([](auto) { return Kind::MAXNUMF; })
      .Case<arith::MinNumFOp>([](auto) { return Kind::MINNUMF; })
      .Case<arith::MaximumFOp>([](auto) { return Kind::MAXIMUMF; })
      .Case<arith::MinimumFOp>([](auto) { return Kind::MINIMUMF; })
      .Case<arith::MaxSIOp>([](auto) { return Kind::MAXSI; })
      .Case<arith::MinSIOp>([](auto) { return Kind::MINSI; })
      .Case<arith::MaxUIOp>([](auto) { return Kind::MAXUI; })
      .Case<arith::MinUIOp>([](auto) { return Kind::MINUI; })
      .Case<arith::AndIOp>([](auto) { return Kind::AND; })
      .Case<arith::OrIOp>([](auto) { return Kind::OR; })
      .Case<arith::XOrIOp>([](auto) { return Kind::XOR; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Element types held in vectors: i1 only as a comparison's result (its
/// memory form is not one bit per lane), index never (no fixed width).
bool isLaneType(Type type, bool inMemory) {
  if (isa<FloatType>(type))
    return true;
  if (!type.isSignlessInteger())
    return false;
  return type.getIntOrFloatBitWidth() >= 8 ||
         (!inMemory && type.getIntOrFloatBitWidth() == 1);
}

/// Whether the access of `map` over `operands` walks the last dimension of
/// a contiguous `memref` one element per column `iv`, and no other.
bool contiguousAlong(AffineMap map, ValueRange operands, Value iv,
                     MemRefType memref) {
  if (!memref.getLayout().isIdentity() || map.getNumResults() == 0)
    return false;
  std::optional<SmallVector<int64_t>> strides = laneStrides(map, operands, iv);
  return strides && strides->back() == 1 &&
         llvm::all_of(ArrayRef(*strides).drop_back(),
                      [](int64_t stride) { return stride == 0; });
}

bool movesWith(ValueRange operands, Value iv) {
  return llvm::is_contained(operands, iv);
}

/// The values of `loop`'s body that differ between columns, and the widest
/// element among them in bits; std::nullopt when some op cannot be given
/// lanes.
struct Varying {
  llvm::DenseSet<Value> values;
  unsigned widestBits = 0;
  /// Divisions of a varying value by one defined before the loop.
  SmallVector<arith::DivFOp> uniformDivisions;
};

std::optional<Varying> findVarying(AffineForOp loop) {
  Varying varying;
  varying.values.insert(loop.getInductionVar());
  for (Value accumulator : loop.getRegionIterArgs())
    varying.values.insert(accumulator);
  auto note = [&](Type type) {
    if (type.getIntOrFloatBitWidth() > 1)
      varying.widestBits =
          std::max(varying.widestBits, type.getIntOrFloatBitWidth());
  };
  Value iv = loop.getInductionVar();
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto load = dyn_cast<AffineLoadOp>(op)) {
      if (!movesWith(load.getMapOperands(), iv))
        continue;
      if (!contiguousAlong(load.getAffineMap(), load.getMapOperands(), iv,
                           load.getMemRefType()) ||
          !isLaneType(load.getType(), /*inMemory=*/true))
        return std::nullopt;
      note(load.getType());
      varying.values.insert(load.getResult());
      continue;
    }
    if (auto store = dyn_cast<AffineStoreOp>(op)) {
      Type type = store.getValueToStore().getType();
      if (!contiguousAlong(store.getAffineMap(), store.getMapOperands(), iv,
                           store.getMemRefType()) ||
          !isLaneType(type, /*inMemory=*/true))
        return std::nullopt;
      note(type);
      continue;
    }
    bool moves = llvm::any_of(op.getOperands(), [&](Value operand) {
      return varying.values.contains(operand);
    });
    if (!moves)
      continue; // the same for every column: stays scalar
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op) ||
        !op.hasTrait<OpTrait::Elementwise>() ||
        !op.hasTrait<OpTrait::Vectorizable>() || op.getNumResults() != 1)
      return std::nullopt;
    for (Type type : llvm::concat<const Type>(op.getOperandTypes(),
                                              op.getResultTypes())) {
      if (!isLaneType(type, /*inMemory=*/false))
        return std::nullopt;
      note(type);
    }
    varying.values.insert(op.getResult(0));
    if (auto division = dyn_cast<arith::DivFOp>(op);
        division && hasReciprocalForm(division) &&
        division.getRhs().getParentRegion() != &loop.getRegion())
      varying.uniformDivisions.push_back(division);
  }
  return varying;
}

/// Moves the ops of `loop`'s body that are the same in every iteration
/// before it: pure ops and loads of buffers the loop does not store to, of
/// values defined outside it (a row's scalar and what is computed from it).
void hoistInvariants(AffineForOp loop) {
  llvm::SmallPtrSet<Value, 4> stored;
  loop.walk([&](AffineStoreOp store) { stored.insert(store.getMemRef()); });
  for (Operation &op :
       llvm::make_early_inc_range(loop.getBody()->without_terminator())) {
    bool invariant = llvm::none_of(op.getOperands(), [&](Value operand) {
      return operand.getParentRegion() == &loop.getRegion();
    });
    auto load = dyn_cast<AffineLoadOp>(op);
    bool movable = op.getNumRegions() == 0 &&
                   (isMemoryEffectFree(&op) ||
                    (load && !stored.contains(load.getMemRef())));
    if (invariant && movable)
      op.moveBefore(loop);
  }
}

/// Emits copies of a columns loop's body for columns `column`,
/// `column + lanes`, ... with vectors for the varying values.
class LaneBodyEmitter {
public:
  /// With `reciprocals`, the uniform divisions multiply (UniformDivision.h)
  /// and `inexact` collects whether they may be off.
  LaneBodyEmitter(AffineForOp loop, const Varying &varying, int64_t lanes,
                  OpBuilder &b, const Reciprocals *reciprocals,
                  Value *inexact)
      : loop(loop), varying(varying), lanes(lanes), b(b),
        reciprocals(reciprocals), inexact(inexact) {}

  /// One copy of the body at first column `column`, its accumulator (if
  /// any) `accumulator`; returns the yielded value, if any.
  Value emit(Value column, Value accumulator) {
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), column);
    if (accumulator)
      mapping.map(loop.getRegionIterArgs()[0], accumulator);
    llvm::DenseMap<Value, Value> broadcasts;
    for (Operation &op : loop.getBody()->without_terminator())
      emitOp(op, mapping, broadcasts);
    auto yield = cast<AffineYieldOp>(loop.getBody()->getTerminator());
    return yield.getNumOperands() ? mapping.lookup(yield.getOperand(0))
                                  : Value();
  }

  VectorType vectorOf(Type element) const {
    return VectorType::get({lanes}, element);
  }

private:
  Value asVector(Value value, llvm::DenseMap<Value, Value> &broadcasts) {
    if (isa<VectorType>(value.getType()))
      return value;
    Value &wide = broadcasts[value];
    if (!wide)
      wide = vector::BroadcastOp::create(b, value.getLoc(),
                                         vectorOf(value.getType()), value);
    return wide;
  }

  void emitOp(Operation &op, IRMapping &mapping,
              llvm::DenseMap<Value, Value> &broadcasts) {
    Location loc = op.getLoc();
    auto mapped = [&](ValueRange values) {
      return llvm::to_vector(llvm::map_range(
          values, [&](Value v) { return mapping.lookupOrDefault(v); }));
    };
    if (auto load = dyn_cast<AffineLoadOp>(op);
        load && varying.values.contains(load.getResult())) {
      Value vector = AffineVectorLoadOp::create(
          b, loc, vectorOf(load.getType()), load.getMemRef(),
          load.getAffineMap(), mapped(load.getMapOperands()));
      mapping.map(load.getResult(), vector);
      return;
    }
    if (auto store = dyn_cast<AffineStoreOp>(op)) {
      AffineVectorStoreOp::create(
          b, loc, asVector(mapping.lookupOrDefault(store.getValueToStore()),
                           broadcasts),
          store.getMemRef(), store.getAffineMap(),
          mapped(store.getMapOperands()));
      return;
    }
    if (op.getNumResults() != 1 || !varying.values.contains(op.getResult(0))) {
      b.clone(op, mapping);
      return;
    }
    if (auto division = dyn_cast<arith::DivFOp>(op);
        division && reciprocals && reciprocals->of.count(division.getRhs())) {
      mapping.map(division.getResult(),
                  multiplyByReciprocal(
                      b, division,
                      asVector(mapping.lookupOrDefault(division.getLhs()),
                               broadcasts),
                      reciprocals->of.lookup(division.getRhs()), *inexact));
      return;
    }
    IRMapping operands;
    for (Value operand : op.getOperands())
      operands.map(operand,
                   asVector(mapping.lookupOrDefault(operand), broadcasts));
    Operation *copy = b.clone(op, operands);
    copy->getResult(0).setType(vectorOf(op.getResult(0).getType()));
    mapping.map(op.getResult(0), copy->getResult(0));
  }

  AffineForOp loop;
  const Varying &varying;
  int64_t lanes;
  OpBuilder &b;
  const Reciprocals *reciprocals;
  Value *inexact;
};

/// `aggregate` applied to `lhs` and `rhs` (of one type, scalar or vector).
Value combine(OpBuilder &b, Operation *aggregate, Value lhs, Value rhs) {
  IRMapping operands;
  operands.map(aggregate->getOperand(0), lhs);
  operands.map(aggregate->getOperand(1), rhs);
  Operation *copy = b.clone(*aggregate, operands);
  copy->getResult(0).setType(lhs.getType());
  return copy->getResult(0);
}

/// How the vector loops of one columns loop are made.
struct VectorLoops {
  AffineForOp loop;
  Operation *aggregate; ///< the reduction's, or null
  const Varying &varying;
  int64_t lanes;
  /// With reciprocals, the uniform divisions multiply, and `inexact` (i1)
  /// says after the loops whether any product may be off.
  const Reciprocals *reciprocals = nullptr;
  Value inexact;
};

/// The vector loop over columns [begin, end) (a multiple of `chunks *
/// lanes` columns), `chunks` vectors per iteration; for a reduction, one
/// accumulator per chunk, folded into `accumulator` at the end. Returns the
/// reduction's value after it.
Value emitVectorLoop(OpBuilder &b, VectorLoops &how, int64_t chunks,
                     int64_t begin, int64_t end, Value accumulator) {
  Location loc = how.loop.getLoc();
  Value inexact;
  LaneBodyEmitter emitter(how.loop, how.varying, how.lanes, b,
                          how.reciprocals, &inexact);
  SmallVector<Value> inits;
  if (how.aggregate) {
    Type element = accumulator.getType();
    Value identity =
        arith::ConstantOp::create(b, loc, rowReductionIdentity(how.aggregate));
    Value wide = vector::BroadcastOp::create(b, loc, emitter.vectorOf(element),
                                             identity);
    inits.assign(chunks, wide);
  }
  if (how.reciprocals)
    inits.push_back(how.inexact);
  auto vectorLoop =
      AffineForOp::create(b, loc, begin, end, chunks * how.lanes, inits);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(vectorLoop.getBody());
    if (how.reciprocals)
      inexact = vectorLoop.getRegionIterArgs().back();
    Value first = vectorLoop.getInductionVar();
    SmallVector<Value> yields;
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      Value column = first;
      if (chunk > 0) {
        AffineExpr d0 = b.getAffineDimExpr(0);
        column = AffineApplyOp::create(
            b, loc, AffineMap::get(1, 0, d0 + chunk * how.lanes), first);
      }
      Value yielded = emitter.emit(
          column,
          how.aggregate ? vectorLoop.getRegionIterArgs()[chunk] : Value());
      if (how.aggregate)
        yields.push_back(yielded);
    }
    if (how.reciprocals)
      yields.push_back(inexact);
    if (!yields.empty())
      AffineYieldOp::create(b, loc, yields);
  }
  if (how.reciprocals)
    how.inexact = vectorLoop.getResults().back();
  if (!how.aggregate)
    return {};
  SmallVector<Value> partial(vectorLoop.getResults().take_front(chunks));
  while (partial.size() > 1) {
    SmallVector<Value> halved;
    for (size_t i = 0; i + 1 < partial.size(); i += 2)
      halved.push_back(combine(b, how.aggregate, partial[i], partial[i + 1]));
    if (partial.size() % 2)
      halved.push_back(partial.back());
    partial = std::move(halved);
  }
  Value reduced = vector::ReductionOp::create(
      b, loc, *combiningKind(how.aggregate), partial.front());
  return combine(b, how.aggregate, accumulator, reduced);
}

/// The vector loops of `how` over as many whole vectors of the columns as
/// there are: groups of `accumulators` vectors, then single vectors (a
/// reduction's chunks cannot share one accumulator without a dependence
/// chain). Returns the reduction's value after them (from `accumulator`)
/// and sets `end` to the first column they leave.
Value emitVectorLoops(OpBuilder &b, VectorLoops &how, int64_t accumulators,
                      Value accumulator, int64_t &end) {
  int64_t columns = how.loop.getConstantUpperBound();
  SmallVector<int64_t, 2> chunkCounts{how.aggregate ? accumulators : 1};
  if (chunkCounts.front() > 1)
    chunkCounts.push_back(1);
  end = 0;
  for (int64_t chunks : chunkCounts) {
    int64_t step = chunks * how.lanes;
    int64_t last = end + (columns - end) / step * step;
    if (last == end)
      continue;
    accumulator = emitVectorLoop(b, how, chunks, end, last, accumulator);
    end = last;
  }
  return accumulator;
}

} // namespace

std::optional<int64_t>
tilec::transforms::columnLanes(AffineForOp loop, Operation *aggregate,
                               int64_t vectorBytes) {
  if (aggregate && !combiningKind(aggregate))
    return std::nullopt;
  std::optional<Varying> varying = findVarying(loop);
  if (!varying)
    return std::nullopt;
  unsigned bits = varying->widestBits ? varying->widestBits : 32;
  int64_t lanes = vectorBytes * 8 / bits;
  if (lanes < 2)
    return std::nullopt;
  return lanes;
}

int64_t tilec::transforms::vectorBytesOrHost(int64_t option) {
  return option > 0 ? option : schedule::hostCPUFacts().vectorBytes;
}

AffineForOp tilec::transforms::columnsLoopOf(const RowStep &step) {
  return step.kind == RowStep::Kind::Scalar ? AffineForOp()
                                            : cast<AffineForOp>(step.op);
}

bool tilec::transforms::rowNestVectorizes(const RowNest &nest,
                                          int64_t vectorBytes) {
  return llvm::all_of(nest.steps, [&](const RowStep &step) {
    AffineForOp loop = columnsLoopOf(step);
    return !loop || columnLanes(loop, step.aggregate, vectorBytes);
  });
}

void tilec::transforms::vectorizeColumns(AffineForOp loop,
                                         Operation *aggregate, int64_t lanes,
                                         int64_t accumulators) {
  hoistInvariants(loop);
  std::optional<Varying> varying = findVarying(loop);
  assert(varying && "vectorizeColumns needs columnLanes first");
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value accumulator = aggregate ? loop.getInits()[0] : Value();
  VectorLoops exact{loop, aggregate, *varying, lanes, nullptr, Value()};
  int64_t begin = 0;
  if (varying->uniformDivisions.empty()) {
    accumulator = emitVectorLoops(b, exact, accumulators, accumulator, begin);
  } else {
    // With reciprocals first; again with divisions where that may be off.
    Reciprocals reciprocals =
        buildReciprocals(b, loc, varying->uniformDivisions);
    VectorLoops fast = exact;
    fast.reciprocals = &reciprocals;
    fast.inexact = arith::ConstantIntOp::create(b, loc, 0, 1);
    Value fastResult =
        emitVectorLoops(b, fast, accumulators, accumulator, begin);
    Value divide = arith::OrIOp::create(
        b, loc,
        arith::XOrIOp::create(b, loc, reciprocals.allNormal,
                              arith::ConstantIntOp::create(b, loc, 1, 1)),
        fast.inexact);
    SmallVector<Type, 1> results;
    if (aggregate)
      results.push_back(accumulator.getType());
    auto again = scf::IfOp::create(b, loc, results, divide,
                                   /*addThenBlock=*/true,
                                   /*addElseBlock=*/bool(aggregate));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(again.thenBlock());
      int64_t end = 0;
      Value exactResult =
          emitVectorLoops(b, exact, accumulators, accumulator, end);
      scf::YieldOp::create(b, loc, aggregate ? ValueRange(exactResult)
                                             : ValueRange());
      if (aggregate) {
        b.setInsertionPointToStart(again.elseBlock());
        scf::YieldOp::create(b, loc, fastResult);
      }
    }
    if (aggregate)
      accumulator = again.getResult(0);
  }
  int64_t columns = loop.getConstantUpperBound();
  if (begin == 0)
    return; // fewer columns than one vector: the scalar loop as it is
  if (begin < columns) {
    auto rest = cast<AffineForOp>(b.clone(*loop));
    rest.setLowerBound({}, b.getConstantAffineMap(begin));
    if (aggregate)
      rest.getInitsMutable()[0].assign(accumulator);
    accumulator = aggregate ? rest.getResult(0) : Value();
  }
  if (aggregate)
    loop.getResult(0).replaceAllUsesWith(accumulator);
  loop.erase();
}
