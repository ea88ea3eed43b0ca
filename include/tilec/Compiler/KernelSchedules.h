//===- KernelSchedules.h - Which schedule each kernel compiles with -*- C++ -*-===//
//
// Part of lib/Compiler: puts a schedule on every kernel nest of a
// loop-level module before its target's pipeline runs (overrides, then the
// schedule file, then the cost model ranked on the device's profile) and
// reports each kernel with the schedule it got and where that came from.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_KERNELSCHEDULES_H
#define TILEC_COMPILER_KERNELSCHEDULES_H

#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Schedule/ScheduleFile.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace tilec::compiler {

class Reporter;

/// Which schedules a compile uses, by priority: `overrides` (by kernel
/// fingerprint), then the entries of `file` for the device, then the cost
/// model.
struct ScheduleChoice {
  const schedule::ScheduleFile *file = nullptr;
  std::map<std::string, schedule::KernelSchedule> overrides;
};

/// What a compiled program says about one of its kernels.
struct KernelReport {
  std::string name;
  std::string fingerprint;
  schedule::KernelSchedule schedule;
  /// "override", "file" or "cost-model"; without a schedule "row kernel"
  /// (a CPU row kernel: rows on threads, columns on vectors) or "none" (a
  /// kernel of a form the CPU schedules do not take).
  std::string scheduleSource;
  double flops = 0;           ///< per launch
  double bytes = 0;           ///< unique bytes read and written per launch
};

/// The device a module's kernels are scheduled for.
struct ScheduleTarget {
  std::string deviceId;            ///< whose entries of the file apply
  schedule::DeviceProfile profile; ///< what the cost model ranks on
  bool cpu = false; ///< CPU code: the CPU default-schedule pass picks
};

/// Schedules every kernel of the loop-level `module` for `target` and
/// returns them in program (launch) order. GPU kernels get the default rule
/// on `target.profile` (whose limits the mapping will check); CPU kernels get the CPU default-schedule
/// pass's pick. Flops and bytes come from the cost model's description of
/// each nest (schedule::describeKernel). A malformed schedule is an input
/// error (its diagnostic on `reporter`).
llvm::Expected<std::vector<KernelReport>>
scheduleKernels(mlir::ModuleOp module, const ScheduleTarget &target,
                const ScheduleChoice &schedules, bool verbose,
                Reporter &reporter);

} // namespace tilec::compiler

#endif // TILEC_COMPILER_KERNELSCHEDULES_H
