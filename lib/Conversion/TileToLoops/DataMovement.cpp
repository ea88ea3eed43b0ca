//===- DataMovement.cpp - reshape, gather, scatter, prng, constants -------===//
//
// The ops that move elements (docs/language.md 8.4-8.6) and constants.
// Reshape and constants have a per-element form (a reshape reads its
// operand at the delinearised row-major position), so they can be read in
// place like elementwise values. Gather and scatter index with data and use
// memref.load/store with indices clamped into range; prng runs the taus88
// lanes of 8.6 bit for bit.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IntegerSet.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;

/// Row-major strides of `shape`.
static SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

/// The indices of row-major position `flat` in `shape`.
static SmallVector<AffineExpr> delinearize(AffineExpr flat,
                                           ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = stridesOf(shape);
  SmallVector<AffineExpr> exprs;
  for (size_t d = 0; d < shape.size(); ++d) {
    AffineExpr e = flat.floorDiv(strides[d]);
    exprs.push_back(d == 0 ? e : e % shape[d]);
  }
  return exprs;
}

FailureOr<Scalar> loops::emitReshapeAt(KernelLowering &k, OpBuilder &b,
                                       Location loc, Operation *op,
                                       AffineMap map, ValueRange dims) {
  auto reshape = cast<tile::ReshapeOp>(op);
  auto resultType = cast<RankedTensorType>(reshape.getType());
  auto sourceType = cast<RankedTensorType>(reshape.getOperand().getType());
  SmallVector<int64_t> strides = stridesOf(resultType.getShape());
  AffineExpr flat = getAffineConstantExpr(0, op->getContext());
  for (auto [e, stride] : llvm::zip(map.getResults(), strides))
    flat = flat + e * stride;
  AffineMap sourceMap = AffineMap::get(map.getNumDims(), 0,
                                       delinearize(flat, sourceType.getShape()),
                                       op->getContext());
  return k.readValue(b, loc, reshape.getOperand(), sourceMap, dims);
}

/// A scalar constant of tile type `type` from a splat element.
static Scalar scalarConstant(OpBuilder &b, Location loc, Attribute element,
                             Type type) {
  Type reg = registerType(type);
  if (auto i = dyn_cast<IntegerAttr>(element))
    return {arith::ConstantOp::create(b, loc, reg,
                                      IntegerAttr::get(reg, i.getValue())),
            type};
  if (auto f = dyn_cast<FloatAttr>(element))
    return {arith::ConstantOp::create(b, loc, reg,
                                      FloatAttr::get(reg, f.getValue())),
            type};
  if (auto bl = dyn_cast<BoolAttr>(element))
    return {arith::ConstantOp::create(b, loc, reg,
                                      IntegerAttr::get(reg, bl.getValue())),
            type};
  return zeroScalar(b, loc, type);
}

FailureOr<Scalar> loops::emitConstantAt(KernelLowering &k, OpBuilder &b,
                                        Location loc, Operation *op,
                                        AffineMap map, ValueRange dims) {
  auto constant = cast<tile::ConstantOp>(op);
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense)
    return op->emitOpError("holds elements that are not dense");
  Type type = dense.getType().getElementType();
  if (dense.isSplat())
    return scalarConstant(b, loc, dense.getSplatValue<Attribute>(), type);
  Value global = k.constantGlobal(constant.getResult());
  if (!global)
    return op->emitOpError("has no global");
  Value loaded = affine::AffineLoadOp::create(b, loc, global, map, dims);
  return fromStorage(b, loc, loaded, type);
}

/// An index element clamped into [0, size) as an `index` value (8.5).
static Value clampedIndex(OpBuilder &b, Location loc, Scalar index,
                          int64_t size) {
  Type i64 = b.getI64Type();
  Value v = index.value;
  unsigned width = cast<IntegerType>(v.getType()).getWidth();
  bool isU = isUnsignedLike(index.type);
  if (width < 64)
    v = isU ? Value(arith::ExtUIOp::create(b, loc, i64, v))
            : Value(arith::ExtSIOp::create(b, loc, i64, v));
  Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
  Value last = arith::ConstantIntOp::create(b, loc, i64, size - 1);
  // Unsigned values (a u64 above 2^63 too) only need the upper clamp.
  Value upper =
      isU ? Value(arith::MinUIOp::create(b, loc, v, last))
          : Value(arith::MinSIOp::create(
                b, loc, arith::MaxSIOp::create(b, loc, v, zero), last));
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), upper);
}

