//===- DefaultScheduleRule.cpp - The one default GPU schedule rule --------===//
//
// See DefaultScheduleRule.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/DefaultScheduleRule.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>

using namespace tilec;
using namespace tilec::schedule;

DeviceProfile schedule::profileFromLimits(const GPUTargetOptions &limits) {
  DeviceProfile profile;
  profile.computeUnits = limits.computeUnits;
  profile.maxWorkGroupSize = limits.maxWorkGroupSize;
  for (unsigned d = 0; d < 3; ++d)
    profile.maxWorkItemSizes[d] = limits.maxWorkItemSizes[d];
  profile.localMemBytes = limits.localMemBytes;
  profile.subgroupSize = limits.subgroupSize;
  profile.preferredVectorWidth = limits.preferredVectorWidth;
  return profile;
}

DeviceProfile schedule::withinLimits(DeviceProfile device,
                                     const GPUTargetOptions &limits) {
  device.maxWorkGroupSize =
      std::min(device.maxWorkGroupSize, limits.maxWorkGroupSize);
  for (unsigned d = 0; d < 3; ++d)
    device.maxWorkItemSizes[d] =
        std::min(device.maxWorkItemSizes[d], limits.maxWorkItemSizes[d]);
  device.localMemBytes = std::min(device.localMemBytes, limits.localMemBytes);
  return device;
}

KernelSchedule schedule::chooseDefaultGPUSchedule(const KernelModel &kernel,
                                                  const DeviceProfile &device) {
  if (!device.id.empty())
    return rankCandidates(kernel, device, ScheduleKind::GPU, 1).front();
  std::vector<KernelSchedule> ranked =
      rankCandidates(kernel, device, ScheduleKind::GPU,
                     std::numeric_limits<unsigned>::max());
  for (const KernelSchedule &schedule : ranked)
    if (schedule.vector == 1 && !llvm::is_contained(schedule.stage, true))
      return schedule;
  return ranked.front(); // never reached: every tiling comes unstaged too
}
