//===- OpenCLInternal.h - Pieces of the OpenCL runtime -----------*- C++
//-*-===//
//
// Device discovery (CLDevices.cpp) and program loading (CLProgram.cpp), which
// OpenCLRuntime.cpp puts behind the Runtime interface.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_OPENCL_OPENCLINTERNAL_H
#define TILEC_LIB_RUNTIME_OPENCL_OPENCLINTERNAL_H

#include "CLHeaders.h"

#include "tilec/Runtime/Device.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec::rt::cl {

/// One OpenCL device and what `tilec devices` says about it.
struct CLDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  DeviceInfo info;
};

/// Every device of every platform the ICD loader finds, in platform order.
/// With none, `whyNone` says why (no loader configuration, no platform, ...).
std::vector<CLDevice> discoverDevices(std::string &whyNone);

/// Builds `source` (OpenCL C) for `device`, creates the kernels and buffers
/// of `manifest` and sets the kernel arguments, ready to run.
Result<std::unique_ptr<Program>> loadProgram(const CLDevice &device,
                                             const Manifest &manifest,
                                             const std::string &source);

} // namespace tilec::rt::cl

#endif // TILEC_LIB_RUNTIME_OPENCL_OPENCLINTERNAL_H
