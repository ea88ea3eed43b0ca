//===- GPUDefaultSchedule.cpp - A GPU schedule from device limits ---------===//
//
// The rules are documented on defaultGPUSchedule (GPUDefaultSchedule.h).
// They aim at what matters first on any GPU: enough work-items per
// work-group to fill a compute unit's subgroups, enough work-groups to
// occupy every compute unit, and for contractions some reuse of loaded
// operands in registers.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/GPUDefaultSchedule.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::schedule;

namespace {

/// Work-groups far above this count cost nothing: the limit only keeps the
/// arithmetic of the group count small.
constexpr int64_t kManyGroups = int64_t(1) << 40;

/// The largest power of two not above `n` (n >= 1).
int64_t floorPowerOf2(int64_t n) {
  return int64_t(1) << llvm::Log2_64(uint64_t(std::max<int64_t>(n, 1)));
}

/// The work-group count of `extents` cut into `block` tiles.
int64_t groupCount(const std::vector<int64_t> &extents,
                   const std::vector<int64_t> &block) {
  int64_t groups = 1;
  for (size_t i = 0; i < extents.size(); ++i)
    groups = std::min<int64_t>(kManyGroups,
                               groups * llvm::divideCeil(extents[i], block[i]));
  return groups;
}

} // namespace

KernelSchedule
tilec::schedule::defaultGPUSchedule(const GPUKernelShape &shape,
                                    const DeviceProfile &target) {
  KernelSchedule schedule;
  const std::vector<int64_t> &extents = shape.parallelExtents;
  size_t numLoops = extents.size();
  if (numLoops == 0)
    return schedule;
  schedule.block.assign(numLoops, 1);
  schedule.thread.assign(numLoops, 1);

  int64_t limit = std::min<int64_t>(target.maxWorkGroupSize, 256);
  if (limit >= target.subgroupSize && target.subgroupSize > 0)
    limit = limit / target.subgroupSize * target.subgroupSize;
  // The band loops that get their own grid dimension, x first; with more
  // than three, the outer ones share z one point at a time (block 1).
  std::vector<size_t> mapped;
  for (size_t d = 0; d < std::min<size_t>(numLoops, 3); ++d)
    if (d < 2 || numLoops == 3)
      mapped.push_back(numLoops - 1 - d);

  int64_t budget = std::max<int64_t>(limit, 1);
  for (size_t d = 0; d < mapped.size(); ++d) {
    size_t loop = mapped[d];
    int64_t cap = floorPowerOf2(std::min(budget, target.maxWorkItemSizes[d]));
    // A contraction reads a row of one operand and a column of the other
    // per output: a square work-group shares the most of both.
    if (shape.reducesInRegisters && d == 0 && mapped.size() >= 2)
      cap = std::min(cap, int64_t(1) << (llvm::Log2_64(uint64_t(limit)) / 2));
    int64_t size = std::min(llvm::PowerOf2Ceil(uint64_t(extents[loop])),
                            uint64_t(cap));
    schedule.block[loop] = size;
    budget /= size;
  }

  // Every compute unit should get a work-group.
  auto workItems = [&] {
    int64_t items = 1;
    for (size_t loop : mapped)
      items *= schedule.block[loop];
    return items;
  };
  while (groupCount(extents, schedule.block) < target.computeUnits &&
         workItems() > target.subgroupSize) {
    size_t widest = *std::max_element(
        mapped.begin(), mapped.end(), [&](size_t a, size_t b) {
          return schedule.block[a] < schedule.block[b];
        });
    if (schedule.block[widest] == 1)
      break;
    schedule.block[widest] /= 2;
  }

  // A 2x2 register tile for contractions wide enough to keep 4 work-groups
  // per side after the tile doubles them.
  if (shape.reducesInRegisters && mapped.size() >= 2) {
    bool wide = true;
    for (size_t d = 0; d < 2; ++d)
      wide &= extents[mapped[d]] >= 4 * 2 * schedule.block[mapped[d]];
    if (wide)
      for (size_t d = 0; d < 2; ++d) {
        schedule.thread[mapped[d]] = 2;
        schedule.block[mapped[d]] *= 2;
      }
  }
  return schedule;
}
