//===- VulkanDevices.cpp - What a Vulkan physical device offers -----------===//

#include "VulkanDevices.h"
#include "VulkanError.h"

#include "tilec/Runtime/DeviceId.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace tilec::rt::vulkan {

namespace {

std::string versionString(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." +
         std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

/// PCI vendor ids of the Vulkan implementations one meets, and Khronos's ids
/// for vendors without one (VkVendorId).
std::string vendorName(uint32_t vendorId) {
  static const std::pair<uint32_t, const char *> known[] = {
      {0x10DE, "nvidia"},   {0x1002, "amd"},
      {0x8086, "intel"},    {0x13B5, "arm"},
      {0x5143, "qualcomm"}, {0x1010, "imagination"},
      {0x106B, "apple"},    {VK_VENDOR_ID_MESA, "mesa"}};
  for (const auto &[id, name] : known)
    if (id == vendorId)
      return name;
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%x", vendorId);
  return hex;
}

/// NVIDIA packs its driver version as 10.8.8.6 bits; others use the API
/// version layout.
std::string driverVersionString(const VkPhysicalDeviceProperties &p) {
  uint32_t v = p.driverVersion;
  if (p.vendorID == 0x10DE)
    return std::to_string(v >> 22) + "." + std::to_string((v >> 14) & 0xFF) +
           "." + std::to_string((v >> 6) & 0xFF);
  return versionString(v);
}

std::string deviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "gpu";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "cpu";
  default:
    return "other";
  }
}

std::vector<std::string> deviceExtensions(const Api &api,
                                          VkPhysicalDevice device) {
  uint32_t count = 0;
  std::vector<VkExtensionProperties> props;
  if (api.vkEnumerateDeviceExtensionProperties(device, nullptr, &count,
                                               nullptr) == VK_SUCCESS) {
    props.resize(count);
    if (api.vkEnumerateDeviceExtensionProperties(device, nullptr, &count,
                                                 props.data()) != VK_SUCCESS)
      count = 0;
    props.resize(count);
  }
  std::vector<std::string> names;
  for (const VkExtensionProperties &p : props)
    names.push_back(p.extensionName);
  std::sort(names.begin(), names.end());
  return names;
}

bool hasExtension(const std::vector<std::string> &exts, const char *name) {
  return std::binary_search(exts.begin(), exts.end(), std::string(name));
}

