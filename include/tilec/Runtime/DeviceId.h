//===- DeviceId.h - Building stable device identifiers ----------*- C++ -*-===//
//
// Every runtime names its devices the same way (DeviceInfo::id), so that
// --device values and schedule files keep working across runs and machines
// with the same hardware. No LLVM here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_DEVICEID_H
#define TILEC_RUNTIME_DEVICEID_H

#include "tilec/Runtime/Device.h"

#include <string>
#include <string_view>
#include <vector>

namespace tilec::rt {

/// One part of a device id: lower-cased, trademark marks ("(R)", "(TM)")
/// dropped, and every run of other characters than [a-z0-9._] turned into a
/// single '-' ("Intel(R) Xeon(R) Gold" -> "intel-xeon-gold").
std::string deviceIdPart(std::string_view text);

/// The id of a device about to be appended to `earlier`:
/// "<runtime>:<vendor>:<name>:<index>", each part through deviceIdPart, the
/// index counting the devices in `earlier` with the same first three parts.
std::string nextDeviceId(std::string_view runtime, std::string_view vendor,
                         std::string_view name,
                         const std::vector<DeviceInfo> &earlier);

} // namespace tilec::rt

#endif // TILEC_RUNTIME_DEVICEID_H
