//===- VectorBody.cpp - A kernel body computing vectors along x -----------===//
//
// See VectorBody.h. A value of the body that differs between the lanes (the
// x iterations a work-item computes at once) is held "wide": as one vector,
// as one scalar per lane, or both, each form made from the other on demand
// right after its definition so that it dominates every use. A value the
// lanes share stays a plain scalar in the IRMapping. Each op takes the
// cheapest form its operands allow, and falls back to one clone per lane,
// which is always correct because the band's iterations are independent.
//
//===----------------------------------------------------------------------===//

#include "VectorBody.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Element types both GPU targets compute in vectors: the OpenCL emitter
/// computes f16 and bf16 in float from 16-bit storage and has no bool
/// vectors, and index has no fixed width.
bool isVectorElement(Type type) {
  if (type.isF32() || type.isF64())
    return true;
  if (!type.isSignlessInteger())
    return false;
  unsigned width = type.getIntOrFloatBitWidth();
  return width == 8 || width == 16 || width == 32 || width == 64;
}

/// Element-wise ops computed on vectors as they are: each has the same
/// meaning per lane, and OpenCL C (builtins and operators) and SPIR-V (core
/// and GLSL.std.450 instructions) both take vectors for it.
bool isVectorisableOp(Operation &op) {
  if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::NegFOp, arith::AddIOp,
           arith::SubIOp, arith::MulIOp, arith::AndIOp, arith::OrIOp,
           arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp, math::ExpOp,
           math::LogOp, math::SqrtOp, math::RsqrtOp, math::TanhOp,
           math::SinOp, math::CosOp, math::AbsFOp, math::FloorOp,
           math::CeilOp>(op))
    return false;
  auto scalar = [](Type type) { return isVectorElement(type); };
  return llvm::all_of(op.getOperandTypes(), scalar) &&
         llvm::all_of(op.getResultTypes(), scalar);
}

/// Whether `op`'s access walks its memref's innermost dimension one element
/// per x iteration (+1) or not at all (0); std::nullopt otherwise.
std::optional<int64_t> innermostStride(AffineMap map, ValueRange operands,
                                       Value xIv, int64_t step) {
  MLIRContext *context = map.getContext();
  SmallVector<AffineExpr> dims, symbols;
  for (unsigned i = 0; i < map.getNumDims(); ++i)
    dims.push_back(getAffineDimExpr(i, context));
  for (unsigned i = 0; i < map.getNumSymbols(); ++i)
    symbols.push_back(getAffineSymbolExpr(i, context));
  for (auto [i, operand] : llvm::enumerate(operands)) {
    if (operand != xIv)
      continue;
    if (i < map.getNumDims())
      dims[i] = dims[i] + step;
    else
      symbols[i - map.getNumDims()] = symbols[i - map.getNumDims()] + step;
  }
  AffineMap shifted = map.replaceDimsAndSymbols(dims, symbols, map.getNumDims(),
                                                map.getNumSymbols());
  int64_t innermost = 0;
  for (unsigned k = 0; k < map.getNumResults(); ++k) {
    AffineExpr difference = simplifyAffineExpr(
        shifted.getResult(k) - map.getResult(k), map.getNumDims(),
        map.getNumSymbols());
    auto constant = dyn_cast<AffineConstantExpr>(difference);
    if (!constant)
      return std::nullopt;
    bool isLast = k + 1 == map.getNumResults();
    if (!isLast && constant.getValue() != 0)
      return std::nullopt;
    if (isLast)
      innermost = constant.getValue();
  }
  if (innermost != 0 && innermost != 1)
    return std::nullopt;
  return innermost;
}

class VectorBodyBuilder {
public:
  VectorBodyBuilder(affine::AffineForOp xLoop, int64_t width, OpBuilder &b,
                    IRMapping &mapping)
      : xIv(xLoop.getInductionVar()), step(xLoop.getStepAsInt()),
        width(width), b(b), mapping(mapping) {
    wide[xIv] = {};
  }

  void emitBlock(Block &body) {
    findVarying(body);
    emitOps(body);
  }

private:
  /// A value that differs between lanes, in whichever forms exist yet.
  struct Wide {
    Value vector;
    SmallVector<Value> lanes;
  };

  void findVarying(Block &body);
  void emitOps(Block &body) {
    for (Operation &op : body.without_terminator())
      emitOp(op);
  }
  void emitOp(Operation &op);
  void emitLoop(affine::AffineForOp loop);
  void emitLoad(affine::AffineLoadOp load);
  void emitStore(affine::AffineStoreOp store);
  void emitElementwise(Operation &op);
  void emitPerLane(Operation &op);

  bool isWide(Value value) const { return wide.contains(value); }
  /// Whether `op` reads a wide value, directly or inside its regions.
  bool readsWide(Operation &op) {
    llvm::SetVector<Value> used(op.operand_begin(), op.operand_end());
    for (Region &region : op.getRegions())
      getUsedValuesDefinedAbove(region, used);
    return llvm::any_of(used, [&](Value value) { return isWide(value); });
  }
  Value lane(Value value, int64_t index);
  Value vectorOf(Value value);
  VectorType vectorType(Type element) {
    return VectorType::get({width}, element);
  }

