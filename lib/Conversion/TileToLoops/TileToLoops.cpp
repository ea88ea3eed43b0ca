//===- TileToLoops.cpp - The convert-tile-to-loops pass ---------*- C++ -*-===//
//
// Rewrites each tile function into the loop level: memref arguments (inputs,
// then outputs as out-parameters), one buffer per materialised value (a
// function output writes straight into its out-parameter), and one kernel
// per materialised value, in program order. Values that are computed where
// they are read (splat constants, index, fused producers) get no buffer.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Tile/Transforms/Fusion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#define DEBUG_TYPE "convert-tile-to-loops"

namespace tilec {
#define GEN_PASS_DEF_CONVERTTILETOLOOPSPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;
using tile::canFuseIntoUser;
using tile::isElementwiseOp;
using tile::needsBuffer;

namespace {

/// Fused producers nest their computation inside their consumer's; chains
/// longer than this are cut (the rest gets a buffer) to bound recursion.
constexpr unsigned kMaxFusionDepth = 16;

class FunctionLowering {
public:
  FunctionLowering(ModuleOp module, func::FuncOp func)
      : module(module), func(func) {}

  LogicalResult run();

private:
  ModuleOp module;
  func::FuncOp func;

  void decidePlacement(KernelLowering &k, func::ReturnOp ret,
                       ArrayRef<BlockArgument> outArgs);
  LogicalResult lowerOp(KernelLowering &k, Operation *op);
};

} // namespace

void FunctionLowering::decidePlacement(KernelLowering &k, func::ReturnOp ret,
                                       ArrayRef<BlockArgument> outArgs) {
  OpBuilder &top = k.topBuilder();
  // A value returned more than once is written to its first out-parameter
  // and copied to the others at the end.
  llvm::DenseSet<Value> outputs;
  for (auto [value, arg] : llvm::zip(ret.getOperands(), outArgs))
    if (value.getDefiningOp() && outputs.insert(value).second)
      k.setBuffer(value, arg);

  llvm::DenseMap<Operation *, unsigned> depth;
  for (Operation &op : func.getBody().front().without_terminator()) {
    for (Value result : op.getResults()) {
      if (outputs.contains(result))
        continue;
      bool bufferNeeded = llvm::any_of(result.getUses(), needsBuffer);
      if (auto constant = dyn_cast<tile::ConstantOp>(op)) {
        auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (dense && dense.isSplat() && !bufferNeeded) {
          k.setInlined(result);
          continue;
        }
      }
      if (isa<tile::IndexOp>(op) && !bufferNeeded) {
        k.setInlined(result);
        continue;
      }
      if (tilec::kernel::Fused(op.getContext()).isAttrPresent(&op) && canFuseIntoUser(&op)) {
        unsigned d = 1;
        for (Value operand : op.getOperands())
          if (Operation *def = operand.getDefiningOp())
            d = std::max(d, depth.lookup(def) + 1);
        if (d <= kMaxFusionDepth) {
          depth[&op] = d;
          k.setInlined(result);
          continue;
        }
      }
      if (isa<tile::ConstantOp>(op))
        continue; // its global is its buffer, made below
      k.setBuffer(result, k.allocTemporary(op.getLoc(),
                                           memrefTypeFor(cast<RankedTensorType>(
                                               result.getType()))));
    }
    // Non-splat constants live in globals, read in place or copied out; so
    // does a splat one whose user reads memory (a gather's values).
    if (auto constant = dyn_cast<tile::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (dense && (!dense.isSplat() || !k.isInlined(constant.getResult()))) {
        Type elem = dense.getType().getElementType();
        DenseElementsAttr storage = dense;
        if (elem.isInteger(1))
          storage = dense.mapValues(top.getI8Type(),
                                    [](const APInt &v) { return v.zext(8); });
        else if (isa<IntegerType>(elem))
          storage = dense.bitcast(storageType(elem));
        Value global = k.globalFor(op.getLoc(), storage);
        k.setConstantGlobal(constant.getResult(), global);
        if (!k.bufferOf(constant.getResult()))
          k.setBuffer(constant.getResult(), global);
      }
    }
  }
}

LogicalResult FunctionLowering::lowerOp(KernelLowering &k, Operation *op) {
  if (llvm::all_of(op->getResults(), [&](Value r) { return k.isInlined(r); }))
    return success();
  if (auto constant = dyn_cast<tile::ConstantOp>(op))
    if (k.bufferOf(constant.getResult()) ==
        k.constantGlobal(constant.getResult()))
      return success();
  if (auto contract = dyn_cast<tile::ContractOp>(op))
    return lowerContraction(k, contract);
  if (isa<tile::GatherOp, tile::ScatterOp, tile::PrngOp>(op))
    return lowerDataMovement(k, op);
  if (!isElementwiseOp(op) &&
      !isa<tile::IndexOp, tile::ReshapeOp, tile::ConstantOp>(op))
    return op->emitOpError("cannot be lowered to loops");
  // One nest over the result, computing each element where it is stored.
  Value result = op->getResult(0);
  auto type = cast<RankedTensorType>(result.getType());
  Value buffer = k.bufferOf(result);
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(type.getRank(), op->getContext());
  bool ok = true;
  k.buildNest(op->getLoc(), type.getShape(), k.kernelName(op),
              [&](OpBuilder &b, Location loc, ValueRange ivs) {
                FailureOr<Scalar> v = k.computeAt(b, loc, op, identity, ivs);
                if (failed(v)) {
                  ok = false;
                  return;
                }
                affine::AffineStoreOp::create(b, loc, toStorage(b, loc, *v),
                                              buffer, identity, ivs);
              });
  return success(ok);
}

LogicalResult FunctionLowering::run() {
  Block &body = func.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!ret)
    return func.emitError("tile-to-loops: the function does not end in "
                          "func.return");
  SmallVector<Type> argTypes;
  for (Type t : llvm::concat<const Type>(func.getArgumentTypes(),
                                         func.getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape())
      return func.emitError("tile-to-loops: expects static-shaped tensor "
                            "arguments and results, got ")
             << t;
    argTypes.push_back(memrefTypeFor(tensor));
  }

