//===- RowPlan.cpp - How a row nest maps to work-groups -------------------===//
//
// A schedule with `row` = W runs a row nest (RowNest.h) as one work-group
// of W work-items per row, the rows flattened onto grid x: so a row of
// 4096 floats is read by 256 work-items 16 columns apart, coalesced, and
// each reduction is a tree in local memory. The columns a work-item takes
// are unrolled (RowBody.cpp), so a buffer that only this kernel uses stays
// in registers: at most kMaxRowColumnsPerItem of them (RowNest.h).
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"

#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Whether every use of `memref` other than its deallocation lies in
/// `kernel`, where the first access in program order is a store.
bool onlyWithin(Value memref, affine::AffineForOp kernel) {
  if (!memref.getDefiningOp<memref::AllocOp>())
    return false;
  for (Operation *user : memref.getUsers())
    if (!isa<memref::DeallocOp>(user) && !kernel->isAncestor(user))
      return false;
  bool storedFirst = false, decided = false;
  kernel.walk([&](Operation *op) {
    if (decided)
      return;
    if (auto store = dyn_cast<affine::AffineStoreOp>(op);
        store && store.getMemRef() == memref)
      storedFirst = decided = true;
    else if (auto load = dyn_cast<affine::AffineLoadOp>(op);
             load && load.getMemRef() == memref)
      decided = true;
  });
  return storedFirst;
}

} // namespace

LogicalResult tilec::planRows(KernelPlan &plan,
                              const schedule::DeviceProfile &target) {
  int64_t items = plan.schedule.row;
  std::optional<RowNest> nest = matchRowNest(plan.root, plan.band);
  if (!nest)
    return scheduleError(plan)
           << "row = " << items
           << " needs a row nest: reductions, loops and scalars of each row "
              "whose written buffers are read at the row and column they "
              "were written";
  if (!llvm::isPowerOf2_64(uint64_t(items)))
    return scheduleError(plan) << "row = " << items << " is no power of 2";
  int64_t limit = std::min(target.maxWorkGroupSize, target.maxWorkItemSizes[0]);
  if (items > limit)
    return scheduleError(plan) << "row = " << items
                               << " work-items exceed the device's " << limit;
  int64_t perItem = llvm::divideCeil(nest->columns, items);
  if (perItem > kMaxRowColumnsPerItem)
    return scheduleError(plan)
           << "row = " << items << " leaves " << perItem
           << " columns per work-item, above " << kMaxRowColumnsPerItem;

  RowPlan rows;
  rows.nest = *nest;
  rows.items = items;
  rows.perItem = perItem;
  // Shuffles within subgroups where the device has them (CUDA's warps, GL
  // with GL_KHR_shader_subgroup); elsewhere a tree in local memory.
  rows.shuffleLanes = schedule::rowShuffleLanes(target, items);
  auto workgroup = gpu::AddressSpaceAttr::get(plan.root.getContext(),
                                              gpu::AddressSpace::Workgroup);
  int64_t scratchBytes = 0;
  for (const RowStep &step : nest->steps) {
    if (step.kind != RowStep::Kind::Reduction)
      continue;
    Type element = step.op->getResult(0).getType();
    if (!element.isIntOrFloat())
      return scheduleError(plan) << "row = " << items
                                 << " cannot reduce values of type "
                                 << element;
    rows.scratch.push_back(MemRefType::get({items}, element,
                                           MemRefLayoutAttrInterface(),
                                           workgroup));
    scratchBytes += items * int64_t(llvm::divideCeil(
                                element.getIntOrFloatBitWidth(), 8));
  }
  if (scratchBytes > target.localMemBytes)
    return scheduleError(plan) << "row = " << items << " needs "
                               << scratchBytes
                               << " bytes of local memory, above the device's "
                               << target.localMemBytes;
  for (auto &[memref, use] : nest->written)
    if (onlyWithin(memref, plan.root))
      rows.privateBuffers.insert(memref);

  // Launch geometry: the rows flattened onto grid x, `items` work-items
  // each; nothing on y and z.
  int64_t rowCount = 1;
  for (int64_t extent : getBandExtents(plan.band))
    rowCount *= extent;
  plan.dims[0] = GridDim{{}, rowCount * items, items, 1};
  plan.dims[1] = GridDim();
  plan.dims[2] = GridDim();
  plan.rows = std::move(rows);
  return success();
}
