//===- GLDevices.cpp - The OpenGL devices EGL offers ----------------------===//
//
// See GLDevices.h. What the cost model uses comes from GL's compute limits
// (work-group size and invocations, shared memory, storage block size); GL
// reports no compute-unit count, except NVIDIA's through
// GL_NV_shader_thread_group, and llvmpipe runs one thread per CPU.
//
//===----------------------------------------------------------------------===//

#include "GLDevices.h"
#include "GLErrors.h"

#include "tilec/Runtime/DeviceId.h"

#include <cstdlib>
#include <set>
#include <thread>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::gl;

namespace {

/// GL_NV_shader_thread_group's queries.
constexpr GLenum kWarpSizeNV = 0x9339;
constexpr GLenum kSMCountNV = 0x933B;
/// GL_KHR_shader_subgroup's queries and the bits they answer with.
constexpr GLenum kSubgroupSupportedStagesKHR = 0x9533;
constexpr GLenum kSubgroupSupportedFeaturesKHR = 0x9534;
constexpr GLint kComputeShaderBit = 0x20;
constexpr GLint kSubgroupFeatureShuffleBitKHR = 0x10;

/// The extensions worth listing: what decides how tilec compiles for the
/// device or what it could use.
bool worthListing(const std::string &extension) {
  for (const char *part : {"int64", "fp64", "timer_query", "subgroup",
                           "ballot", "thread_group", "16bit", "float16"})
    if (extension.find(part) != std::string::npos)
      return true;
  return false;
}

std::string glString(const Api &api, GLenum name) {
  const GLubyte *text = api.glGetString(name);
  return text ? reinterpret_cast<const char *>(text) : "";
}

/// The displays to try: one per EGL device, else the surfaceless one.
std::vector<EGLDisplay> displays(const Api &api) {
  std::vector<EGLDisplay> found;
  if (!api.eglGetPlatformDisplayEXT)
    return found;
  EGLint count = 0;
  if (api.eglQueryDevicesEXT && api.eglQueryDevicesEXT(0, nullptr, &count) &&
      count > 0) {
    std::vector<EGLDeviceEXT> devices(count);
    api.eglQueryDevicesEXT(count, devices.data(), &count);
    for (EGLint i = 0; i < count; ++i)
      if (EGLDisplay display = api.eglGetPlatformDisplayEXT(
              egl::kPlatformDeviceEXT, devices[i], nullptr))
        found.push_back(display);
    return found;
  }
  if (EGLDisplay display = api.eglGetPlatformDisplayEXT(
          egl::kPlatformSurfacelessMESA, nullptr, nullptr))
    found.push_back(display);
  return found;
}

/// A context on `display`: OpenGL 4.3 core, else OpenGL ES 3.1. With
/// TILEC_GL_CONTEXT=es in the environment, ES only: how a desktop driver
/// (llvmpipe in the tests) runs what an ES-only device would.
Result<EGLContext> createContext(const Api &api, EGLDisplay display,
                                 bool &es) {
  const char *wanted = std::getenv("TILEC_GL_CONTEXT");
  bool esOnly = wanted && std::string(wanted) == "es";
  const EGLint desktop[] = {egl::kContextMajorVersion,
                            4,
                            egl::kContextMinorVersion,
                            3,
                            egl::kContextOpenGLProfileMask,
                            egl::kContextOpenGLCoreProfileBit,
                            egl::kNone};
  const EGLint embedded[] = {egl::kContextMajorVersion, 3,
                             egl::kContextMinorVersion, 1, egl::kNone};
  if (!esOnly && api.eglBindAPI(egl::kOpenGLAPI))
    if (EGLContext context =
            api.eglCreateContext(display, nullptr, nullptr, desktop)) {
      es = false;
      return context;
    }
  if (api.eglBindAPI(egl::kOpenGLESAPI))
    if (EGLContext context =
            api.eglCreateContext(display, nullptr, nullptr, embedded)) {
      es = true;
      return context;
    }
  return eglFailed(api, "eglCreateContext (OpenGL 4.3 core or ES 3.1, no "
                        "config)");
}

/// The first word of GL_VENDOR ("Mesa/X.org" -> "Mesa").
std::string vendorName(const std::string &vendor) {
  return vendor.substr(0, vendor.find_first_of(" /"));
}

/// GL_RENDERER without what follows the model ("NVIDIA H200/PCIe/SSE2" ->
/// "NVIDIA H200", "llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe").
std::string rendererName(const std::string &renderer) {
  size_t end = std::min(renderer.find('/'), renderer.find(" ("));
  return renderer.substr(0, end);
}

void describe(const Api &api, GLDevice &device,
              const std::vector<DeviceInfo> &earlier) {
  DeviceInfo &info = device.info;
  std::string vendor = glString(api, glc::kVendor);
  std::string renderer = glString(api, glc::kRenderer);
  std::string version = glString(api, glc::kVersion);
  info.runtime = "gl";
  info.vendor = vendor;
  info.name = rendererName(renderer);
  info.id = nextDeviceId("gl", vendorName(vendor), info.name, earlier);
  bool software = renderer.rfind("llvmpipe", 0) == 0 ||
                  renderer.rfind("softpipe", 0) == 0;
  info.type = software ? "cpu" : "gpu";
  info.apiVersion = device.es ? version : "OpenGL " + version;
  if (device.es) {
    // ES 3.2 has fma (GLSL ES 3.20); 3.1 needs the shader to say less.
    GLint major = 0, minor = 0;
    api.glGetIntegerv(glc::kMajorVersion, &major);
    api.glGetIntegerv(glc::kMinorVersion, &minor);
    device.glslVersion = major > 3 || minor >= 2 ? "320 es" : "310 es";
  }
  // "4.5 (Core Profile) Mesa 22.3.6" -> "Mesa 22.3.6"; "4.6.0 NVIDIA
  // 550.54" -> "NVIDIA 550.54".
  size_t profileEnd = version.find(") ");
  size_t driverStart = profileEnd != std::string::npos ? profileEnd + 2
                                                       : version.find(' ') + 1;
  info.driverVersion = version.substr(std::min(driverStart, version.size()));
  const char *eglVendor = api.eglQueryString(device.display, egl::kVendor);
  const char *eglVersion = api.eglQueryString(device.display, egl::kVersion);
  info.platform = std::string("EGL ") + (eglVersion ? eglVersion : "") +
                  (eglVendor ? std::string(" (") + eglVendor + ")" : "");
  GLint value = 0;
  api.glGetIntegerv(glc::kMaxComputeWorkGroupInvocations, &value);
  info.maxWorkGroupSize = uint64_t(value);
  for (GLuint d = 0; d < 3; ++d) {
    GLint size = 0, count = 0;
    api.glGetIntegeri_v(glc::kMaxComputeWorkGroupSize, d, &size);
    api.glGetIntegeri_v(glc::kMaxComputeWorkGroupCount, d, &count);
    info.maxWorkItemSizes.push_back(uint64_t(size));
    info.maxWorkGroupCount.push_back(uint64_t(uint32_t(count)));
  }
  api.glGetIntegerv(glc::kMaxComputeSharedMemorySize, &value);
  info.localMemBytes = uint64_t(value);
  GLint64 blockSize = 0;
  api.glGetInteger64v(glc::kMaxShaderStorageBlockSize, &blockSize);
  info.maxStorageBufferRange = info.maxAllocBytes = uint64_t(blockSize);
  GLint extensionCount = 0;
  api.glGetIntegerv(glc::kNumExtensions, &extensionCount);
  std::set<std::string> extensions;
  for (GLint i = 0; i < extensionCount; ++i)
    if (const GLubyte *name = api.glGetStringi(glc::kExtensions, GLuint(i)))
      extensions.insert(reinterpret_cast<const char *>(name));
  for (const std::string &extension : extensions)
    if (worthListing(extension))
      info.extensions.push_back(extension);
  // Desktop GL 4.0 and later has double; ES has none. 8- and 16-bit values
  // are packed into 32-bit words, so every device stores them.
  info.fp64 = !device.es;
  info.int64 = extensions.count("GL_ARB_gpu_shader_int64") > 0;
  info.fp16 = info.int8 = true;
  info.preferredVectorWidthFloat = 4; // GLSL's widest vector
  device.timerQueries =
      !device.es && api.glQueryCounter && api.glGetQueryObjectui64v;
  if (extensions.count("GL_NV_shader_thread_group")) {
    api.glGetIntegerv(kSMCountNV, &value);
    info.computeUnits = unsigned(value);
    api.glGetIntegerv(kWarpSizeNV, &value);
    info.subgroupSize = unsigned(value);
  }
  // Shuffles only where the warp is fixed (NVIDIA's 32 consecutive
  // invocations): GL_KHR_shader_subgroup alone lets a driver choose the
  // size per shader (Intel's 8, 16 or 32), which a kernel cannot know.
  if (info.subgroupSize && extensions.count("GL_KHR_shader_subgroup")) {
    GLint stages = 0, features = 0;
    api.glGetIntegerv(kSubgroupSupportedStagesKHR, &stages);
    api.glGetIntegerv(kSubgroupSupportedFeaturesKHR, &features);
    info.subgroupShuffle = (stages & kComputeShaderBit) &&
                           (features & kSubgroupFeatureShuffleBitKHR);
  }
  if (software) {
    info.computeUnits = std::max(1u, std::thread::hardware_concurrency());
    // llvmpipe ends every loop of an invocation once a counter shared by
    // all of them, set to 65535 at its start, runs out (Mesa's gallivm loop
    // limiter), as lavapipe does.
    info.maxLoopIterations = 65535;
  }
  api.glGetError(); // a query the driver does not know is no failure
}

} // namespace

