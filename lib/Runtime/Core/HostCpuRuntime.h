//===- HostCpuRuntime.h - The host CPU as a device --------------*- C++ -*-===//
//
// `tilec devices` lists the host CPU beside the OpenCL and Vulkan devices,
// with the facts the cost model uses for the llvm-x86 target. It runs no
// manifests: native code runs through `tilec run --target=llvm-x86` or the
// object file and header `tilec -o` writes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_CORE_HOSTCPURUNTIME_H
#define TILEC_LIB_RUNTIME_CORE_HOSTCPURUNTIME_H

#include "tilec/Runtime/Device.h"

#include <memory>

namespace tilec::rt {

/// The runtime "cpu": one device, read from /proc/cpuinfo and sysfs.
std::unique_ptr<Runtime> createHostCpuRuntime();

} // namespace tilec::rt

#endif // TILEC_LIB_RUNTIME_CORE_HOSTCPURUNTIME_H
