//===- OpenDevice.h - The runtime and device tilec-run uses -----*- C++ -*-===//

#ifndef TILEC_TOOLS_TILEC_RUN_OPENDEVICE_H
#define TILEC_TOOLS_TILEC_RUN_OPENDEVICE_H

#include "tilec/Runtime/Device.h"
#include "tilec/Support/Result.h"

#include <memory>
#include <string>

namespace tilec::run {

/// A target's runtime and the device chosen on it.
struct OpenedDevice {
  std::unique_ptr<rt::Runtime> runtime;
  rt::DeviceInfo device;
};

/// Opens the runtime of `target` ("opencl", "spirv") and picks `request`
/// (rt::selectDevice's rules); an empty request prefers `compiledFor`, the
/// device the kernels were specialised for, when this machine has it. The
/// error is a runtime failure (exit code 3).
Result<OpenedDevice> openDevice(const std::string &target,
                                const std::string &request,
                                const std::string &compiledFor);

} // namespace tilec::run

#endif // TILEC_TOOLS_TILEC_RUN_OPENDEVICE_H