static LogicalResult lowerGather(KernelLowering &k, tile::GatherOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Value out = k.bufferOf(op.getResult());
  Value values = k.bufferOf(op.getValues());
  if (!out || !values)
    return op.emitOpError("needs buffers for its values and result");
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  auto valuesType = cast<RankedTensorType>(op.getValues().getType());
  unsigned indexRank = indicesType.getRank();
  unsigned rank = op.getType().getRank();
  bool ok = true;
  k.buildNest(loc, op.getType().getShape(), k.kernelName(op),
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                AffineMap indexMap =
                    AffineMap::getMultiDimIdentityMap(rank, ctx).getSliceMap(
                        0, indexRank);
                FailureOr<Scalar> index =
                    k.readValue(b, l, op.getIndices(), indexMap, ivs);
                if (failed(index)) {
                  ok = false;
                  return;
                }
                SmallVector<Value> at{
                    clampedIndex(b, l, *index, valuesType.getDimSize(0))};
                for (unsigned d = indexRank; d < rank; ++d)
                  at.push_back(ivs[d]);
                Value v = memref::LoadOp::create(b, l, values, at);
                affine::AffineStoreOp::create(
                    b, l, v, out, AffineMap::getMultiDimIdentityMap(rank, ctx),
                    ivs);
              });
  return success(ok);
}

static LogicalResult lowerScatter(KernelLowering &k, tile::ScatterOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Value out = k.bufferOf(op.getResult());
  if (!out)
    return op.emitOpError("needs a buffer for its result");
  RankedTensorType outType = op.getType();
  Type elem = outType.getElementType();
  auto updatesType = cast<RankedTensorType>(op.getUpdates().getType());
  unsigned indexRank =
      cast<RankedTensorType>(op.getIndices().getType()).getRank();
  unsigned rank = outType.getRank();
  std::string name = k.kernelName(op);
  AffineMap outIdentity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  k.buildNest(loc, outType.getShape(), name + ".init",
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                affine::AffineStoreOp::create(
                    b, l, toStorage(b, l, zeroScalar(b, l, elem)), out,
                    outIdentity, ivs);
              });
  bool ok = true;
  unsigned updatesRank = updatesType.getRank();
  k.buildNest(
      loc, updatesType.getShape(), name,
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        AffineMap all = AffineMap::getMultiDimIdentityMap(updatesRank, ctx);
        FailureOr<Scalar> index = k.readValue(
            b, l, op.getIndices(), all.getSliceMap(0, indexRank), ivs);
        FailureOr<Scalar> update = k.readValue(b, l, op.getUpdates(), all, ivs);
        if (failed(index) || failed(update)) {
          ok = false;
          return;
        }
        SmallVector<Value> at{
            clampedIndex(b, l, *index, outType.getDimSize(0))};
        for (unsigned d = indexRank; d < updatesRank; ++d)
          at.push_back(ivs[d]);
        Scalar cur =
            fromStorage(b, l, memref::LoadOp::create(b, l, out, at), elem);
        Value sum;
        if (isa<FloatType>(cur.value.getType()))
          sum = arith::AddFOp::create(b, l, cur.value, update->value);
        else if (elem.isInteger(1)) // bool: any update was true
          sum = arith::OrIOp::create(b, l, cur.value, update->value);
        else
          sum = arith::AddIOp::create(b, l, cur.value, update->value);
        memref::StoreOp::create(b, l, toStorage(b, l, {sum, elem}), out, at);
      });
  return success(ok);
}

