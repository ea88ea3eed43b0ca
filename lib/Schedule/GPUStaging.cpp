//===- GPUStaging.cpp - Staged bytes, as the cost model sees them ---------===//
//
// Bounds each staged operand's tile by the largest coefficient of each loop
// in each index, over the span every loop covers in one work-group and one
// reduction block: the staging plan's LoopRange on plain numbers.
//
//===----------------------------------------------------------------------===//

#include "GPUStaging.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilec;
using namespace tilec::schedule;

int64_t tilec::schedule::stagedBytes(const KernelModel &kernel,
                                     const KernelSchedule &schedule,
                                     const GPUGrid &grid) {
  unsigned n = kernel.parallelExtents.size();
  // The span (last minus first value) of each loop over one work-group and
  // one reduction block: the staging plan's LoopRange.
  std::vector<int64_t> span;
  for (unsigned loop = 0; loop < n; ++loop) {
    const GridDim &dim = grid.dims[grid.dimOf[loop]];
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
