//===- KernelLowering.cpp - Buffers, nests and scalar reads -----*- C++ -*-===//
//
// The core every op family builds on: where a tensor value lives (a function
// argument, a temporary, a constant global, or nowhere because it is
// computed where it is read) and how one element of it is obtained inside a
// loop nest. Reads of inlined values recurse into their producers; the
// depth of that recursion is bounded by the lowering's fusion limit.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Tile/Transforms/Fusion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;
using tile::isElementwiseOp;

FailureOr<Scalar> KernelLowering::readValue(OpBuilder &b, Location loc, Value v,
                                            AffineMap map, ValueRange dims) {
  auto type = cast<RankedTensorType>(v.getType());
  if (Value buffer = bufferOf(v)) {
    Value loaded = affine::AffineLoadOp::create(b, loc, buffer, map, dims);
    return fromStorage(b, loc, loaded, type.getElementType());
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return emitError(loc, "tile-to-loops: a function argument has no buffer");
  // A fused value read several times at one cell (`max` reads its operand
  // twice, a fused producer may have several readers) is computed once.
  CellKey key{v.getAsOpaquePointer(), map.getAsOpaquePointer(), {}};
  for (Value dim : dims)
    key.dims.push_back(dim.getAsOpaquePointer());
  if (auto known = computedCells.find(key);
      known != computedCells.end() && isVisibleAt(known->second.value, b))
    return known->second;
  FailureOr<Scalar> cell = computeAt(b, loc, def, map, dims);
  if (succeeded(cell))
    computedCells[key] = *cell;
  return cell;
}

bool KernelLowering::readReduces(Value v) const {
  if (bufferOf(v))
    return false;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<tile::ContractOp>(def))
    return true;
  return llvm::any_of(def->getOperands(),
                      [&](Value operand) { return readReduces(operand); });
}

bool KernelLowering::isVisibleAt(Value value, OpBuilder &b) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != b.getInsertionBlock())
    return false;
  return b.getInsertionPoint() == b.getInsertionBlock()->end() ||
         def->isBeforeInBlock(&*b.getInsertionPoint());
}

FailureOr<Scalar> KernelLowering::computeAt(OpBuilder &b, Location loc,
                                            Operation *op, AffineMap map,
                                            ValueRange dims) {
  if (isElementwiseOp(op)) {
    // Operands that reduce first: the reduction then comes before the
    // other operands' loads (`W - lr * dW` loads W after summing dW), so
    // that a nest holds nothing but pure values before its reduction, the
    // form the GPU tilings match (ContractionNest.h), and those loads are
    // not live across it.
    unsigned count = op->getNumOperands();
    SmallVector<unsigned> order;
    for (bool reduces : {true, false})
      for (unsigned i = 0; i < count; ++i)
        if (readReduces(op->getOperand(i)) == reduces)
          order.push_back(i);
    SmallVector<Scalar> args(count);
    for (unsigned i : order) {
      Value operand = op->getOperand(i);
      auto operandType = cast<RankedTensorType>(operand.getType());
      FailureOr<Scalar> s =
          readValue(b, loc, operand, broadcastMap(map, operandType), dims);
      if (failed(s))
        return failure();
      args[i] = *s;
    }
    FailureOr<Scalar> r = emitElementwiseScalar(b, op, args);
    if (failed(r))
      return op->emitOpError("cannot be lowered to scalar arithmetic for "
                             "these element types");
    return r;
  }
  if (auto index = dyn_cast<tile::IndexOp>(op)) {
    int64_t axis = index.getAxis();
    if (axis < 0 || axis >= int64_t(map.getNumResults()))
      return op->emitOpError("axis out of range");
    Value i = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(map.getNumDims(), 0, map.getResult(axis)), dims);
    Value i32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), i);
    return Scalar{
        i32,
        cast<RankedTensorType>(op->getResult(0).getType()).getElementType()};
  }
  if (auto contract = dyn_cast<tile::ContractOp>(op)) {
    return emitContractionCell(*this, b, loc, contract, map, dims);
  }
  if (isa<tile::ReshapeOp>(op))
    return emitReshapeAt(*this, b, loc, op, map, dims);
  if (isa<tile::ConstantOp>(op))
    return emitConstantAt(*this, b, loc, op, map, dims);
  return op->emitOpError("has no per-element form; it needs a buffer");
}

Operation *KernelLowering::buildNest(Location loc, ArrayRef<int64_t> shape,
                                     StringRef name, NestBody body) {
  OpBuilder &b = top;
  SmallVector<Value> ivs;
  Operation *outer = nullptr;
  // Rank 0 still gets one loop, of one iteration, so that every kernel is a
  // top-level loop that can carry its attributes.
  SmallVector<int64_t> extents(shape.begin(), shape.end());
  bool scalar = extents.empty();
  if (scalar)
    extents.push_back(1);
  OpBuilder::InsertionGuard guard(b);
  for (int64_t extent : extents) {
    auto loop = affine::AffineForOp::create(b, loc, 0, extent);
    if (!outer)
      outer = loop;
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  body(b, loc, scalar ? ValueRange() : ValueRange(ivs));
  tilec::kernel::KernelName(b.getContext()).setAttr(outer, b.getStringAttr(name));
  return outer;
}

std::string KernelLowering::kernelName(Operation *op) {
  std::string name = op->getName().stripDialect().str();
  name += "_" + std::to_string(kernelCount++);
  Location loc = op->getLoc();
  if (auto named = dyn_cast<NameLoc>(loc))
    name += "_" + named.getName().str();
  else if (auto attr = tilec::kernel::SourceName(op->getContext()).getAttr(op))
    name += "_" + attr.str();
  return name;
}

Value KernelLowering::globalFor(Location loc, DenseElementsAttr attr) {
  auto type = MemRefType::get(attr.getType().getShape(),
                              attr.getType().getElementType());
  std::string symbol;
  do // unique in the module, which may hold several lowered functions
    symbol = "__tilec_constant_" + std::to_string(globalCount++);
  while (SymbolTable::lookupSymbolIn(module, symbol));
  OpBuilder mb(module.getBodyRegion());
  mb.setInsertionPointToStart(module.getBody());
  memref::GlobalOp::create(mb, loc, symbol, mb.getStringAttr("private"), type,
                           attr, /*constant=*/true, /*alignment=*/nullptr);
  return memref::GetGlobalOp::create(top, loc, type, symbol);
}

Value KernelLowering::allocTemporary(Location loc, MemRefType type) {
  Value buffer = memref::AllocOp::create(top, loc, type);
  temps.push_back(buffer);
  return buffer;
}
