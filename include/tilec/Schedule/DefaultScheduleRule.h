//===- DefaultScheduleRule.h - The one default GPU schedule rule -*- C++ -*-===//
//
// The schedule a GPU kernel gets when neither an override nor a schedule
// file names one, for every tool: lib/Compiler's scheduleKernels (`tilec
// run`, `bench`, `autotune`, `tilec FILE --device`) and the
// tilec-gpu-default-schedule pass (`tilec FILE` without a device, and
// `tilec-opt --tilec-pipeline-gpu`) call chooseDefaultGPUSchedule, so the
// lit tests of the pass check the rule `tilec` uses (docs/architecture.md,
// "Schedules and autotuning"). The order around it (override, then the
// schedule file, then this rule) is lib/Compiler's KernelSchedules.h; CPU
// kernels get the CPU default-schedule pass's pick from every tool alike.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SCHEDULE_DEFAULTSCHEDULERULE_H
#define TILEC_SCHEDULE_DEFAULTSCHEDULERULE_H

#include "tilec/Schedule/CostModel.h"
#include "tilec/Schedule/DeviceProfile.h"

namespace tilec::schedule {

/// The default schedule of `kernel` on `device`:
///  - on a known device (a profile with an id, from a runtime's report or
///    a device list), the cost model's best-ranked candidate;
///  - with only limits known (a profile without an id: the default profile
///    of a compile without a device, or a #tilec.gpu_target that names
///    none), the best-ranked candidate
///    without staging and vector loads: staging pays on a GPU but costs a
///    CPU OpenCL device barriers per work-item (PoCL ran a staged 512^3
///    matmul 5x slower), and vector loads vary as much, so a compile that
///    does not know the device's kind leaves both to `tilec autotune`.
KernelSchedule chooseDefaultGPUSchedule(const KernelModel &kernel,
                                        const DeviceProfile &device);

} // namespace tilec::schedule

#endif // TILEC_SCHEDULE_DEFAULTSCHEDULERULE_H
