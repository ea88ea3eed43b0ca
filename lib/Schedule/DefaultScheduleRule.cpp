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

KernelSchedule schedule::chooseDefaultGPUSchedule(const KernelModel &kernel,
                                                  const DeviceProfile &device) {
  if (knowsDevice(device))
    return rankCandidates(kernel, device, ScheduleKind::GPU, 1).front();
  std::vector<KernelSchedule> ranked =
      rankCandidates(kernel, device, ScheduleKind::GPU,
                     std::numeric_limits<unsigned>::max());
  for (const KernelSchedule &schedule : ranked)
    if (schedule.vector == 1 && !llvm::is_contained(schedule.stage, true))
      return schedule;
  return ranked.front(); // never reached: every tiling comes unstaged too
}