  Value xIv;
  int64_t step;
  int64_t width;
  OpBuilder &b;
  IRMapping &mapping;
  /// The body's values that may differ between lanes (a superset of the
  /// wide ones: an access that does not move with x turns out uniform).
  llvm::DenseSet<Value> varying;
  llvm::DenseMap<Value, Wide> wide;
};

void VectorBodyBuilder::findVarying(Block &body) {
  varying.insert(xIv);
  bool changed = true;
  auto mark = [&](Value value) { changed |= varying.insert(value).second; };
  auto anyVarying = [&](ValueRange values) {
    return llvm::any_of(values, [&](Value v) { return varying.contains(v); });
  };
  // A loop's carried value varies if its start or its next value does, and
  // the next value can depend on the carried one: iterate to a fixed point.
  while (changed) {
    changed = false;
    body.walk([&](Operation *op) {
      if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
        bool bounds = anyVarying(loop.getLowerBoundOperands()) ||
                      anyVarying(loop.getUpperBoundOperands());
        if (bounds)
          mark(loop.getInductionVar());
        auto yielded = loop.getBody()->getTerminator()->getOperands();
        for (unsigned i = 0; i < loop.getNumResults(); ++i)
          if (bounds || varying.contains(loop.getInits()[i]) ||
              varying.contains(yielded[i])) {
            mark(loop.getRegionIterArgs()[i]);
            mark(loop.getResult(i));
          }
        return;
      }
      bool all = anyVarying(op->getOperands());
      for (Region &region : op->getRegions()) {
        llvm::SetVector<Value> used;
        getUsedValuesDefinedAbove(region, used);
        all |= anyVarying(used.getArrayRef());
        for (Block &block : region)
          if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
            for (auto [i, value] :
                 llvm::enumerate(block.back().getOperands()))
              if (varying.contains(value) && i < op->getNumResults())
                mark(op->getResult(i));
      }
      if (all)
        for (Value result : op->getResults())
          mark(result);
    });
  }
}

Value VectorBodyBuilder::lane(Value value, int64_t index) {
  Wide &form = wide[value];
  if (form.lanes.empty()) {
    OpBuilder::InsertionGuard guard(b);
    if (value == xIv) {
      // Lane i runs iteration i after the first: i * step further on.
      Value first = mapping.lookup(xIv);
      b.setInsertionPointAfterValue(first);
      form.lanes.push_back(first);
      for (int64_t i = 1; i < width; ++i)
        form.lanes.push_back(arith::AddIOp::create(
            b, first.getLoc(), first,
            arith::ConstantIndexOp::create(b, first.getLoc(), i * step)));
    } else {
      b.setInsertionPointAfterValue(form.vector);
      for (int64_t i = 0; i < width; ++i)
        form.lanes.push_back(vector::ExtractOp::create(
            b, form.vector.getLoc(), form.vector, i));
    }
  }
  return form.lanes[index];
}

Value VectorBodyBuilder::vectorOf(Value value) {
  if (!isWide(value)) {
    Value scalar = mapping.lookupOrDefault(value);
    return vector::BroadcastOp::create(b, scalar.getLoc(),
                                       vectorType(scalar.getType()), scalar);
  }
  if (wide[value].lanes.empty() && !wide[value].vector)
    (void)lane(value, 0); // the x loop's own variable
  Wide &form = wide[value];
  if (!form.vector) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(form.lanes.back());
    form.vector = vector::FromElementsOp::create(
        b, value.getLoc(), vectorType(value.getType()), form.lanes);
  }
  return form.vector;
}

void VectorBodyBuilder::emitOp(Operation &op) {
  if (!readsWide(op)) {
    b.clone(op, mapping);
    return;
  }
  if (auto loop = dyn_cast<affine::AffineForOp>(op))
    return emitLoop(loop);
  if (auto load = dyn_cast<affine::AffineLoadOp>(op))
    return emitLoad(load);
  if (auto store = dyn_cast<affine::AffineStoreOp>(op))
    return emitStore(store);
  if (isVectorisableOp(op))
    return emitElementwise(op);
  emitPerLane(op);
}

