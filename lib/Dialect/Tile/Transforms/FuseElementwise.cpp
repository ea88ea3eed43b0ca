//===- FuseElementwise.cpp - Group producers with their consumers ---------===//
//
// tile-fuse-elementwise: marks with `tilec.fused` every producer that
// chooseFusedProducers (Fusion.h) has convert-tile-to-loops compute inside
// the loop nest of its consumers (a contraction feeding elementwise ops, or
// elementwise ops feeding elementwise ops or a contraction). Each tree of
// marked ops and the unmarked op at its end lowers to one loop nest.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

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
    getOperation().walk([&](Block *block) {
      llvm::DenseSet<Operation *> fused = chooseFusedProducers(*block);
      for (Operation &op : *block) {
        if (!isa<TileDialect>(op.getDialect()))
          continue;
        if (fused.contains(&op))
          op.setAttr(tilec::kernel::Fused::getNameStr(), mark);
        else
          op.removeAttr(tilec::kernel::Fused::getNameStr());
      }
    });
  }
};
} // namespace
