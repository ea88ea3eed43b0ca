//===- VulkanRuntime.cpp - Kernels on Vulkan compute devices --------------===//
//
// The Runtime of Device.h for Vulkan. The loader and the instance are opened
// once, on first use, and shared with every program loaded from them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/VulkanRuntime.h"

#include "SpirvModule.h"
#include "VulkanChecks.h"
#include "VulkanDevices.h"
#include "VulkanProgram.h"

namespace tilec::rt {

namespace {

class VulkanRuntime final : public Runtime {
public:
  std::string name() const override { return "vulkan"; }
  std::vector<DeviceInfo> devices() override;
  std::string whyNone() const override { return whyNone_; }
  Result<std::unique_ptr<Program>> load(const std::string &deviceId,
                                        const Manifest &manifest,
                                        const std::string &artefact) override;

private:
  /// Opens the instance and lists its devices, once; afterwards
  /// `physicalDevices_` is filled or `whyNone_` says why not.
  void open();

  bool opened_ = false;
  std::shared_ptr<const vulkan::Instance> instance_;
  std::vector<vulkan::PhysicalDevice> physicalDevices_;
  std::string whyNone_;
};

void VulkanRuntime::open() {
  if (opened_)
    return;
  opened_ = true;
  Result<std::shared_ptr<vulkan::Instance>> instance =
      vulkan::Instance::create();
  if (!instance) {
    whyNone_ = instance.message();
    return;
  }
  instance_ = *instance;
  Result<std::vector<vulkan::PhysicalDevice>> devices =
      vulkan::enumerateDevices(*instance_);
  if (!devices) {
    whyNone_ = devices.message();
    return;
  }
  physicalDevices_ = std::move(*devices);
  if (physicalDevices_.empty())
    whyNone_ = "the Vulkan loader found no device with a compute queue";
}

std::vector<DeviceInfo> VulkanRuntime::devices() {
  open();
  return deviceInfos(physicalDevices_);
}

Result<std::unique_ptr<Program>>
VulkanRuntime::load(const std::string &deviceId, const Manifest &manifest,
                    const std::string &artefact) {
  open();
  Result<const vulkan::PhysicalDevice *> found =
      findDevice(physicalDevices_, deviceId, "Vulkan", whyNone_);
  if (!found)
    return found.status();
  const vulkan::PhysicalDevice *device = *found;
  Result<vulkan::SpirvModule> module = vulkan::parseSpirv(
      artefact, manifest.artefact.empty() ? std::string("the SPIR-V artefact")
                                          : manifest.artefact);
  if (!module)
    return module.status();
  if (Status s = vulkan::checkManifest(manifest, *module, *device); !s)
    return s;
  return vulkan::loadProgram(instance_, *device, manifest, *module);
}

} // namespace

std::unique_ptr<Runtime> createVulkanRuntime() {
  return std::make_unique<VulkanRuntime>();
}

} // namespace tilec::rt
