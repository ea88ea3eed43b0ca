//===- CLDevices.cpp - OpenCL platform and device discovery ---------------===//
//
// Queries every property DeviceInfo holds. A query a driver does not answer
// leaves the field 0 (unknown): drivers differ in what they implement, and
// listing devices must not fail because of one optional property.
//
//===----------------------------------------------------------------------===//

#include "CLErrors.h"
#include "OpenCLInternal.h"

#include "tilec/Runtime/DeviceId.h"

#include <algorithm>
#include <sstream>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::cl;

namespace {

/// A string property through `query(size, buffer, sizeOut)` (a
/// clGet*Info call bound to its object and property), asked for its size
/// first; "" when the driver does not answer. Cut at the terminating NUL.
template <typename Query> std::string infoString(Query query) {
  size_t size = 0;
  if (query(0, nullptr, &size) != CL_SUCCESS || size == 0)
    return "";
  std::string text(size, '\0');
  if (query(size, text.data(), nullptr) != CL_SUCCESS)
    return "";
  text.resize(text.find('\0') == std::string::npos ? size : text.find('\0'));
  return text;
}

std::string platformString(cl_platform_id platform, cl_platform_info what) {
  return infoString([&](size_t size, void *buffer, size_t *sizeOut) {
    return clGetPlatformInfo(platform, what, size, buffer, sizeOut);
  });
}

/// Device strings, with the trailing spaces some drivers pad them with
/// removed.
std::string deviceString(cl_device_id device, cl_device_info what) {
  std::string text =
      infoString([&](size_t size, void *buffer, size_t *sizeOut) {
        return clGetDeviceInfo(device, what, size, buffer, sizeOut);
      });
  while (!text.empty() && text.back() == ' ')
    text.pop_back();
  return text;
}

/// A scalar property of type T, or 0 when the driver does not answer.
template <typename T> T deviceValue(cl_device_id device, cl_device_info what) {
  T value{};
  if (clGetDeviceInfo(device, what, sizeof(T), &value, nullptr) != CL_SUCCESS)
    return T{};
  return value;
}

std::string deviceType(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU)
    return "gpu";
  if (type & CL_DEVICE_TYPE_CPU)
    return "cpu";
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  return "other";
}

/// The short vendor name of an id: "The pocl project" -> "pocl",
/// "NVIDIA Corporation" -> "nvidia", "Advanced Micro Devices" -> "amd".
std::string vendorKey(std::string vendor) {
  if (vendor.rfind("The ", 0) == 0)
    vendor = vendor.substr(4);
  if (vendor.rfind("Advanced Micro Devices", 0) == 0)
    return "amd";
  return vendor.substr(0, vendor.find_first_of(" ,("));
}

std::vector<std::string> splitWords(const std::string &text) {
  std::istringstream stream(text);
  std::vector<std::string> words;
  for (std::string word; stream >> word;)
    words.push_back(word);
  return words;
}

DeviceInfo describe(cl_platform_id platform, cl_device_id device) {
  DeviceInfo info;
  info.runtime = "opencl";
  info.type = deviceType(deviceValue<cl_device_type>(device, CL_DEVICE_TYPE));
  info.name = deviceString(device, CL_DEVICE_NAME);
  info.vendor = deviceString(device, CL_DEVICE_VENDOR);
  info.driverVersion = deviceString(device, CL_DRIVER_VERSION);
  info.platform = platformString(platform, CL_PLATFORM_NAME);
  info.apiVersion = deviceString(device, CL_DEVICE_VERSION);
  info.computeUnits = deviceValue<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.clockMHz = deviceValue<cl_uint>(device, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  info.globalMemBytes =
      deviceValue<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.maxAllocBytes =
      deviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  info.localMemBytes = deviceValue<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  info.maxWorkGroupSize =
      deviceValue<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  cl_uint dims =
      deviceValue<cl_uint>(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  std::vector<size_t> sizes(std::min<cl_uint>(dims, 16));
  if (!sizes.empty() && clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                        sizes.size() * sizeof(size_t),
                                        sizes.data(), nullptr) == CL_SUCCESS)
    info.maxWorkItemSizes.assign(sizes.begin(), sizes.end());
  info.cacheBytes =
      deviceValue<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
  info.cacheLineBytes =
      deviceValue<cl_uint>(device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
  info.preferredVectorWidthFloat =
      deviceValue<cl_uint>(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT);
  info.preferredVectorWidthHalf =
      deviceValue<cl_uint>(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF);
  info.extensions = splitWords(deviceString(device, CL_DEVICE_EXTENSIONS));
  auto has = [&](const char *extension) {
    return std::find(info.extensions.begin(), info.extensions.end(),
                     extension) != info.extensions.end();
  };
  info.fp16 = has("cl_khr_fp16");
  info.fp64 =
      has("cl_khr_fp64") ||
      deviceValue<cl_device_fp_config>(device, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  info.int64 = true; // OpenCL C 1.2 requires long on every device
  info.int8 = true;
  return info;
}

} // namespace

std::vector<CLDevice> cl::discoverDevices(std::string &whyNone) {
  std::vector<CLDevice> found;
  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status != CL_SUCCESS || count == 0) {
    whyNone = status == CL_SUCCESS || status == kPlatformNotFound
                  ? "the OpenCL ICD loader found no platform (is a driver "
                    "such as PoCL installed, with a file in "
                    "/etc/OpenCL/vendors?)"
                  : "clGetPlatformIDs failed: " + errorName(status);
    return found;
  }
  std::vector<cl_platform_id> platforms(count);
  if ((status = clGetPlatformIDs(count, platforms.data(), nullptr)) !=
      CL_SUCCESS) {
    whyNone = "clGetPlatformIDs failed: " + errorName(status);
    return found;
  }
  std::vector<DeviceInfo> described;
  for (cl_platform_id platform : platforms) {
    cl_uint devices = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &devices) !=
            CL_SUCCESS ||
        devices == 0)
      continue;
    std::vector<cl_device_id> ids(devices);
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, devices, ids.data(),
                       nullptr) != CL_SUCCESS)
      continue;
    std::string vendor =
        vendorKey(platformString(platform, CL_PLATFORM_VENDOR));
    for (cl_device_id id : ids) {
      CLDevice device{platform, id, describe(platform, id)};
      device.info.id =
          nextDeviceId("opencl", vendor, device.info.name, described);
      described.push_back(device.info);
      found.push_back(std::move(device));
    }
  }
  if (found.empty())
    whyNone = "the OpenCL platforms have no devices";
  return found;
}
