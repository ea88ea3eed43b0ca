//===- Fusion.cpp - Which tile producers fuse into their consumer ---------===//
//
// The rules of Fusion.h. A fused producer is computed where its consumers
// read it: a contraction must yield each cell from one assignment of its
// output variables (a permutation output map) and be read at the same cells
// (same shape), so that convert-tile-to-loops computes each cell once for
// all its readers in the kernel.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Fusion.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

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
  if (op->getNumResults() != 1 || op->getResult(0).use_empty())
    return false;
  Value result = op->getResult(0);
  for (OpOperand &use : result.getUses()) {
    Operation *user = use.getOwner();
    if (needsBuffer(use) || user->getBlock() != op->getBlock())
      return false;
    if (auto contract = dyn_cast<ContractOp>(op)) {
      if (!isElementwiseOp(user) || !hasPermutationSink(contract))
        return false;
      auto userType = cast<RankedTensorType>(user->getResult(0).getType());
      if (userType.getShape() != contract.getType().getShape())
        return false;
      continue;
    }
    if (!isElementwiseOp(op) ||
        !(isElementwiseOp(user) || isa<ContractOp>(user)))
      return false;
  }
  return true;
}

llvm::DenseSet<Operation *> tile::chooseFusedProducers(Block &block) {
  // Ops that compute on a contraction's result through elementwise ops
  // only: inside a contraction consumer they would redo that work (or at
  // least the elementwise chain) at every multiply-add.
  llvm::DenseSet<Operation *> afterContraction;
  for (Operation &op : block) {
    bool after = isa<ContractOp>(op);
    if (isElementwiseOp(&op))
      for (Value operand : op.getOperands())
        if (afterContraction.contains(operand.getDefiningOp()))
          after = true;
    if (after)
      afterContraction.insert(&op);
  }
  // Consumers come after their producers, so a reverse walk knows the
  // kernel (the root) each user ends up in before deciding on a producer.
  llvm::DenseSet<Operation *> fused;
  llvm::DenseMap<Operation *, Operation *> rootOf;
  // The kernels (by root) that already hold a contraction: one is the most
  // a kernel takes. Two in one nest (`conv(A, F) + conv(I, P)`, a sum of
  // gradients) fit none of the targets' contraction tilings (register
  // tiles, tensor cores), so the whole kernel ran untiled: on the H200 the
  // fused pair of ResNet's down-sampling block ran at a tenth of the speed
  // of the convolutions beside it. Which one gets the buffer matters
  // little: where one op adds them, both have the op's shape.
  llvm::DenseSet<Operation *> holdsContraction;
  for (Operation &op : llvm::reverse(block)) {
    rootOf[&op] = &op;
    if (isa<ContractOp>(op))
      holdsContraction.insert(&op);
    if (!canFuseIntoUser(&op))
      continue;
    llvm::SmallPtrSet<Operation *, 2> roots;
    bool intoContraction = false;
    for (Operation *user : op.getUsers()) {
      roots.insert(rootOf.lookup(user));
      intoContraction |= isa<ContractOp>(user);
    }
    if (roots.size() != 1 || (intoContraction && afterContraction.contains(&op)))
      continue;
    Operation *root = *roots.begin();
    if (isa<ContractOp>(op) && holdsContraction.contains(root))
      continue;
    fused.insert(&op);
    rootOf[&op] = root;
    if (isa<ContractOp>(op))
      holdsContraction.insert(root);
  }
  return fused;
}
