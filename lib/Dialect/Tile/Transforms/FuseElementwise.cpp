//===- FuseElementwise.cpp - Group producers with their consumers ---------===//
//
// tile-fuse-elementwise: marks with `tilec.fused` every producer that the
// rules of Fusion.h let convert-tile-to-loops compute inside the loop nest
// of its single consumer (a contraction feeding elementwise ops, or
// elementwise ops feeding elementwise ops or a contraction). Each chain of
// marked ops and the unmarked op at its end lowers to one loop nest.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Fusion.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#define DEBUG_TYPE "tile-fuse-elementwise"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEFUSEELEMENTWISEPASS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {
struct TileFuseElementwisePass
    : tile::impl::TileFuseElementwisePassBase<TileFuseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    UnitAttr mark = UnitAttr::get(&getContext());
    getOperation().walk([&](Operation *op) {
      if (!isa<TileDialect>(op->getDialect()))
        return;
      if (canFuseIntoUser(op))
        op->setAttr(kFusedAttrName, mark);
      else
        op->removeAttr(kFusedAttrName);
    });
  }
};
} // namespace