  // The new function takes the old one's name and attributes.
  OpBuilder mb(func);
  auto newFunc = func::FuncOp::create(mb, func.getLoc(), func.getSymName(),
                                      mb.getFunctionType(argTypes, {}));
  for (NamedAttribute attr : func->getAttrs())
    if (attr.getName() != func.getSymNameAttrName() &&
        attr.getName() != func.getFunctionTypeAttrName() &&
        attr.getName() != func.getArgAttrsAttrName() &&
        attr.getName() != func.getResAttrsAttrName())
      newFunc->setAttr(attr.getName(), attr.getValue());
  tilec::kernel::Entry(mb.getContext()).setAttr(newFunc, mb.getUnitAttr());
  Block *entry = newFunc.addEntryBlock();
  OpBuilder top = OpBuilder::atBlockEnd(entry);
  KernelLowering k(module, top);

  unsigned numInputs = func.getNumArguments();
  for (auto [old, arg] : llvm::zip(body.getArguments(), entry->getArguments()))
    k.setBuffer(old, arg);
  SmallVector<BlockArgument> outArgs(
      entry->getArguments().drop_front(numInputs));
  decidePlacement(k, ret, outArgs);

  for (Operation &op : body.without_terminator()) {
    if (!isa_and_nonnull<tile::TileDialect>(op.getDialect()))
      return op.emitOpError("is not a tile op; convert-tile-to-loops lowers "
                            "only tile functions");
    if (failed(lowerOp(k, &op)))
      return failure();
  }
  // Outputs not written in place: function inputs and repeated values.
  for (auto [returned, outArg] : llvm::zip(ret.getOperands(), outArgs)) {
    // Named copies: lambdas may not capture structured bindings in C++17.
    Value value = returned;
    BlockArgument arg = outArg;
    if (k.bufferOf(value) == arg)
      continue;
    auto type = cast<RankedTensorType>(value.getType());
    AffineMap identity =
        AffineMap::getMultiDimIdentityMap(type.getRank(), func.getContext());
    bool ok = true;
    k.buildNest(ret.getLoc(), type.getShape(), "copy_output",
                [&](OpBuilder &b, Location loc, ValueRange ivs) {
                  FailureOr<Scalar> v =
                      k.readValue(b, loc, value, identity, ivs);
                  if (failed(v)) {
                    ok = false;
                    return;
                  }
                  affine::AffineStoreOp::create(b, loc, toStorage(b, loc, *v),
                                                arg, identity, ivs);
                });
    if (!ok)
      return failure();
  }
  for (Value temp : k.temporaries())
    memref::DeallocOp::create(top, ret.getLoc(), temp);
  func::ReturnOp::create(top, ret.getLoc());
  func.erase();
  return success();
}

namespace {
struct ConvertTileToLoopsPass
    : tilec::impl::ConvertTileToLoopsPassBase<ConvertTileToLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() &&
          llvm::any_of(llvm::concat<const Type>(func.getArgumentTypes(),
                                                func.getResultTypes()),
                       [](Type t) { return isa<RankedTensorType>(t); }))
        funcs.push_back(func);
    for (func::FuncOp func : funcs)
      if (failed(FunctionLowering(getOperation(), func).run()))
        return signalPassFailure();
  }
};
} // namespace
