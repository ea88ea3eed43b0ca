//===- ComputeBounds.cpp - Fold constraints into variable ranges ----------===//
//
// tile-compute-bounds: drops from each contraction's `cons` the inequalities
// that its variables' exact ranges already imply, so the loop bounds carry
// them and the lowering emits no guard for them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Bounds.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IntegerSet.h"

#define DEBUG_TYPE "tile-compute-bounds"

namespace tilec::tile {
#define GEN_PASS_DEF_TILECOMPUTEBOUNDSPASS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

bool tile::isImpliedByVariableRanges(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue() >= 0;
  int dim = -1;
  bool single = true, hasMod = false;
  e.walk([&](AffineExpr sub) {
    if (sub.getKind() == AffineExprKind::Mod)
      hasMod = true;
    if (auto d = dyn_cast<AffineDimExpr>(sub)) {
      if (dim >= 0 && unsigned(dim) != d.getPosition())
        single = false;
      dim = d.getPosition();
    }
  });
  return single && !hasMod && dim >= 0;
}

bool tile::isTriviallyTrue(AffineExpr e, bool isEquality) {
  auto c = dyn_cast<AffineConstantExpr>(e);
  return c && (isEquality ? c.getValue() == 0 : c.getValue() >= 0);
}

/// `cons` without the inequalities the ranges imply.
static IntegerSet foldIntoRanges(IntegerSet cons) {
  SmallVector<AffineExpr> exprs;
  SmallVector<bool> eqs;
  for (unsigned i = 0; i < cons.getNumConstraints(); ++i) {
    bool eq = cons.isEq(i);
    AffineExpr e = cons.getConstraint(i);
    if (isTriviallyTrue(e, eq) || (!eq && isImpliedByVariableRanges(e)))
      continue;
    exprs.push_back(cons.getConstraint(i));
    eqs.push_back(cons.isEq(i));
  }
  // IntegerSet needs one constraint at least; `0 == 0` is the universe.
  if (exprs.empty()) {
    exprs.push_back(getAffineConstantExpr(0, cons.getContext()));
    eqs.push_back(true);
  }
  return IntegerSet::get(cons.getNumDims(), cons.getNumSymbols(), exprs, eqs);
}

namespace {
struct TileComputeBoundsPass
    : tile::impl::TileComputeBoundsPassBase<TileComputeBoundsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([](ContractOp op) {
      // An empty range empties the contraction; its constraints then say
      // nothing about the others, so leave it as it is.
      for (auto [lo, hi] : llvm::zip(op.getLowerBounds(), op.getUpperBounds()))
        if (lo > hi)
          return;
      IntegerSet folded = foldIntoRanges(op.getCons());
      if (folded != op.getCons())
        op.setConsAttr(IntegerSetAttr::get(folded));
    });
  }
};
} // namespace
