//===- Fusion.cpp - Which tile producers fuse into their consumer ---------===//
//
// The legality rules of Fusion.h. A fused producer is recomputed at every
// read by its consumer, so it must have one use, and a contraction must
// yield each cell from one assignment of its output variables (a
// permutation output map) read at the same cells (same shape).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Fusion.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

bool tile::isElementwiseOp(Operation *op) {
  return isa<NegOp, BitNotOp, ExpOp, LogOp, SqrtOp, SinOp, CosOp, TanOp, AsinOp,
             AcosOp, AtanOp, SinhOp, CoshOp, TanhOp, AsinhOp, AcoshOp, AtanhOp,
             FloorOp, CeilOp, RoundOp, AddOp, SubOp, MulOp, DivOp, ShlOp, ShrOp,
             BitAndOp, BitXorOp, BitOrOp, PowOp, CmpOp, SelectOp, CastOp>(op);
}

bool tile::hasPermutationSink(ContractOp op) {
  AffineMap sink = op.getSink();
  llvm::SmallBitVector seen(sink.getNumDims());
  for (AffineExpr e : sink.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || seen.test(d.getPosition()))
      return false;
    seen.set(d.getPosition());
  }
  return true;
}

bool tile::needsBuffer(OpOperand &use) {
  return isa<GatherOp>(use.getOwner()) && use.getOperandNumber() == 0;
}

bool tile::canFuseIntoUser(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  Value result = op->getResult(0);
  if (!result.hasOneUse())
    return false;
  OpOperand &use = *result.getUses().begin();
  Operation *user = use.getOwner();
  if (needsBuffer(use) || user->getBlock() != op->getBlock())
    return false;
  if (auto contract = dyn_cast<ContractOp>(op)) {
    if (!isElementwiseOp(user) || !hasPermutationSink(contract))
      return false;
    auto userType = cast<RankedTensorType>(user->getResult(0).getType());
    return userType.getShape() == contract.getType().getShape();
  }
  return isElementwiseOp(op) &&
         (isElementwiseOp(user) || isa<ContractOp>(user));
}
