//===- ReuseTemporaryBuffersPass.cpp - Buffers handed on by type ----------===//
//
// On the loop level every temporary is allocated once at the start of the
// function and freed at its end. The temporary plan (TemporaryPlan.h) with
// same-type sharing hands one buffer from temporary to temporary: a later
// temporary of the same type whose lifetime starts after an earlier one's
// ends takes over that buffer, so a chain of kernels needs only as many
// buffers as values alive at once, on every target.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/TemporaryPlan.h"
#include "tilec/Dialect/Kernel/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace tilec {
#define GEN_PASS_DEF_REUSETEMPORARYBUFFERSPASS
#include "tilec/Dialect/Kernel/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {

struct ReuseTemporaryBuffersPass
    : public tilec::impl::ReuseTemporaryBuffersPassBase<
          ReuseTemporaryBuffersPass> {
  void runOnOperation() override;
};

} // namespace

void ReuseTemporaryBuffersPass::runOnOperation() {
  TemporaryPlan plan =
      planTemporaries(getOperation(), TemporarySharing::SameType);
  // Each slot keeps the buffer of its first user: its allocation comes
  // before the first use of every other member.
  std::vector<PlannedTemporary *> keepers(plan.slotBytes.size(), nullptr);
  for (PlannedTemporary &temporary : plan.temporaries) {
    PlannedTemporary *&keeper = keepers[temporary.slot];
    if (!keeper || temporary.first < keeper->first)
      keeper = &temporary;
  }
  // The keeper's dealloc stays where it is: on the loop level every
  // dealloc comes after the last kernel, just before the return.
  for (PlannedTemporary &temporary : plan.temporaries) {
    PlannedTemporary *keeper = keepers[temporary.slot];
    if (keeper == &temporary)
      continue;
    temporary.dealloc.erase();
    temporary.alloc.getResult().replaceAllUsesWith(keeper->alloc.getResult());
    temporary.alloc.erase();
  }
}
