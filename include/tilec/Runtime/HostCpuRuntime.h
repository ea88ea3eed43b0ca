//===- HostCpuRuntime.h - The host CPU as a device --------------*- C++ -*-===//
//
// `tilec devices` lists the host CPU beside the OpenCL and Vulkan devices,
// with the facts the cost model uses for the llvm-x86 target. This class is
// the runtime "cpu" of every build: it describes the device and, alone, loads
// nothing, because running native code needs LLVM. Builds that have LLVM run
// llvm-x86 programs through its subclass in lib/Runtime/JIT
// (tilec/Runtime/JITRuntime.h), so the host is one rt::Runtime like the
// others (docs/architecture.md) and the LLVM-free layer still lists it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_HOSTCPURUNTIME_H
#define TILEC_RUNTIME_HOSTCPURUNTIME_H

#include "tilec/Runtime/Device.h"

#include <memory>

namespace tilec::rt {

/// The runtime "cpu": one device, read from /proc/cpuinfo and sysfs.
class HostCpuRuntime : public Runtime {
public:
  std::string name() const override { return "cpu"; }
  std::vector<DeviceInfo> devices() override;
  /// An error that says how native code runs instead (tilec run
  /// --target=llvm-x86, or tilec -o for an object file); the JIT overrides it.
  Result<std::unique_ptr<Program>> load(const std::string &deviceId,
                                        const Manifest &manifest,
                                        const std::string &artefact) override;
};

std::unique_ptr<Runtime> createHostCpuRuntime();

} // namespace tilec::rt

#endif // TILEC_RUNTIME_HOSTCPURUNTIME_H
