//===- AllRuntimes.cpp - The runtimes compiled into this build ------------===//
//
// OpenCL is always built (it needs only the ICD loader); Vulkan when its
// library was configured (TILEC_HAVE_VULKAN_RUNTIME); CUDA and GL always
// (they need nothing to build); the host CPU last, so that --device's
// default, the first GPU else the first device, prefers a device that runs
// manifests.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/CUDARuntime.h"
#include "tilec/Runtime/GLRuntime.h"
#include "tilec/Runtime/HostCpuRuntime.h"
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
  runtimes.push_back(createCUDARuntime());
  runtimes.push_back(createGLRuntime());
  runtimes.push_back(createHostCpuRuntime());
  return runtimes;
}

tilec::Result<TargetRuntime>
tilec::rt::openRuntime(std::unique_ptr<Runtime> runtime) {
  TargetRuntime opened{std::move(runtime), {}};
  opened.devices = opened.runtime->devices();
  if (opened.devices.empty()) {
    std::string why = opened.runtime->whyNone();
    return tilec::Result<TargetRuntime>::error(
        "no " + opened.runtime->name() + " device found" +
        (why.empty() ? "" : ": " + why) +
        "; 'tilec devices' lists what the runtimes see");
  }
  return opened;
}

tilec::Result<TargetRuntime>
tilec::rt::openTargetRuntime(const std::string &target) {
  std::string wanted = target == "spirv" ? "vulkan"
                       : target == "ptx"   ? "cuda"
                       : target == "glsl"  ? "gl"
                                           : target;
  for (std::unique_ptr<Runtime> &runtime : allRuntimes())
    if (runtime->name() == wanted)
      return openRuntime(std::move(runtime));
  return tilec::Result<TargetRuntime>::error("this build has no " + wanted +
                                             " runtime, which " + target +
                                             " artefacts need");
}
