//===- VulkanApi.cpp - Opening the Vulkan loader and an instance ----------===//

#include "VulkanApi.h"
#include "VulkanError.h"

#include <algorithm>
#include <dlfcn.h>

namespace tilec::rt::vulkan {

namespace {

/// The newest Vulkan version whose structures tilec queries.
constexpr uint32_t newestKnownVersion = VK_API_VERSION_1_3;

/// Opens the loader: the versioned name is what the runtime package ships;
/// the plain name is only in the development package.
void *openLoader() {
  for (const char *name : {"libvulkan.so.1", "libvulkan.so"})
    if (void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL))
      return library;
  return nullptr;
}

} // namespace

Result<std::shared_ptr<Instance>> Instance::create() {
  std::shared_ptr<Instance> self(new Instance());
  self->library_ = openLoader();
  if (!self->library_)
    return Status::error("the Vulkan loader (libvulkan.so.1) is not installed");
  auto getInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(self->library_, "vkGetInstanceProcAddr"));
  if (!getInstanceProcAddr)
    return Status::error("the Vulkan loader has no vkGetInstanceProcAddr (not "
                         "a Vulkan loader?)");

  Api &api = self->api_;
#define TILEC_VK_LOAD_GLOBAL(name)                                             \
  api.name = reinterpret_cast<PFN_##name>(getInstanceProcAddr(nullptr, #name));
  TILEC_VK_GLOBAL_FUNCTIONS(TILEC_VK_LOAD_GLOBAL)
#undef TILEC_VK_LOAD_GLOBAL
  if (!api.vkCreateInstance)
    return Status::error("the Vulkan loader has no vkCreateInstance");

  // A 1.0 loader has no vkEnumerateInstanceVersion; a 1.0 instance cannot
  // ask for a newer version.
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  if (api.vkEnumerateInstanceVersion &&
      api.vkEnumerateInstanceVersion(&loaderVersion) != VK_SUCCESS)
    loaderVersion = VK_API_VERSION_1_0;
  self->apiVersion_ = std::min(loaderVersion, newestKnownVersion);

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "tilec";
  app.pEngineName = "tilec";
  app.apiVersion = self->apiVersion_;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  // The loader says INCOMPATIBLE_DRIVER both when no driver manifest is
  // installed and when none loads (seen in a headless NVIDIA container: its
  // manifest named libGLX_nvidia, which did not load, while one naming
  // libEGL_nvidia worked); the loader's own log tells which.
  if (VkResult r = api.vkCreateInstance(&info, nullptr, &self->instance_))
    return failure(r == VK_ERROR_INCOMPATIBLE_DRIVER
                       ? "no usable Vulkan driver (VK_LOADER_DEBUG=driver "
                         "shows the loader's search)"
                       : "creating a Vulkan instance",
                   r);

#define TILEC_VK_LOAD(name)                                                    \
  api.name = reinterpret_cast<PFN_##name>(                                     \
      getInstanceProcAddr(self->instance_, #name));
  TILEC_VK_INSTANCE_FUNCTIONS(TILEC_VK_LOAD)
  TILEC_VK_DEVICE_FUNCTIONS(TILEC_VK_LOAD)
#undef TILEC_VK_LOAD

  // Everything but the Vulkan 1.1 queries is in every loader; a missing one
  // means a broken installation, which is reported instead of crashing later.
  const char *missing = nullptr;
#define TILEC_VK_CHECK(name)                                                   \
  if (!api.name && !missing)                                                   \
    missing = #name;
  TILEC_VK_DEVICE_FUNCTIONS(TILEC_VK_CHECK)
  TILEC_VK_CHECK(vkDestroyInstance)
  TILEC_VK_CHECK(vkEnumeratePhysicalDevices)
  TILEC_VK_CHECK(vkGetPhysicalDeviceProperties)
  TILEC_VK_CHECK(vkGetPhysicalDeviceFeatures)
  TILEC_VK_CHECK(vkGetPhysicalDeviceQueueFamilyProperties)
  TILEC_VK_CHECK(vkGetPhysicalDeviceMemoryProperties)
  TILEC_VK_CHECK(vkEnumerateDeviceExtensionProperties)
  TILEC_VK_CHECK(vkCreateDevice)
#undef TILEC_VK_CHECK
  if (missing)
    return Status::error(std::string("the Vulkan loader has no ") + missing);
  if (self->apiVersion_ < VK_API_VERSION_1_1) {
    api.vkGetPhysicalDeviceProperties2 = nullptr;
    api.vkGetPhysicalDeviceFeatures2 = nullptr;
  }
  return self;
}

Instance::~Instance() {
  if (instance_ != VK_NULL_HANDLE && api_.vkDestroyInstance)
    api_.vkDestroyInstance(instance_, nullptr);
  if (library_)
    dlclose(library_);
}

} // namespace tilec::rt::vulkan
