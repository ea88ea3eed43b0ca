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

/// The live interval of `alloc` over the ops of `body` (numbered by
/// `position`), or std::nullopt when it is no temporary (TemporaryPlan.h).
static std::optional<std::pair<unsigned, unsigned>>
liveInterval(memref::AllocOp alloc, Block &body,
             const llvm::DenseMap<Operation *, unsigned> &position) {
  unsigned first = ~0u, last = 0;
  for (OpOperand &use : alloc.getResult().getUses()) {
    Operation *top = body.findAncestorOpInBlock(*use.getOwner());
    if (!top)
      return std::nullopt;
    if (top == use.getOwner() && isa<memref::DeallocOp>(top))
      continue;
    // An op that yields a memref may yield an alias of the temporary that
    // lives on after it; a return hands the temporary to the caller.
    if (isa<func::ReturnOp>(top) ||
        llvm::any_of(top->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
      return std::nullopt;
    first = std::min(first, position.at(top));
    last = std::max(last, position.at(top));
  }
  if (first > last) // allocated, never used: alive at its allocation only
    first = last = position.at(alloc);
  return std::make_pair(first, last);
}

/// Gives each of `temporaries` a slot, greedy by size (TemporaryPlan.h).
static std::vector<uint64_t>
assignSlots(std::vector<PlannedTemporary> &temporaries) {
  std::vector<size_t> bySize(temporaries.size());
  std::iota(bySize.begin(), bySize.end(), 0);
  llvm::sort(bySize, [&](size_t a, size_t b) {
    if (temporaries[a].bytes != temporaries[b].bytes)
      return temporaries[a].bytes > temporaries[b].bytes;
    return a < b;
  });
  std::vector<uint64_t> slotBytes;
  std::vector<std::vector<const PlannedTemporary *>> members;
  for (size_t index : bySize) {
    PlannedTemporary &temporary = temporaries[index];
    auto overlaps = [&](const PlannedTemporary *other) {
      return other->first <= temporary.last && temporary.first <= other->last;
    };
    unsigned slot = 0;
    while (slot < members.size() && llvm::any_of(members[slot], overlaps))
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

TemporaryPlan tilec::planTemporaries(func::FuncOp func) {
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
    auto interval = liveInterval(alloc, body, position);
    if (!interval)
      continue;
    PlannedTemporary temporary;
    temporary.alloc = alloc;
    temporary.first = interval->first;
    temporary.last = interval->second;
    temporary.bytes =
        llvm::alignTo(storageBytes(alloc.getType()), kTemporaryAlignment);
    plan.temporaries.push_back(temporary);
  }
  plan.slotBytes = assignSlots(plan.temporaries);
  return plan;
}

TemporaryPlan tilec::planEntryTemporaries(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>())
    if (tilec::kernel::Entry(module.getContext()).isAttrPresent(func))
      return planTemporaries(func);
  return TemporaryPlan();
}
