//===- OpenDevice.cpp - The runtime and device tilec-run uses -------------===//

#include "OpenDevice.h"

using namespace tilec;
using namespace tilec::run;

Result<OpenedDevice> tilec::run::openDevice(const std::string &target,
                                            const std::string &request,
                                            const std::string &compiledFor) {
  // Only the runtime of the artefact's target can run it.
  Result<rt::TargetRuntime> opened = rt::openTargetRuntime(target);
  if (!opened)
    return opened.status();
  std::string choice = request;
  for (const rt::DeviceInfo &candidate : opened->devices)
    if (choice.empty() && !compiledFor.empty() && candidate.id == compiledFor)
      choice = candidate.id;
  Result<rt::DeviceInfo> device = rt::selectDevice(opened->devices, choice);
  if (!device)
    return device.status();
  return OpenedDevice{std::move(opened->runtime), std::move(*device)};
}
