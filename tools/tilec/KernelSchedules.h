//===- KernelSchedules.h - Which schedule each kernel compiles with -*- C++ -*-===//
//
// Part of the tilec driver's device session: puts a schedule on every
// kernel nest of a loop-level module before its target's pipeline runs
// (overrides, then the schedule file, then the cost model ranked on the
// device's profile) and reports each kernel with the schedule it got and
// where that came from.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_KERNELSCHEDULES_H
#define TILEC_TOOLS_TILEC_KERNELSCHEDULES_H

#include "DeviceSession.h"

#include "tilec/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace tilec::driver {

/// Schedules every kernel of the loop-level `module` for `device` and
/// returns them in program (launch) order. GPU schedules respect `limits`
/// (what the mapping will check); CPU kernels get the CPU default-schedule
/// pass's pick. Flops and bytes come from the cost model's description of
/// each nest (schedule::describeKernel). A malformed schedule is an input
/// error.
std::vector<KernelReport> scheduleKernels(mlir::ModuleOp module,
                                          const DeviceTarget &device,
                                          const GPUTargetOptions &limits,
                                          const ScheduleChoice &schedules,
                                          bool verbose);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_KERNELSCHEDULES_H