/// One taus88 step (8.6) on u32 lanes; returns (s1, s2, s3, out).
static SmallVector<Value> taus88(OpBuilder &b, Location loc, Value s1, Value s2,
                                 Value s3) {
  auto c = [&](uint32_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), int64_t(v));
  };
  auto component = [&](Value s, uint32_t a, uint32_t shr, uint32_t mask,
                       uint32_t shl) {
    Value t = arith::XOrIOp::create(b, loc,
                                    arith::ShLIOp::create(b, loc, s, c(a)), s);
    Value bits = arith::ShRUIOp::create(b, loc, t, c(shr));
    Value kept = arith::ShLIOp::create(
        b, loc, arith::AndIOp::create(b, loc, s, c(mask)), c(shl));
    return Value(arith::XOrIOp::create(b, loc, kept, bits));
  };
  Value n1 = component(s1, 13, 19, 0xFFFFFFFEu, 12);
  Value n2 = component(s2, 2, 25, 0xFFFFFFF8u, 4);
  Value n3 = component(s3, 3, 11, 0xFFFFFFF0u, 17);
  Value out =
      arith::XOrIOp::create(b, loc, arith::XOrIOp::create(b, loc, n1, n2), n3);
  return {n1, n2, n3, out};
}

static LogicalResult lowerPrng(KernelLowering &k, tile::PrngOp op) {
  constexpr int64_t kLanes = 2048;
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Value values = k.bufferOf(op.getResult());
  Value next = k.bufferOf(op.getNewState());
  if (!values || !next)
    return op.emitOpError("needs buffers for its results");
  auto valueType = cast<RankedTensorType>(op.getResult().getType());
  int64_t count = valueType.getNumElements();
  int64_t steps = (count + kLanes - 1) / kLanes;
  bool ok = true;
  OpBuilder &top = k.topBuilder();
  auto lanes = affine::AffineForOp::create(top, loc, 0, kLanes);
  tilec::kernel::KernelName(top.getContext())
      .setAttr(lanes, top.getStringAttr(k.kernelName(op)));
  OpBuilder b = OpBuilder::atBlockBegin(lanes.getBody());
  Value lane = lanes.getInductionVar();
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  SmallVector<Value> state;
  for (int64_t row = 0; row < 3; ++row) {
    AffineMap at =
        AffineMap::get(1, 0, {getAffineConstantExpr(row, ctx), d0}, ctx);
    FailureOr<Scalar> s = k.readValue(b, loc, op.getState(), at, lane);
    if (failed(s))
      return failure();
    state.push_back(s->value);
  }
  auto stepLoop = affine::AffineForOp::create(
      b, loc, 0, steps, 1, state,
      [&](OpBuilder &sb, Location l, Value step, ValueRange s) {
        SmallVector<Value> r = taus88(sb, l, s[0], s[1], s[2]);
        // Element e = step * 2048 + lane exists when e < count.
        AffineExpr e = getAffineDimExpr(1, ctx) * kLanes + d0;
        IntegerSet inRange = IntegerSet::get(2, 0, {count - 1 - e}, {false});
        auto ifOp = affine::AffineIfOp::create(sb, l, inRange,
                                               ValueRange{lane, step}, false);
        OpBuilder tb = ifOp.getThenBodyBuilder();
        Value top24 = arith::ShRUIOp::create(
            tb, l, r[3],
            arith::ConstantIntOp::create(tb, l, tb.getI32Type(), 8));
        Value f = arith::UIToFPOp::create(tb, l, tb.getF32Type(), top24);
        Value scaled = arith::MulFOp::create(
            tb, l, f,
            arith::ConstantOp::create(tb, l, tb.getF32Type(),
                                      tb.getF32FloatAttr(0x1p-24f)));
        AffineMap where =
            AffineMap::get(2, 0, delinearize(e, valueType.getShape()), ctx);
        affine::AffineStoreOp::create(tb, l, scaled, values, where,
                                      ValueRange{lane, step});
        affine::AffineYieldOp::create(sb, l, ValueRange{r[0], r[1], r[2]});
      });
  for (int64_t row = 0; row < 3; ++row) {
    AffineMap at =
        AffineMap::get(1, 0, {getAffineConstantExpr(row, ctx), d0}, ctx);
    affine::AffineStoreOp::create(b, loc, stepLoop.getResult(row), next, at,
                                  lane);
  }
  return success(ok);
}

LogicalResult loops::lowerDataMovement(KernelLowering &k, Operation *op) {
  if (auto gather = dyn_cast<tile::GatherOp>(op))
    return lowerGather(k, gather);
  if (auto scatter = dyn_cast<tile::ScatterOp>(op))
    return lowerScatter(k, scatter);
  if (auto prng = dyn_cast<tile::PrngOp>(op))
    return lowerPrng(k, prng);
  return op->emitOpError("is not a data-movement op");
}
