//===- GPUGrid.cpp - A GPU schedule's grid, as the cost model sees it -----===//
//
// Mirrors the mapping's resolution of a schedule (KernelPlan.cpp's
// assignLoops and sizeDim, with the loop order of the autotuning issue) on
// plain numbers, so the cost model never needs the IR.
//
//===----------------------------------------------------------------------===//

#include "GPUGrid.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace tilec::schedule;

int64_t GPUGrid::workItems() const {
  int64_t items = 1;
  for (const GPUGridDim &dim : dims)
    items *= dim.workItems();
  return items;
}

double GPUGrid::groups() const {
  double count = 1;
  for (const GPUGridDim &dim : dims)
    count *= double(dim.groups());
  return count;
}

int64_t tilec::schedule::loopExtent(const KernelModel &kernel,
                                    unsigned loop) {
  size_t parallel = kernel.parallelExtents.size();
  if (loop < parallel)
    return kernel.parallelExtents[loop];
  loop -= parallel;
  return loop < kernel.reductionExtents.size() ? kernel.reductionExtents[loop]
                                               : 1;
}

GPUGrid tilec::schedule::gridOf(const KernelModel &kernel,
                                const KernelSchedule &schedule) {
  GPUGrid grid;
  unsigned n = kernel.parallelExtents.size();
  std::vector<unsigned> order;
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

  for (GPUGridDim &dim : grid.dims) {
    if (dim.loops.empty())
      continue;
    dim.extent = 1;
    for (unsigned loop : dim.loops)
      dim.extent *= kernel.parallelExtents[loop];
    if (dim.loops.size() > 1)
      continue; // flattened: one point per work-group and work-item
    unsigned loop = dim.loops.front();
    dim.thread = std::max<int64_t>(schedule.threadOf(loop), 1);
    dim.block = schedule.blockOf(loop);
    if (dim.block == 0)
      dim.block = (dim.extent + dim.thread - 1) / dim.thread * dim.thread;
  }
  return grid;
}

int64_t tilec::schedule::stagedBytes(const KernelModel &kernel,
                                     const KernelSchedule &schedule,
                                     const GPUGrid &grid) {
  unsigned n = kernel.parallelExtents.size();
  // The span (last minus first value) of each loop over one work-group and
  // one reduction block: the staging plan's LoopRange.
  std::vector<int64_t> span;
  for (unsigned loop = 0; loop < n; ++loop) {
    const GPUGridDim &dim = grid.dims[grid.dimOf[loop]];
    span.push_back(dim.loops.size() == 1 ? dim.block - 1 : 0);
  }
  for (unsigned r = 0; r < kernel.reductionExtents.size(); ++r) {
    int64_t extent = kernel.reductionExtents[r];
    int64_t block = r == 0 ? schedule.blockOf(n) : extent;
    if (block <= 0 || block > extent)
      block = extent;
    span.push_back(block - 1);
  }
  int64_t bytes = 0;
  for (auto [index, operand] : llvm::enumerate(kernel.operands)) {
    if (!schedule.stages(index))
      continue;
    int64_t elements = 1;
    for (auto [d, row] : llvm::enumerate(operand.coefficients)) {
      int64_t size = 1 + operand.offsetSpread[d];
      for (auto [loop, coefficient] : llvm::enumerate(row))
        size += coefficient * span[loop];
      elements *= size;
    }
    bytes += elements * operand.elementBytes;
  }
  return bytes;
}
