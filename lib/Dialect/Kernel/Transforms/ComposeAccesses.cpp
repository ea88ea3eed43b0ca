//===- ComposeAccesses.cpp - Index arithmetic folded into affine maps -----===//
//
// See ComposeAccesses.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Transforms/ComposeAccesses.h"

#include "mlir/IR/IntegerSet.h"

using namespace mlir;
using namespace mlir::affine;

/// `guard` with the affine.apply ops of its operands folded into its set.
static void composeGuard(AffineIfOp guard) {
  IntegerSet set = guard.getIntegerSet();
  AffineMap map = AffineMap::get(set.getNumDims(), set.getNumSymbols(),
                                 set.getConstraints(), guard.getContext());
  SmallVector<Value> operands(guard.getOperands());
  fullyComposeAffineMapAndOperands(&map, &operands);
  canonicalizeMapAndOperands(&map, &operands);
  guard.setConditional(IntegerSet::get(map.getNumDims(), map.getNumSymbols(),
                                       map.getResults(), set.getEqFlags()),
                       operands);
}

/// Folds the affine.apply ops into the maps of the loads and stores and
/// the sets of the guards in `root`, so that they read the new loops
/// directly; the applies left without users go.
void tilec::composeAccesses(AffineForOp root) {
  root.walk([](AffineIfOp guard) { composeGuard(guard); });
  SmallVector<Operation *> accesses;
  root.walk([&](Operation *op) {
    if (isa<AffineLoadOp, AffineStoreOp>(op))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    OpBuilder b(op);
    if (auto load = dyn_cast<AffineLoadOp>(op)) {
      AffineMap map = load.getAffineMap();
      SmallVector<Value> operands(load.getMapOperands());
      fullyComposeAffineMapAndOperands(&map, &operands);
      canonicalizeMapAndOperands(&map, &operands);
      auto composed = AffineLoadOp::create(b, load.getLoc(),
                                           load.getMemRef(), map, operands);
      load.replaceAllUsesWith(composed.getResult());
      load.erase();
      continue;
    }
    auto store = cast<AffineStoreOp>(op);
    AffineMap map = store.getAffineMap();
    SmallVector<Value> operands(store.getMapOperands());
    fullyComposeAffineMapAndOperands(&map, &operands);
    canonicalizeMapAndOperands(&map, &operands);
    AffineStoreOp::create(b, store.getLoc(), store.getValueToStore(),
                          store.getMemRef(), map, operands);
    store.erase();
  }
  SmallVector<AffineApplyOp> applies;
  root.walk([&](AffineApplyOp apply) { applies.push_back(apply); });
  for (AffineApplyOp apply : llvm::reverse(applies))
    if (apply->use_empty())
      apply.erase();
}

