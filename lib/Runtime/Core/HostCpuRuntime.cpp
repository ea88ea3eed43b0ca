//===- HostCpuRuntime.cpp - The host CPU as a device ----------------------===//
//
// Linux only: the model, vendor, clock and SIMD flags come from
// /proc/cpuinfo, the caches from /sys/devices/system/cpu/cpu0/cache. Any of
// them missing leaves the field 0 (unknown), never an error.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/HostCpuRuntime.h"
#include "tilec/Runtime/DeviceId.h"
#include "tilec/Support/FileIO.h"

#include <cstdlib>
#include <sstream>
#include <unistd.h>

using namespace tilec;
using namespace tilec::rt;

namespace {

/// The value of the first "key : value" line of /proc/cpuinfo with `key`.
std::string cpuinfoField(const std::string &cpuinfo, const std::string &key) {
  std::istringstream lines(cpuinfo);
  for (std::string line; std::getline(lines, line);) {
    size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    std::string name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t'))
      name.pop_back();
    if (name != key)
      continue;
    size_t start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

bool hasFlag(const std::string &flags, const std::string &flag) {
  return (" " + flags + " ").find(" " + flag + " ") != std::string::npos;
}

/// A sysfs size such as "48K" or "2048K" in bytes; 0 if unreadable.
uint64_t readSysfsSize(const std::string &path) {
  Result<std::string> text = readFileBytes(path);
  if (!text)
    return 0;
  uint64_t value = 0;
  size_t i = 0;
  for (; i < text->size() && (*text)[i] >= '0' && (*text)[i] <= '9'; ++i)
    value = value * 10 + uint64_t((*text)[i] - '0');
  char unit = i < text->size() ? (*text)[i] : '\0';
  if (unit == 'K')
    value <<= 10;
  else if (unit == 'M')
    value <<= 20;
  return value;
}

std::string readSysfsText(const std::string &path) {
  Result<std::string> text = readFileBytes(path);
  if (!text)
    return "";
  std::string value = *text;
  while (!value.empty() && (value.back() == '\n' || value.back() == ' '))
    value.pop_back();
  return value;
}

/// Fills the cache fields from cpu0's cache indices.
void readCaches(DeviceInfo &info) {
  const std::string base = "/sys/devices/system/cpu/cpu0/cache/index";
  for (int index = 0; index < 8; ++index) {
    std::string dir = base + std::to_string(index) + "/";
    std::string level = readSysfsText(dir + "level");
    if (level.empty())
      break;
    std::string type = readSysfsText(dir + "type");
    uint64_t size = readSysfsSize(dir + "size");
    if (level == "1" && type == "Data")
      info.l1CacheBytes = size;
    else if (level == "2")
      info.cacheBytes = size;
    else if (level == "3")
      info.l3CacheBytes = size;
    if (info.cacheLineBytes == 0)
      info.cacheLineBytes =
          unsigned(readSysfsSize(dir + "coherency_line_size"));
  }
}

DeviceInfo describeHostCpu() {
  DeviceInfo info;
  info.runtime = "cpu";
  info.type = "cpu";
  info.platform = "host";
  Result<std::string> cpuinfo = readFileBytes("/proc/cpuinfo");
  std::string text = cpuinfo ? *cpuinfo : "";
  info.name = cpuinfoField(text, "model name");
  if (info.name.empty())
    info.name = "cpu";
  info.vendor = cpuinfoField(text, "vendor_id");
  std::string mhz = cpuinfoField(text, "cpu MHz");
  info.clockMHz = mhz.empty() ? 0 : unsigned(std::atof(mhz.c_str()) + 0.5);
  long cores = ::sysconf(_SC_NPROCESSORS_ONLN);
  info.computeUnits = cores > 0 ? unsigned(cores) : 0;
  long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0)
    info.globalMemBytes = info.maxAllocBytes = uint64_t(pages) * pageSize;
  readCaches(info);
  // The widest SIMD registers, in floats.
  std::string flags = cpuinfoField(text, "flags");
  info.preferredVectorWidthFloat = hasFlag(flags, "avx512f") ? 16
                                   : hasFlag(flags, "avx")   ? 8
                                   : hasFlag(flags, "sse2")  ? 4
                                   : hasFlag(flags, "asimd") ? 4
                                                             : 1;
  info.fp16 = hasFlag(flags, "avx512fp16") || hasFlag(flags, "fphp");
  info.preferredVectorWidthHalf =
      info.fp16 ? 2 * info.preferredVectorWidthFloat : 0;
  info.fp64 = true;
  info.id = nextDeviceId("cpu", "host", info.name, {});
  return info;
}

} // namespace

std::vector<DeviceInfo> HostCpuRuntime::devices() {
  return {describeHostCpu()};
}

tilec::Result<std::unique_ptr<Program>>
HostCpuRuntime::load(const std::string &deviceId, const Manifest &,
                     const std::string &) {
  return Result<std::unique_ptr<Program>>::error(
      "device " + deviceId +
      " is the host CPU, which runs native code: compile with "
      "--target=llvm-x86 (tilec run, or tilec -o for an object file); "
      "manifests run on OpenCL and Vulkan devices");
}

std::unique_ptr<Runtime> tilec::rt::createHostCpuRuntime() {
  return std::make_unique<HostCpuRuntime>();
}