std::vector<GLDevice> gl::enumerateDevices(Library &library,
                                           std::string &whyNone) {
  const Api &api = library.api();
  std::vector<GLDevice> devices;
  std::vector<DeviceInfo> infos;
  std::vector<EGLDisplay> candidates = displays(api);
  if (candidates.empty()) {
    whyNone = "EGL offers no device (neither EGL_EXT_platform_device nor "
              "EGL_MESA_platform_surfaceless)";
    return devices;
  }
  for (EGLDisplay display : candidates) {
    EGLint major = 0, minor = 0;
    if (!api.eglInitialize(display, &major, &minor)) {
      whyNone = eglFailed(api, "eglInitialize").message();
      continue;
    }
    GLDevice device;
    device.display = display;
    Result<EGLContext> context = createContext(api, display, device.es);
    if (!context) {
      whyNone = context.message();
      continue;
    }
    device.context = *context;
    if (Status s = makeCurrent(api, device); !s) {
      whyNone = s.message();
      continue;
    }
    if (Status s = library.loadGL(); !s) {
      whyNone = s.message();
      continue;
    }
    describe(api, device, infos);
    infos.push_back(device.info);
    devices.push_back(std::move(device));
  }
  return devices;
}

Status gl::makeCurrent(const Api &api, const GLDevice &device) {
  if (!api.eglBindAPI(device.es ? egl::kOpenGLESAPI : egl::kOpenGLAPI) ||
      !api.eglMakeCurrent(device.display, nullptr, nullptr, device.context))
    return eglFailed(api, "eglMakeCurrent (device " + device.info.id + ")");
  return Status::success();
}
