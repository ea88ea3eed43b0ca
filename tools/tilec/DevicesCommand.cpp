//===- DevicesCommand.cpp - tilec devices [--probe] [--json] --------------===//
//
// Lists every device the runtimes of this build see (OpenCL, Vulkan when
// built, the host CPU) with the properties the cost model uses and the id
// that --device and schedule files take. The listing is the runtime
// library's, so `tilec-run --devices` prints exactly the same; this command
// adds the peaks `--probe` measured, which it keeps in the profile cache
// (ProfileCache.h) for the cost model and `tilec bench`.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "DriverError.h"

#include "tilec/Autotune/DeviceProbe.h"
#include "tilec/Compiler/DeviceTarget.h"
#include "tilec/Target/TargetBackend.h"

#include "tilec/Runtime/DeviceReport.h"
#include "tilec/Schedule/ProfileCache.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;
using json = nlohmann::json;

CLI::App *tilec::driver::addDevicesCommand(CLI::App &app,
                                           DevicesOptions &options) {
  CLI::App *command = app.add_subcommand(
      "devices", "list the devices tilec can use, with the id --device takes");
  command->add_flag("--json", options.json, "print the list as JSON");
  command->add_flag(
      "--probe", options.probe,
      "measure each device's peak bandwidth (a large copy) and compute rate "
      "(tilec's own code on a long multiply-add chain), a few hundred ms per "
      "device, and keep them in $XDG_CACHE_HOME/tilec/device-profiles.json "
      "for the cost model and 'tilec bench'");
  command
      ->add_option("--device", options.device,
                   "with --probe: probe only this device (an id, a unique "
                   "part of an id or name, or an index into the list)")
      ->type_name("D")
      ->check(nonEmpty());
  command->footer(exitCodeHelp());
  return command;
}

namespace {

/// The backend whose code runs on a device of `runtime` (the first
/// registered one), or null.
const TargetBackend *backendOfRuntime(const std::string &runtime) {
  for (const TargetBackend *backend : targetBackends())
    if (backend->available() && backend->runtime() == runtime)
      return backend;
  return nullptr;
}

/// The devices of `report` to probe: all of them, or the one `request`
/// names.
std::vector<rt::DeviceInfo>
devicesToProbe(const std::vector<rt::RuntimeDevices> &report,
               const std::string &request) {
  std::vector<rt::DeviceInfo> all;
  for (const rt::RuntimeDevices &entry : report)
    all.insert(all.end(), entry.devices.begin(), entry.devices.end());
  if (request.empty())
    return all;
  Result<rt::DeviceInfo> chosen = rt::selectDevice(all, request);
  if (!chosen)
    failRuntime(chosen.message());
  return {*chosen};
}

/// Probes `devices` into `cache`; returns how many failed (each said why on
/// stderr).
unsigned probeAll(const std::vector<rt::DeviceInfo> &devices,
                  schedule::ProfileCache &cache) {
  unsigned failures = 0;
  for (const rt::DeviceInfo &device : devices) {
    const TargetBackend *backend = backendOfRuntime(device.runtime);
    if (!backend)
      continue;
    llvm::Expected<DeviceTarget> opened = openDeviceTarget(*backend, device.id);
    llvm::Expected<schedule::MeasuredPeaks> peaks =
        opened ? autotune::probeDevice(*opened, driverReporter())
               : opened.takeError();
    if (!peaks) {
      llvm::errs() << fmt::format("tilec: warning: probing {} failed: {}\n",
                                  device.id,
                                  llvm::toString(peaks.takeError()));
      ++failures;
      continue;
    }
    cache.store(device, *peaks);
  }
  return failures;
}

/// Whether `cache` has the peaks of a device of `report`.
bool anyProbed(const std::vector<rt::RuntimeDevices> &report,
               const schedule::ProfileCache &cache) {
  for (const rt::RuntimeDevices &entry : report)
    for (const rt::DeviceInfo &device : entry.devices)
      if (cache.lookup(device))
        return true;
  return false;
}

/// The measured peaks of every listed device, after the runtime library's
/// listing; nothing when none was probed, so that the listing stays the
/// same as `tilec-run --devices`.
std::string peaksText(const std::vector<rt::RuntimeDevices> &report,
                      const schedule::ProfileCache &cache) {
  if (!anyProbed(report, cache))
    return "";
  std::string text =
      fmt::format("\nmeasured peaks ({}):\n",
                  cache.path().empty() ? "no cache folder" : cache.path());
  for (const rt::RuntimeDevices &entry : report) {
    for (const rt::DeviceInfo &device : entry.devices) {
      const schedule::MeasuredPeaks *peaks = cache.lookup(device);
      text += "  " + device.id + ": ";
      text += peaks ? fmt::format("{:.2f} GB/s copy, {:.2f} GFLOP/s "
                                  "multiply-add chain (tilec's code), {}\n",
                                  peaks->bytesPerSecond / 1e9,
                                  peaks->flopsPerSecond / 1e9, peaks->date)
                    : std::string("not probed ('tilec devices --probe')\n");
    }
  }
  return text;
}

/// The runtime library's JSON with "measured_peaks" added to each probed
/// device.
std::string peaksJson(const std::vector<rt::RuntimeDevices> &report,
                      const schedule::ProfileCache &cache) {
  if (!anyProbed(report, cache))
    return rt::formatDeviceReportJson(report);
  json root = json::parse(rt::formatDeviceReportJson(report));
  size_t index = 0;
  for (const rt::RuntimeDevices &entry : report) {
    for (const rt::DeviceInfo &device : entry.devices) {
      json &object = root["devices"][index++];
      const schedule::MeasuredPeaks *peaks = cache.lookup(device);
      if (peaks)
        object["measured_peaks"] = {{"bytes_per_second", peaks->bytesPerSecond},
                                    {"flops_per_second", peaks->flopsPerSecond},
                                    {"date", peaks->date}};
    }
  }
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace

void tilec::driver::runDevicesCommand(const DevicesOptions &options) {
  std::vector<std::unique_ptr<rt::Runtime>> runtimes = rt::allRuntimes();
  // A runtime without devices is reported, not an error: the list is what
  // this machine has.
  std::vector<rt::RuntimeDevices> report = rt::discoverAllDevices(runtimes);
  if (!options.device.empty() && !options.probe)
    failUsage("--device applies to 'devices --probe' only");
  // Probing opens each runtime again for itself; these are no longer needed.
  runtimes.clear();

  std::string warning;
  schedule::ProfileCache cache = schedule::ProfileCache::load(
      schedule::defaultProfileCachePath(), warning);
  if (!warning.empty())
    llvm::errs() << "tilec: warning: " << warning << "\n";
  unsigned failures = 0;
  if (options.probe) {
    failures = probeAll(devicesToProbe(report, options.device), cache);
    if (Status saved = cache.save(); !saved)
      failRuntime(saved.message());
  }
  llvm::outs() << (options.json ? peaksJson(report, cache)
                                : rt::formatDeviceReport(report) +
                                      peaksText(report, cache));
  if (failures)
    failRuntime(fmt::format("{} device(s) could not be probed", failures));
}
