//===- DeviceTarget.cpp - One device of one backend, opened ---------------===//
//
// Part of lib/Compiler; see DeviceTarget.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/DeviceTarget.h"

#include "tilec/Runtime/DeviceReport.h"
#include "tilec/Schedule/CPUDefaultSchedule.h"
#include "tilec/Schedule/ProfileCache.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Target/CompileError.h"

#include <fmt/format.h>

using namespace tilec;
using namespace tilec::compiler;

namespace {

/// The devices of `backend`'s runtime in a device list.
llvm::Expected<std::vector<rt::DeviceInfo>>
devicesFromList(const TargetBackend &backend, const std::string &path) {
  Result<std::string> text = readFileBytes(path);
  if (!text)
    return inputError(text.message());
  Result<std::vector<rt::RuntimeDevices>> report =
      rt::parseDeviceReportJson(*text, path);
  if (!report)
    return inputError(report.message());
  std::vector<rt::DeviceInfo> devices;
  for (rt::RuntimeDevices &entry : *report)
    if (entry.runtime == backend.runtime())
      for (rt::DeviceInfo &device : entry.devices)
        devices.push_back(std::move(device));
  if (devices.empty())
    return inputError(fmt::format("{}: lists no {} device, which target '{}' "
                                  "needs",
                                  path, backend.runtime().str(),
                                  backend.name().str()));
  return devices;
}

/// The profile the cost model sees: the device's properties (the host's
/// SIMD and caches for a CPU backend) and the peaks `tilec devices --probe`
/// measured, when the cache has them.
schedule::DeviceProfile profileOf(const TargetBackend &backend,
                                  const rt::DeviceInfo &device) {
  schedule::DeviceProfile profile =
      backend.kind() == BackendKind::CPU
          ? schedule::hostCPUProfile()
          : schedule::profileFromDeviceInfo(device);
  profile.id = device.id;
  std::string warning;
  schedule::ProfileCache cache = schedule::ProfileCache::load(
      schedule::defaultProfileCachePath(), warning);
  // A corrupt cache is `devices --probe`'s to report and rebuild; here it
  // only means the peaks are estimated.
  schedule::applyCachedPeaks(profile, device, cache);
  return profile;
}

} // namespace

llvm::Expected<DeviceTarget>
tilec::compiler::openDeviceTarget(const TargetBackend &backend,
                                  const std::string &request,
                                  const std::string &devicesFrom,
                                  unsigned optLevel) {
  DeviceTarget opened;
  opened.backend = &backend;
  std::vector<rt::DeviceInfo> devices;
  if (!devicesFrom.empty()) {
    llvm::Expected<std::vector<rt::DeviceInfo>> listed =
        devicesFromList(backend, devicesFrom);
    if (!listed)
      return listed.takeError();
    devices = std::move(*listed);
  } else {
    std::unique_ptr<rt::Runtime> runtime = backend.createRuntime(optLevel);
    if (!runtime)
      return runtimeError(fmt::format("this build has no {} runtime, which "
                                      "{} artefacts need",
                                      backend.runtime().str(),
                                      backend.name().str()));
    Result<rt::TargetRuntime> found = rt::openRuntime(std::move(runtime));
    if (!found)
      return runtimeError(found.message());
    devices = std::move(found->devices);
    opened.runtime = std::move(found->runtime);
  }
  Result<rt::DeviceInfo> device = rt::selectDevice(devices, request);
  if (!device)
    return runtimeError(device.message());
  opened.device = std::move(*device);
  opened.profile = profileOf(backend, opened.device);
  return opened;
}

ScheduleTarget tilec::compiler::scheduleTargetOf(const DeviceTarget &device) {
  return {device.device.id, device.profile,
          device.backend->kind() == BackendKind::CPU};
}
