//===- DefaultScheduleRule.cpp - The one default GPU schedule rule --------===//
//
// See DefaultScheduleRule.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/DefaultScheduleRule.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilec;
using namespace tilec::schedule;

KernelSchedule schedule::chooseDefaultGPUSchedule(const KernelModel &kernel,
                                                  const DeviceProfile &device) {
  if (knowsDevice(device))
    return rankCandidates(kernel, device, ScheduleKind::GPU, 1).front();
  // Only the portable candidates are enumerated and estimated (ranking
  // them all took a fifth of MobileNet's compile without a device), so the
  // hand-written default keeps its margin against the rivals it can lose
  // to here, not against staged or vector ones that cannot be chosen.
  auto portable = [](const KernelSchedule &schedule) {
    return schedule.vector == 1 && !llvm::is_contained(schedule.stage, true);
  };
  return rankCandidates(kernel, device, ScheduleKind::GPU, 1, portable).front();
}
