//===- OpenCLRuntime.cpp - The OpenCL runtime behind the Runtime API ------===//

#include "OpenCLInternal.h"

#include "tilec/Runtime/OpenCLRuntime.h"

using namespace tilec;
using namespace tilec::rt;

namespace {

class OpenCLRuntime final : public Runtime {
public:
  std::string name() const override { return "opencl"; }

  std::vector<DeviceInfo> devices() override {
    discover();
    std::vector<DeviceInfo> infos;
    for (const cl::CLDevice &device : found)
      infos.push_back(device.info);
    return infos;
  }

  std::string whyNone() const override { return why; }

  Result<std::unique_ptr<Program>> load(const std::string &deviceId,
                                        const Manifest &manifest,
                                        const std::string &artefact) override {
    discover();
    for (const cl::CLDevice &device : found)
      if (device.info.id == deviceId)
        return cl::loadProgram(device, manifest, artefact);
    return Result<std::unique_ptr<Program>>::error(
        "no OpenCL device has the id '" + deviceId + "'");
  }

private:
  /// Platforms are queried once per runtime object.
  void discover() {
    if (!discovered)
      found = cl::discoverDevices(why);
    discovered = true;
  }

  bool discovered = false;
  std::vector<cl::CLDevice> found;
  std::string why;
};

} // namespace

std::unique_ptr<Runtime> tilec::rt::createOpenCLRuntime() {
  return std::make_unique<OpenCLRuntime>();
}