/// Picks the compute queue family: the first with timestamps, else the first
/// with compute at all.
void chooseQueueFamily(const Api &api, PhysicalDevice &dev) {
  uint32_t count = 0;
  api.vkGetPhysicalDeviceQueueFamilyProperties(dev.handle, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  api.vkGetPhysicalDeviceQueueFamilyProperties(dev.handle, &count,
                                               families.data());
  for (uint32_t i = 0; i < count; ++i) {
    const VkQueueFamilyProperties &f = families[i];
    if (!(f.queueFlags & VK_QUEUE_COMPUTE_BIT) || f.queueCount == 0)
      continue;
    bool better = !dev.hasComputeQueue ||
                  (dev.timestampValidBits == 0 && f.timestampValidBits != 0);
    if (better) {
      dev.hasComputeQueue = true;
      dev.queueFamily = i;
      dev.timestampValidBits = f.timestampValidBits;
    }
  }
}

/// Fills the shader features, through vkGetPhysicalDeviceFeatures2 where the
/// device is new enough to chain the 1.1/1.2 structures.
void queryFeatures(const Api &api, PhysicalDevice &dev,
                   const std::vector<std::string> &exts) {
  ShaderFeatures &f = dev.features;
  VkPhysicalDeviceFeatures base{};
  api.vkGetPhysicalDeviceFeatures(dev.handle, &base);
  f.int64 = base.shaderInt64;
  f.int16 = base.shaderInt16;
  f.float64 = base.shaderFloat64;
  if (!api.vkGetPhysicalDeviceFeatures2 ||
      dev.apiVersion < VK_API_VERSION_1_1) {
    // Storage buffers are core only from 1.1; MLIR's kernels declare them.
    if (hasExtension(exts, VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_EXTENSION_NAME))
      f.extensions.push_back(
          VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_EXTENSION_NAME);
    return;
  }
  f.hasStorage16Query = true;

  bool is12 = dev.apiVersion >= VK_API_VERSION_1_2;
  VkPhysicalDeviceFeatures2 features2{};
  features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  VkPhysicalDevice16BitStorageFeatures storage16{};
  storage16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
  features2.pNext = &storage16;
  VkPhysicalDevice8BitStorageFeatures storage8{};
  storage8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES;
  VkPhysicalDeviceShaderFloat16Int8Features float16Int8{};
  float16Int8.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES;
  void **tail = &storage16.pNext;
  if (is12 || hasExtension(exts, VK_KHR_8BIT_STORAGE_EXTENSION_NAME)) {
    f.has8BitStorageQuery = true;
    *tail = &storage8;
    tail = &storage8.pNext;
    if (!is12)
      f.extensions.push_back(VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
  }
  if (is12 || hasExtension(exts, VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME)) {
    f.hasFloat16Int8Query = true;
    *tail = &float16Int8;
    if (!is12)
      f.extensions.push_back(VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME);
  }
  api.vkGetPhysicalDeviceFeatures2(dev.handle, &features2);
  f.storageBuffer16Bit = storage16.storageBuffer16BitAccess;
  f.storageBuffer8Bit = storage8.storageBuffer8BitAccess;
  f.float16 = float16Int8.shaderFloat16;
  f.int8 = float16Int8.shaderInt8;
}

/// Fills what needs vkGetPhysicalDeviceProperties2: subgroup size, the
/// largest allocation, the driver's own name and version string, the float
/// controls (which widths keep inf/NaN/signed zeros and subnormals on
/// request) and, on NVIDIA and AMD, the compute units.
void queryProperties2(const Api &api, PhysicalDevice &dev,
                      const std::vector<std::string> &exts) {
  if (!api.vkGetPhysicalDeviceProperties2 ||
      dev.apiVersion < VK_API_VERSION_1_1)
    return;
  VkPhysicalDeviceProperties2 props2{};
  props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceMaintenance3Properties maintenance3{};
  maintenance3.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
  VkPhysicalDeviceDriverProperties driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  props2.pNext = &subgroup;
  subgroup.pNext = &maintenance3;
  bool hasDriver = dev.apiVersion >= VK_API_VERSION_1_2 ||
                   hasExtension(exts, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
  if (hasDriver)
    maintenance3.pNext = &driver;
  // Float controls are core from 1.2; before, the extension must also be
  // enabled on the device for a module to use SPV_KHR_float_controls.
  VkPhysicalDeviceFloatControlsProperties floatControls{};
  floatControls.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES;
  bool is12 = dev.apiVersion >= VK_API_VERSION_1_2;
  bool hasFloatControls =
      is12 || hasExtension(exts, VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME);
  if (hasFloatControls) {
    floatControls.pNext = props2.pNext;
    props2.pNext = &floatControls;
  }
  // The compute units, which core Vulkan does not report: NVIDIA's SM
  // count and AMD's compute units where their extensions say them (the
  // cost model's waves need it).
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nvidiaCores{};
  nvidiaCores.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV;
  if (hasExtension(exts, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
    nvidiaCores.pNext = props2.pNext;
    props2.pNext = &nvidiaCores;
  }
  VkPhysicalDeviceShaderCorePropertiesAMD amdCores{};
  amdCores.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD;
  if (hasExtension(exts, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
    amdCores.pNext = props2.pNext;
    props2.pNext = &amdCores;
  }
  api.vkGetPhysicalDeviceProperties2(dev.handle, &props2);
  if (nvidiaCores.shaderSMCount > 0)
    dev.info.computeUnits = nvidiaCores.shaderSMCount;
  else if (amdCores.computeUnitsPerShaderArray > 0)
    dev.info.computeUnits = amdCores.shaderEngineCount *
                            amdCores.shaderArraysPerEngineCount *
                            amdCores.computeUnitsPerShaderArray;
  if (hasFloatControls) {
    dev.features.floatControls = true;
    if (!is12)
      dev.features.extensions.push_back(
          VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME);
  }

  DeviceInfo &info = dev.info;
  info.subgroupSize = subgroup.subgroupSize;
  info.maxAllocBytes = maintenance3.maxMemoryAllocationSize;
  info.infNanPreserveF16 = floatControls.shaderSignedZeroInfNanPreserveFloat16;
  info.infNanPreserveF32 = floatControls.shaderSignedZeroInfNanPreserveFloat32;
  info.infNanPreserveF64 = floatControls.shaderSignedZeroInfNanPreserveFloat64;
  info.denormPreserveF16 = floatControls.shaderDenormPreserveFloat16;
  info.denormPreserveF32 = floatControls.shaderDenormPreserveFloat32;
  info.denormPreserveF64 = floatControls.shaderDenormPreserveFloat64;
  // llvmpipe ends every loop of an invocation once a counter shared by
  // all of them, set to 65535 at its start, runs out (Mesa's gallivm loop
  // limiter): the invocation goes on with partial results and no error.
  if (hasDriver && driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE)
    info.maxLoopIterations = 65535;
  if (hasDriver && driver.driverName[0]) {
    info.platform = driver.driverName;
    if (driver.driverInfo[0])
      info.driverVersion = driver.driverInfo;
  }
}

PhysicalDevice describe(const Api &api, uint32_t instanceVersion,
                        VkPhysicalDevice handle) {
  PhysicalDevice dev;
  dev.handle = handle;
  VkPhysicalDeviceProperties props{};
  api.vkGetPhysicalDeviceProperties(handle, &props);
  dev.limits = props.limits;
  // What the device can do through this instance (a SPIR-V 1.4 module, say,
  // needs both at Vulkan 1.2; the profile reads the version from
  // info.apiVersion), with the device's own patch level when its 1.N is
  // the instance's or older.
  constexpr uint32_t kPatchBits = 0xFFFu;
  dev.apiVersion = (props.apiVersion & ~kPatchBits) <= instanceVersion
                       ? props.apiVersion
                       : instanceVersion;

  DeviceInfo &info = dev.info;
  info.runtime = "vulkan";
  info.type = deviceTypeName(props.deviceType);
  info.name = props.deviceName;
  info.vendor = vendorName(props.vendorID);
  info.driverVersion = driverVersionString(props);
  info.platform = "Vulkan";
  info.apiVersion = "Vulkan " + versionString(dev.apiVersion);
  const VkPhysicalDeviceLimits &l = props.limits;
  info.localMemBytes = l.maxComputeSharedMemorySize;
  info.maxWorkGroupSize = l.maxComputeWorkGroupInvocations;
  info.maxWorkItemSizes.assign(l.maxComputeWorkGroupSize,
                               l.maxComputeWorkGroupSize + 3);
  info.maxWorkGroupCount.assign(l.maxComputeWorkGroupCount,
                                l.maxComputeWorkGroupCount + 3);
  info.maxStorageBufferRange = l.maxStorageBufferRange;

  VkPhysicalDeviceMemoryProperties memory{};
  api.vkGetPhysicalDeviceMemoryProperties(handle, &memory);
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i)
    if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      info.globalMemBytes += memory.memoryHeaps[i].size;

  info.extensions = deviceExtensions(api, handle);
  queryProperties2(api, dev, info.extensions);
  queryFeatures(api, dev, info.extensions);
  info.int64 = dev.features.int64;
  info.fp64 = dev.features.float64;
  info.fp16 = dev.features.float16 && dev.features.storageBuffer16Bit;
  info.int8 = dev.features.int8 && dev.features.storageBuffer8Bit;
  chooseQueueFamily(api, dev);
  return dev;
}

} // namespace

Result<std::vector<PhysicalDevice>> enumerateDevices(const Instance &instance) {
  const Api &api = instance.api();
  uint32_t count = 0;
  if (VkResult r =
          api.vkEnumeratePhysicalDevices(instance.handle(), &count, nullptr))
    return failure("listing Vulkan devices", r);
  std::vector<VkPhysicalDevice> handles(count);
  VkResult r =
      api.vkEnumeratePhysicalDevices(instance.handle(), &count, handles.data());
  if (r != VK_SUCCESS && r != VK_INCOMPLETE)
    return failure("listing Vulkan devices", r);
  handles.resize(count);

  std::vector<PhysicalDevice> devices;
  std::vector<DeviceInfo> earlier; // for the index of equal names
  for (VkPhysicalDevice handle : handles) {
    PhysicalDevice dev = describe(api, instance.apiVersion(), handle);
    if (!dev.hasComputeQueue)
      continue;
    dev.info.id =
        nextDeviceId("vulkan", dev.info.vendor, dev.info.name, earlier);
    earlier.push_back(dev.info);
    devices.push_back(std::move(dev));
  }
  return devices;
}

} // namespace tilec::rt::vulkan
