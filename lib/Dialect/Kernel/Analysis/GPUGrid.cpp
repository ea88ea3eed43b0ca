//===- GPUGrid.cpp - A schedule's work-groups and work-items --------------===//
//
// See GPUGrid.h for the rule. The grid is computed from trip counts alone,
// so the cost model, which never sees the IR, gets the same grid as the
// mapping.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/GPUGrid.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::schedule;

int64_t GPUGrid::workItems() const {
  int64_t items = 1;
  for (const GridDim &dim : dims)
    items *= dim.workItems();
  return items;
}

double GPUGrid::groups() const {
  double count = 1;
  for (const GridDim &dim : dims)
    count *= double(dim.groups());
  return count;
}

GPUGrid tilec::computeGPUGrid(llvm::ArrayRef<int64_t> bandExtents,
                              const KernelSchedule &schedule) {
  GPUGrid grid;
  unsigned n = bandExtents.size();
  // The #tilec.schedule verifier and the schedule file's reader have
  // checked that an order is a permutation.
  llvm::SmallVector<unsigned> order;
  for (unsigned i = 0; i < n; ++i)
    order.push_back(schedule.order.size() == n ? unsigned(schedule.order[i])
                                               : i);
  grid.dimOf.assign(n, 2);
  for (unsigned d = 0; d < 2 && d < n; ++d) {
    grid.dims[d].loops.push_back(order[n - 1 - d]);
    grid.dimOf[order[n - 1 - d]] = d;
  }
  for (unsigned i = 0; i + 2 < n; ++i)
    grid.dims[2].loops.push_back(order[i]);

  for (GridDim &dim : grid.dims) {
    if (dim.loops.empty())
      continue;
    dim.extent = 1;
    for (unsigned loop : dim.loops)
      dim.extent *= bandExtents[loop];
    if (dim.loops.size() > 1)
      continue; // flattened: one point per work-group and work-item
    unsigned loop = dim.loops.front();
    // Thread tiles below one fail validateSchedule; the cost model may
    // still be handed one, and must not divide by zero.
    dim.thread = std::max<int64_t>(schedule.threadOf(loop), 1);
    dim.block = schedule.blockOf(loop);
    if (dim.block == 0)
      dim.block = (dim.extent + dim.thread - 1) / dim.thread * dim.thread;
  }
  return grid;
}

std::string GridViolation::message() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto [a, b, c] = values;
  switch (rule) {
  case Rule::OrderSize:
    os << "order has " << a << " entries but the kernel has " << b
       << " parallel loops";
    break;
  case Rule::BlockNotMultiple:
    os << "block[" << a << "] = " << b << " is not a multiple of thread[" << a
       << "] = " << c;
    break;
  case Rule::DimensionTooLarge:
    os << a << " work-items along "
       << "xyz"[b] << " exceed the device limit of " << c;
    break;
  case Rule::WorkGroupTooLarge:
    os << "a work-group of " << a << " work-items exceeds the device limit of "
       << b;
    break;
  case Rule::VectorWidth:
    os << "vector = " << a << " is not one of 1, 2, 4, 8 and 16";
    break;
  case Rule::VectorWithoutLoop:
    os << "vector = " << a << " needs a parallel loop, and the kernel has none";
    break;
  case Rule::VectorThread:
    os << "vector = " << a << " does not divide thread[" << b << "] = " << c;
    break;
  case Rule::VectorExtent:
    os << "vector = " << a << " does not divide the " << b
       << " iterations of loop " << c;
    break;
  case Rule::VectorStaged:
    os << "vector = " << a << " cannot be combined with staged operands";
    break;
  }
  return text;
}

/// The vector rule: each work-item takes its elements along x as whole
/// vectors of contiguous iterations, and staging copies scalars.
static std::optional<GridViolation>
checkVector(const GPUGrid &grid, const KernelSchedule &schedule) {
  using Rule = GridViolation::Rule;
  int64_t width = schedule.vector;
  if (width == 1)
    return std::nullopt;
  if (width != 2 && width != 4 && width != 8 && width != 16)
    return GridViolation{Rule::VectorWidth, {width}};
  const GridDim &x = grid.dims[0];
  if (x.loops.empty())
    return GridViolation{Rule::VectorWithoutLoop, {width}};
  // The outer-product tiling's vectors are its fragments (or, with tensor
  // cores, its staging loads), checked by OuterProductTiling.h's own rules.
  if (schedule.tilesOuterProduct())
    return std::nullopt;
  int64_t loop = x.loops.front();
  if (x.thread % width != 0)
    return GridViolation{Rule::VectorThread, {width, loop, x.thread}};
  if (x.extent % width != 0)
    return GridViolation{Rule::VectorExtent, {width, x.extent, loop}};
  if (llvm::is_contained(schedule.stage, true))
    return GridViolation{Rule::VectorStaged, {width}};
  return std::nullopt;
}

std::optional<GridViolation> tilec::checkGPUGrid(const GPUGrid &grid,
                                                 const KernelSchedule &schedule,
                                                 const DeviceProfile &device) {
  using Rule = GridViolation::Rule;
  int64_t numLoops = grid.dimOf.size();
  if (!schedule.order.empty() && int64_t(schedule.order.size()) != numLoops)
    return GridViolation{Rule::OrderSize,
                         {int64_t(schedule.order.size()), numLoops}};
  for (unsigned d = 0; d < 3; ++d) {
    const GridDim &dim = grid.dims[d];
    // Only a tiled dimension can break this: a flattened one has 1 and 1.
    if (dim.block % dim.thread != 0)
      return GridViolation{Rule::BlockNotMultiple,
                           {dim.loops.front(), dim.block, dim.thread}};
    if (dim.workItems() > device.maxWorkItemSizes[d])
      return GridViolation{Rule::DimensionTooLarge,
                           {dim.workItems(), d, device.maxWorkItemSizes[d]}};
  }
  if (grid.workItems() > device.maxWorkGroupSize)
    return GridViolation{Rule::WorkGroupTooLarge,
                         {grid.workItems(), device.maxWorkGroupSize}};
  return checkVector(grid, schedule);
}
