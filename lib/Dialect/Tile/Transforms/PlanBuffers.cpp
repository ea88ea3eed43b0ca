//===- PlanBuffers.cpp - Reuse temporaries with disjoint lifetimes --------===//
//
// tile-plan-buffers: on the loop level every temporary is allocated once at
// the start of the function and freed at its end. A temporary's lifetime is
// the span of top-level ops (kernels) that use it; a later temporary of the
// same type whose lifetime starts after an earlier one's ends takes over
// that buffer, so a chain of kernels needs only as many buffers as values
// alive at once.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#define DEBUG_TYPE "tile-plan-buffers"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEPLANBUFFERSPASS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec;

namespace {
/// One temporary: its allocation, its deallocation and the first and last
/// top-level op that uses it.
struct Lifetime {
  memref::AllocOp alloc;
  Operation *dealloc = nullptr;
  unsigned first = ~0u, last = 0;
};

struct TilePlanBuffersPass
    : tile::impl::TilePlanBuffersPassBase<TilePlanBuffersPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void TilePlanBuffersPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return;
  Block &body = func.getBody().front();
  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(body))
    position[&op] = i;

  SmallVector<Lifetime> lifetimes;
  for (auto alloc : body.getOps<memref::AllocOp>()) {
    Lifetime life;
    life.alloc = alloc;
    bool plannable = true;
    for (OpOperand &use : alloc.getResult().getUses()) {
      Operation *top = body.findAncestorOpInBlock(*use.getOwner());
      if (!top) {
        plannable = false;
        break;
      }
      if (isa<memref::DeallocOp>(use.getOwner()) && top == use.getOwner()) {
        life.dealloc = top;
        continue;
      }
      life.first = std::min(life.first, position[top]);
      life.last = std::max(life.last, position[top]);
    }
    if (plannable && life.dealloc && life.first <= life.last)
      lifetimes.push_back(life);
  }
  llvm::stable_sort(lifetimes, [](const Lifetime &a, const Lifetime &b) {
    return a.first < b.first;
  });

  // Greedy: each temporary takes the first free buffer of its type.
  SmallVector<Lifetime> buffers;
  for (Lifetime &life : lifetimes) {
    Lifetime *reuse = nullptr;
    for (Lifetime &buffer : buffers)
      if (buffer.alloc.getType() == life.alloc.getType() &&
          buffer.last < life.first) {
        reuse = &buffer;
        break;
      }
    if (!reuse) {
      buffers.push_back(life);
      continue;
    }
    life.dealloc->erase();
    life.alloc.getResult().replaceAllUsesWith(reuse->alloc.getResult());
    life.alloc.erase();
    reuse->last = life.last;
  }
}
