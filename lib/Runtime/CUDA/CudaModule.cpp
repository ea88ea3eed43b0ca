//===- CudaModule.cpp - A PTX module's kernels, checked -------------------===//

#include "CudaModule.h"
#include "CudaChecks.h"
#include "CudaErrors.h"
#include "CudaJitLog.h"

#include <algorithm>
#include <cstdint>
#include <map>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::cuda;

namespace {

/// Bytes of each JIT log; ptxas stops writing when one is full.
constexpr size_t kLogBytes = 64 * 1024;

/// The shared memory every block may use without opting in: 48 KiB on every
/// CUDA GPU, when the device did not say.
constexpr uint64_t kDefaultSharedBytes = 48 * 1024;

/// A function attribute, or -1 when the driver does not answer.
int functionAttribute(const Api &api, CUfunction function, int which) {
  int value = -1;
  if (api.cuFuncGetAttribute(&value, which, function) != kSuccess)
    return -1;
  return value;
}

std::string logText(const std::string &buffer, void *filled) {
  size_t size =
      std::min(size_t(reinterpret_cast<uintptr_t>(filled)), buffer.size());
  std::string text = buffer.substr(0, size);
  text.resize(text.find('\0') == std::string::npos ? text.size()
                                                   : text.find('\0'));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

} // namespace

Status Module::load(const Api &api, const DeviceInfo &device,
                    const Manifest &manifest, const std::string &ptx) {
  if (Status s = build(api, device, manifest, ptx); !s)
    return s;
  if (Status s = findFunctions(api, manifest); !s)
    return s;
  return checkLaunches(api, device, manifest);
}

void Module::unload(const Api &api) {
  if (module_)
    api.cuModuleUnload(module_);
  module_ = nullptr;
  functions_.clear();
}

Status Module::build(const Api &api, const DeviceInfo &device,
                     const Manifest &manifest, const std::string &ptx) {
  const std::string &file = manifest.artefact;
  // The driver reads PTX up to its first NUL byte.
  if (ptx.empty() || ptx.find('\0') != std::string::npos)
    return Status::error(file + ": not PTX text (" +
                         (ptx.empty() ? "empty" : "it holds a NUL byte") + ")");
  std::string infoLog(kLogBytes, '\0'), errorLog(kLogBytes, '\0');
  int options[] = {kJitInfoLogBuffer, kJitInfoLogBufferSizeBytes,
                   kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
  // A size option's value is the number itself, in a pointer; the driver
  // overwrites it with the bytes it wrote.
  void *values[] = {infoLog.data(), reinterpret_cast<void *>(kLogBytes - 1),
                    errorLog.data(), reinterpret_cast<void *>(kLogBytes - 1)};
  CUresult r =
      api.cuModuleLoadDataEx(&module_, ptx.c_str(), 4, options, values);
  if (r == kSuccess)
    return Status::success();
  module_ = nullptr;
  std::string log = logText(errorLog, values[3]);
  std::string info = logText(infoLog, values[1]);
  if (!info.empty())
    log += (log.empty() ? "" : "\n") + info;
  std::string where = locateJitError(log, ptx);
  return Status::error(file + ": the PTX build failed on " + device.id +
                       " (cuModuleLoadDataEx: " + resultName(r, &api) + ")" +
                       (where.empty() ? "\n" : ", " + where) + "JIT log:\n" +
                       (log.empty() ? "(empty)" : log));
}

Status Module::findFunctions(const Api &api, const Manifest &manifest) {
  std::map<std::string, CUfunction> byName;
  for (const ManifestKernel &kernel : manifest.kernels) {
    auto found = byName.find(kernel.name);
    if (found == byName.end()) {
      CUfunction function = nullptr;
      if (CUresult r =
              api.cuModuleGetFunction(&function, module_, kernel.name.c_str());
          r != kSuccess)
        return callFailed(kernelWhere(kernel) + " (in " + manifest.artefact +
                              ")",
                          "cuModuleGetFunction", r, &api);
      found = byName.emplace(kernel.name, function).first;
    }
    functions_.push_back(found->second);
  }
  return Status::success();
}

Status Module::checkLaunches(const Api &api, const DeviceInfo &device,
                             const Manifest &manifest) {
  // The most dynamic shared memory any launch gives each function.
  std::map<CUfunction, uint64_t> dynamicShared;
  for (size_t k = 0; k < manifest.kernels.size(); ++k) {
    const ManifestKernel &kernel = manifest.kernels[k];
    CUfunction function = functions_[k];
    // Registers bound the block size below the device's limit: a launch
    // over it fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES.
    int limit = functionAttribute(api, function, kFuncMaxThreadsPerBlock);
    uint64_t threads = kernel.local[0] * kernel.local[1] * kernel.local[2];
    if (limit > 0 && threads > uint64_t(limit))
      return Status::error(
          kernelPrefix(kernel) + "block " + sizesText(kernel.local) + " has " +
          std::to_string(threads) + " threads, more than the " +
          std::to_string(limit) + " its code allows on device " + device.id +
          " (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK; it uses " +
          std::to_string(functionAttribute(api, function, kFuncNumRegs)) +
          " registers per thread)");
    int fixed =
        std::max(functionAttribute(api, function, kFuncSharedSizeBytes), 0);
    uint64_t optIn = device.sharedMemOptInBytes ? device.sharedMemOptInBytes
                                                : device.localMemBytes;
    if (optIn && fixed + kernel.dynamicSharedBytes > optIn)
      return Status::error(
          kernelPrefix(kernel) + "needs " + std::to_string(fixed) +
          " bytes of static and " + std::to_string(kernel.dynamicSharedBytes) +
          " bytes of dynamic shared memory, more than the " +
          std::to_string(optIn) + " device " + device.id +
          " allows (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)");
    uint64_t &most = dynamicShared[function];
    most = std::max(most, kernel.dynamicSharedBytes);
  }
  // Beyond the default 48 KiB a block must opt in, per function, before
  // its launch (cuLaunchKernel fails with CUDA_ERROR_INVALID_VALUE otherwise).
  uint64_t plain =
      device.localMemBytes ? device.localMemBytes : kDefaultSharedBytes;
  for (size_t k = 0; k < manifest.kernels.size(); ++k) {
    auto found = dynamicShared.find(functions_[k]);
    if (found == dynamicShared.end())
      continue; // set already, for an earlier launch of the same function
    uint64_t bytes = found->second;
    dynamicShared.erase(found);
    int fixed = std::max(
        functionAttribute(api, functions_[k], kFuncSharedSizeBytes), 0);
    if (fixed + bytes <= plain)
      continue;
    if (CUresult r = api.cuFuncSetAttribute(
            functions_[k], kFuncMaxDynamicSharedSizeBytes, int(bytes));
        r != kSuccess)
      return Status::error(
          kernelWhere(manifest.kernels[k]) +
          ": cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_"
          "BYTES, " +
          std::to_string(bytes) + ") failed: " + resultName(r, &api));
  }
  return Status::success();
}
