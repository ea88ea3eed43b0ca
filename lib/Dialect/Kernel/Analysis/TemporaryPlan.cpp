//===- TemporaryPlan.cpp - Lifetimes and storage of temporaries -----------===//
//
// See TemporaryPlan.h for the algorithm. Greedy by size is not optimal in
// general (packing intervals into fewest bytes is NP-hard), but the models
// here are mostly chains of kernels where it reaches the lower bound: the
// 57 temporaries of MobileNet v1 at 224x224 fit in two buffers of the
// largest activation's size.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/TemporaryPlan.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace tilec;

uint64_t TemporaryPlan::peakBytes() const {
  return std::accumulate(slotBytes.begin(), slotBytes.end(), uint64_t{0});
}

uint64_t TemporaryPlan::unsharedBytes() const {
  uint64_t total = 0;
  for (const PlannedTemporary &temporary : temporaries)
    total += temporary.bytes;
  return total;
}

std::optional<unsigned> TemporaryPlan::slotOf(Value alloc) const {
  for (const PlannedTemporary &temporary : temporaries)
    if (memref::AllocOp(temporary.alloc).getResult() == alloc)
      return temporary.slot;
  return std::nullopt;
}

uint64_t tilec::storageBytes(MemRefType type) {
  Type element = type.getElementType();
  unsigned bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  uint64_t elementBytes = std::max(1u, (bits + 7) / 8);
  return std::max<uint64_t>(1, type.getNumElements() * elementBytes);
}

/// Whether `type` can live in a shared slot: a view of bytes can take it.
static bool isPlannableType(MemRefType type) {
  return type.hasStaticShape() && type.getLayout().isIdentity() &&
         !type.getMemorySpace() &&
         (type.getElementType().isIntOrFloat() ||
          type.getElementType().isIndex());
}

/// Fills in the live interval and the top-level dealloc of `temporary`'s
/// alloc over the ops of `body` (numbered by `position`); false when it is
/// no temporary (TemporaryPlan.h), or, for `SameType`, when it has no
/// top-level dealloc to drop or no top-level op uses it.
static bool liveInterval(PlannedTemporary &temporary, Block &body,
                         const llvm::DenseMap<Operation *, unsigned> &position,
                         TemporarySharing sharing) {
  memref::AllocOp alloc = temporary.alloc;
  unsigned first = ~0u, last = 0;
  for (OpOperand &use : alloc.getResult().getUses()) {
    Operation *top = body.findAncestorOpInBlock(*use.getOwner());
    if (!top)
      return false;
    if (auto dealloc = dyn_cast<memref::DeallocOp>(top);
        dealloc && top == use.getOwner()) {
      temporary.dealloc = dealloc;
      continue;
    }
    // An op that yields a memref may yield an alias of the temporary that
    // lives on after it; a return hands the temporary to the caller.
    if (isa<func::ReturnOp>(top) ||
        llvm::any_of(top->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
      return false;
    first = std::min(first, position.at(top));
    last = std::max(last, position.at(top));
  }
  bool used = first <= last;
  if (sharing == TemporarySharing::SameType && (!used || !temporary.dealloc))
    return false;
  if (!used) // allocated, never used: alive at its allocation only
    first = last = position.at(alloc);
  temporary.first = first;
  temporary.last = last;
  return true;
}

/// Gives each of `temporaries` a slot, greedy (TemporaryPlan.h). Byte
/// slots take them largest first, so that smaller ones fill larger slots;
/// a same-type slot is one buffer handed from temporary to temporary, so
/// it takes them in order of first use. Ties go in program order.
static std::vector<uint64_t>
assignSlots(std::vector<PlannedTemporary> &temporaries,
            TemporarySharing sharing) {
  bool sameType = sharing == TemporarySharing::SameType;
  std::vector<size_t> order(temporaries.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](size_t a, size_t b) {
    const PlannedTemporary &x = temporaries[a], &y = temporaries[b];
    if (sameType && x.first != y.first)
      return x.first < y.first;
    if (!sameType && x.bytes != y.bytes)
      return x.bytes > y.bytes;
    return a < b;
  });
  std::vector<uint64_t> slotBytes;
  std::vector<std::vector<const PlannedTemporary *>> members;
  for (size_t index : order) {
    PlannedTemporary &temporary = temporaries[index];
    auto overlaps = [&](const PlannedTemporary *other) {
      return other->first <= temporary.last && temporary.first <= other->last;
    };
    auto accepts = [&](const std::vector<const PlannedTemporary *> &slot) {
      return (!sameType || memref::AllocOp(slot.front()->alloc).getType() ==
                               temporary.alloc.getType()) &&
             llvm::none_of(slot, overlaps);
    };
    unsigned slot = 0;
    while (slot < members.size() && !accepts(members[slot]))
      ++slot;
    if (slot == members.size()) {
      members.emplace_back();
      slotBytes.push_back(temporary.bytes);
    }
    temporary.slot = slot;
    members[slot].push_back(&temporary);
  }
  return slotBytes;
}

TemporaryPlan tilec::planTemporaries(func::FuncOp func,
                                     TemporarySharing sharing) {
  TemporaryPlan plan;
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return plan;
  Block &body = func.getBody().front();
  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [index, op] : llvm::enumerate(body))
    position[&op] = index;

  for (auto alloc : body.getOps<memref::AllocOp>()) {
    if (!isPlannableType(alloc.getType()))
      continue;
    PlannedTemporary temporary;
    temporary.alloc = alloc;
    if (!liveInterval(temporary, body, position, sharing))
      continue;
    temporary.bytes =
        llvm::alignTo(storageBytes(alloc.getType()), kTemporaryAlignment);
    plan.temporaries.push_back(temporary);
  }
  plan.slotBytes = assignSlots(plan.temporaries, sharing);
  return plan;
}

TemporaryPlan tilec::planEntryTemporaries(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>())
    if (tilec::kernel::Entry(module.getContext()).isAttrPresent(func))
      return planTemporaries(func);
  return TemporaryPlan();
}