void VectorBodyBuilder::emitLoop(affine::AffineForOp loop) {
  auto readsWideValue = [&](ValueRange values) {
    return llvm::any_of(values, [&](Value v) { return isWide(v); });
  };
  bool vectorCarried = llvm::all_of(loop.getRegionIterArgs(), [&](Value arg) {
    return !varying.contains(arg) || isVectorElement(arg.getType());
  });
  if (readsWideValue(loop.getLowerBoundOperands()) ||
      readsWideValue(loop.getUpperBoundOperands()) || !vectorCarried)
    return emitPerLane(*loop);

  SmallVector<Value> inits;
  for (auto [init, arg] : llvm::zip(loop.getInits(), loop.getRegionIterArgs()))
    inits.push_back(varying.contains(arg) ? vectorOf(init)
                                          : mapping.lookupOrDefault(init));
  auto lookup = [&](ValueRange values) {
    return llvm::map_to_vector(
        values, [&](Value v) { return mapping.lookupOrDefault(v); });
  };
  auto wideLoop = affine::AffineForOp::create(
      b, loop.getLoc(), lookup(loop.getLowerBoundOperands()),
      loop.getLowerBoundMap(), lookup(loop.getUpperBoundOperands()),
      loop.getUpperBoundMap(), loop.getStepAsInt(), inits,
      [](OpBuilder &, Location, Value, ValueRange) {});
  wideLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  mapping.map(loop.getInductionVar(), wideLoop.getInductionVar());
  auto bind = [&](Value from, Value to) {
    if (varying.contains(from))
      wide[from] = {to, {}};
    else
      mapping.map(from, to);
  };
  for (auto [arg, wideArg] :
       llvm::zip(loop.getRegionIterArgs(), wideLoop.getRegionIterArgs()))
    bind(arg, wideArg);

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(wideLoop.getBody());
  emitOps(*loop.getBody());
  SmallVector<Value> yielded;
  for (auto [value, arg] :
       llvm::zip(loop.getBody()->getTerminator()->getOperands(),
                 loop.getRegionIterArgs()))
    yielded.push_back(varying.contains(arg) ? vectorOf(value)
                                            : mapping.lookupOrDefault(value));
  affine::AffineYieldOp::create(b, loop.getLoc(), yielded);
  for (auto [result, wideResult] :
       llvm::zip(loop.getResults(), wideLoop.getResults()))
    bind(result, wideResult);
}

void VectorBodyBuilder::emitLoad(affine::AffineLoadOp load) {
  ValueRange operands = load.getMapOperands();
  bool onlyX = llvm::all_of(operands, [&](Value operand) {
    return operand == xIv || !isWide(operand);
  });
  std::optional<int64_t> stride =
      onlyX ? innermostStride(load.getAffineMap(), operands, xIv, step)
            : std::nullopt;
  if (stride == 0) { // the same cell for every lane
    b.clone(*load, mapping);
    return;
  }
  Type element = load.getMemRefType().getElementType();
  if (stride != 1 || !isVectorElement(element) ||
      !load.getMemRefType().getLayout().isIdentity())
    return emitPerLane(*load);
  auto vector = affine::AffineVectorLoadOp::create(
      b, load.getLoc(), vectorType(element),
      mapping.lookupOrDefault(load.getMemRef()), load.getAffineMap(),
      llvm::map_to_vector(operands, [&](Value v) {
        return mapping.lookupOrDefault(v);
      }));
  wide[load.getResult()] = {vector.getResult(), {}};
}

void VectorBodyBuilder::emitStore(affine::AffineStoreOp store) {
  ValueRange operands = store.getMapOperands();
  bool onlyX = llvm::all_of(operands, [&](Value operand) {
    return operand == xIv || !isWide(operand);
  });
  std::optional<int64_t> stride =
      onlyX ? innermostStride(store.getAffineMap(), operands, xIv, step)
            : std::nullopt;
  Type element = store.getMemRefType().getElementType();
  if (stride != 1 || !isVectorElement(element) ||
      !store.getMemRefType().getLayout().isIdentity())
    return emitPerLane(*store);
  affine::AffineVectorStoreOp::create(
      b, store.getLoc(), vectorOf(store.getValueToStore()),
      mapping.lookupOrDefault(store.getMemRef()), store.getAffineMap(),
      llvm::map_to_vector(operands,
                          [&](Value v) { return mapping.lookupOrDefault(v); }));
}

void VectorBodyBuilder::emitElementwise(Operation &op) {
  OperationState state(op.getLoc(), op.getName());
  for (Value operand : op.getOperands())
    state.addOperands(vectorOf(operand));
  for (Type type : op.getResultTypes())
    state.addTypes(vectorType(type));
  state.addAttributes(op.getAttrs());
  Operation *vectorOp = b.create(state);
  for (auto [result, vector] :
       llvm::zip(op.getResults(), vectorOp->getResults()))
    wide[result] = {vector, {}};
}

void VectorBodyBuilder::emitPerLane(Operation &op) {
  llvm::SetVector<Value> used(op.operand_begin(), op.operand_end());
  for (Region &region : op.getRegions())
    getUsedValuesDefinedAbove(region, used);
  SmallVector<Wide> results(op.getNumResults());
  for (int64_t i = 0; i < width; ++i) {
    IRMapping laneMapping;
    for (Value value : used)
      laneMapping.map(value, isWide(value) ? lane(value, i)
                                           : mapping.lookupOrDefault(value));
    Operation *clone = b.clone(op, laneMapping);
    for (auto [result, value] : llvm::zip(results, clone->getResults()))
      result.lanes.push_back(value);
  }
  for (auto [value, form] : llvm::zip(op.getResults(), results))
    wide[value] = std::move(form);
}

} // namespace

void tilec::emitVectorBody(Block &body, affine::AffineForOp xLoop,
                           int64_t width, OpBuilder &b, IRMapping &mapping) {
  VectorBodyBuilder(xLoop, width, b, mapping).emitBlock(body);
}
