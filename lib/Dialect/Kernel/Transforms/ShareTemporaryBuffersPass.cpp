//===- ShareTemporaryBuffersPass.cpp - tilec-kernel-share-temporary-buffers ------===//
//
// Realises the temporary plan (TemporaryPlan.h) on the CPU: one byte buffer
// per slot, 64-byte aligned, and each temporary a memref.view of its slot.
// One allocation per slot rather than one arena: two temporaries of one
// kernel are always in different slots, so they stay in different
// allocations, which LLVM knows do not alias (an arena would hide that and
// cost run-time alias checks in the vectoriser). The slots are freed where
// the temporaries were, before the return, so nothing leaks when the
// program runs again and again.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Transforms/Passes.h"
#include "tilec/Dialect/Kernel/Analysis/TemporaryPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace tilec {
#define GEN_PASS_DEF_SHARETEMPORARYBUFFERSPASS
#include "tilec/Dialect/Kernel/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {

struct ShareTemporaryBuffersPass
    : public tilec::impl::ShareTemporaryBuffersPassBase<
          ShareTemporaryBuffersPass> {
  void runOnOperation() override;
};

} // namespace

void ShareTemporaryBuffersPass::runOnOperation() {
  func::FuncOp func = getOperation();
  TemporaryPlan plan = planTemporaries(func);
  if (plan.temporaries.empty())
    return;
  Block &body = func.getBody().front();
  Location loc = func.getLoc();

  // The slots come before the first temporary's allocation; each view
  // takes its temporary's place, so every use stays dominated.
  OpBuilder builder(plan.temporaries.front().alloc);
  SmallVector<Value> slots;
  for (uint64_t bytes : plan.slotBytes) {
    auto type = MemRefType::get({static_cast<int64_t>(bytes)},
                                builder.getI8Type());
    slots.push_back(memref::AllocOp::create(
        builder, loc, type,
        builder.getI64IntegerAttr(kTemporaryAlignment)));
  }
  Value start = arith::ConstantIndexOp::create(builder, loc, 0);
  for (PlannedTemporary &temporary : plan.temporaries) {
    memref::AllocOp alloc = temporary.alloc;
    builder.setInsertionPoint(alloc);
    Value view = memref::ViewOp::create(builder, alloc.getLoc(),
                                        alloc.getType(), slots[temporary.slot],
                                        start, ValueRange{});
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user) && user->getBlock() == &body)
        user->erase();
    alloc.getResult().replaceAllUsesWith(view);
    alloc.erase();
  }
  builder.setInsertionPoint(body.getTerminator());
  for (Value slot : slots)
    memref::DeallocOp::create(builder, loc, slot);
}
