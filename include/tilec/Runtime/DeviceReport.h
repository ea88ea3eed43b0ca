//===- DeviceReport.h - Listing the devices every runtime sees --*- C++ -*-===//
//
// `tilec devices` and `tilec-run --devices` print the same report, as text
// for people or JSON for scripts and the cost model. No LLVM here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_DEVICEREPORT_H
#define TILEC_RUNTIME_DEVICEREPORT_H

#include "tilec/Runtime/Device.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec::rt {

/// What one runtime found: its devices, or why it has none.
struct RuntimeDevices {
  std::string runtime;
  std::vector<DeviceInfo> devices;
  std::string whyNone;
};

/// Asks every runtime of `runtimes` for its devices.
std::vector<RuntimeDevices>
discoverAllDevices(const std::vector<std::unique_ptr<Runtime>> &runtimes);

/// One block per device (id first, then its properties), and one line per
/// runtime without devices saying why.
std::string formatDeviceReport(const std::vector<RuntimeDevices> &report);
/// {"devices": [{...every DeviceInfo field...}], "runtimes": [{"name",
/// "devices", "why_none"}]}, 2-space indented.
std::string formatDeviceReportJson(const std::vector<RuntimeDevices> &report);
/// Reads formatDeviceReportJson's output back (a `tilec devices --json` or
/// `tilec-run --devices --json` dump from another machine), so a compile can
/// target a device that is elsewhere. Fields it lacks stay unknown (0);
/// a field of the wrong type or a device without id or runtime is an error
/// naming `name` and the entry.
Result<std::vector<RuntimeDevices>>
parseDeviceReportJson(const std::string &text, const std::string &name);

} // namespace tilec::rt

#endif // TILEC_RUNTIME_DEVICEREPORT_H
