//===- AllRuntimes.cpp - The runtimes compiled into this build ------------===//
//
// OpenCL is always built (it needs only the ICD loader); Vulkan when its
// library was configured (TILEC_HAVE_VULKAN_RUNTIME); the host CPU last, so
// that --device's default, the first GPU else the first device, prefers a
// device that runs manifests.
//
//===----------------------------------------------------------------------===//

#include "HostCpuRuntime.h"

#include "tilec/Runtime/OpenCLRuntime.h"
#ifdef TILEC_HAVE_VULKAN_RUNTIME
#include "tilec/Runtime/VulkanRuntime.h"
#endif

using namespace tilec::rt;

std::vector<std::unique_ptr<Runtime>> tilec::rt::allRuntimes() {
  std::vector<std::unique_ptr<Runtime>> runtimes;
  runtimes.push_back(createOpenCLRuntime());
#ifdef TILEC_HAVE_VULKAN_RUNTIME
  runtimes.push_back(createVulkanRuntime());
#endif
  runtimes.push_back(createHostCpuRuntime());
  return runtimes;
}
