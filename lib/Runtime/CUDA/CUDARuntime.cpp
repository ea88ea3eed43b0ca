//===- CUDARuntime.cpp - Kernels on NVIDIA GPUs through CUDA --------------===//
//
// The Runtime of Device.h for CUDA. The driver is opened once, on first
// use, and shared with every program loaded from it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/CUDARuntime.h"

#include "CudaApi.h"
#include "CudaChecks.h"
#include "CudaDevices.h"
#include "CudaProgram.h"

using namespace tilec;
using namespace tilec::rt;

namespace {

class CUDARuntime final : public Runtime {
public:
  std::string name() const override { return "cuda"; }
  std::vector<DeviceInfo> devices() override;
  std::string whyNone() const override { return whyNone_; }
  Result<std::unique_ptr<Program>> load(const std::string &deviceId,
                                        const Manifest &manifest,
                                        const std::string &artefact) override;

private:
  /// Opens the driver and lists its devices, once; afterwards `devices_`
  /// is filled or `whyNone_` says why not.
  void open();

  bool opened_ = false;
  std::shared_ptr<const cuda::Driver> driver_;
  std::vector<cuda::CudaDevice> devices_;
  std::string whyNone_;
};

void CUDARuntime::open() {
  if (opened_)
    return;
  opened_ = true;
  Result<std::shared_ptr<cuda::Driver>> driver = cuda::Driver::open();
  if (!driver) {
    whyNone_ = driver.message();
    return;
  }
  driver_ = *driver;
  Result<std::vector<cuda::CudaDevice>> devices =
      cuda::enumerateDevices(*driver_);
  if (!devices) {
    whyNone_ = devices.message();
    return;
  }
  devices_ = std::move(*devices);
  if (devices_.empty())
    whyNone_ = "the CUDA driver found no device";
}

std::vector<DeviceInfo> CUDARuntime::devices() {
  open();
  return deviceInfos(devices_);
}

Result<std::unique_ptr<Program>>
CUDARuntime::load(const std::string &deviceId, const Manifest &manifest,
                  const std::string &artefact) {
  open();
  Result<const cuda::CudaDevice *> found =
      findDevice(devices_, deviceId, "CUDA", whyNone_);
  if (!found)
    return found.status();
  const cuda::CudaDevice *device = *found;
  if (Status s = cuda::checkManifest(manifest, device->info); !s)
    return s;
  return cuda::loadProgram(driver_, *device, manifest, artefact);
}

} // namespace

std::unique_ptr<Runtime> tilec::rt::createCUDARuntime() {
  return std::make_unique<CUDARuntime>();
}
