//===- DeviceTarget.h - One device of one backend, opened -------*- C++ -*-===//
//
// Part of lib/Compiler: what `tilec run`, `bench`, `autotune` and a compile
// for a device (`tilec FILE --device=D`) start from. A backend's device is
// found by rt::selectDevice's rules among what its runtime sees here, or in
// a device list from another machine (`tilec devices --json`, `tilec-run
// --devices --json`), and its profile is made once: the runtime's report,
// the peaks `tilec devices --probe` cached, and for the host CPU its SIMD
// and caches.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_DEVICETARGET_H
#define TILEC_COMPILER_DEVICETARGET_H

#include "tilec/Compiler/KernelSchedules.h"
#include "tilec/Runtime/Device.h"
#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Target/TargetBackend.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace tilec::compiler {

/// One device of one backend.
struct DeviceTarget {
  const TargetBackend *backend = nullptr;
  rt::DeviceInfo device;
  /// The runtime that loads and runs the backend's artefacts on it; null
  /// for a device read from a device list, which runs nothing here.
  std::unique_ptr<rt::Runtime> runtime;
  schedule::DeviceProfile profile; ///< with cached probe results
};

/// Opens the device of `backend` named by `request` (rt::selectDevice's
/// rules). With `devicesFrom`, the device is taken from that device list
/// instead and nothing is opened. `optLevel` is -O of a runtime that
/// compiles (the host JIT). Failures are CompileErrors: a runtime error when
/// the runtime sees no such device, a usage error for a backend that runs
/// on none, an input error for an unreadable device list.
llvm::Expected<DeviceTarget> openDeviceTarget(const TargetBackend &backend,
                                              const std::string &request,
                                              const std::string &devicesFrom = "",
                                              unsigned optLevel = 2);

/// What schedule choice (KernelSchedules.h) needs to know of `device`.
ScheduleTarget scheduleTargetOf(const DeviceTarget &device);

} // namespace tilec::compiler

#endif // TILEC_COMPILER_DEVICETARGET_H
