//===- RuntimeDeviceTest.cpp - Device ids and --device selection ----------===//

#include "tilec/Runtime/DeviceId.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::rt;

namespace {
DeviceInfo device(const std::string &id, const std::string &name,
                  const std::string &type) {
  DeviceInfo info;
  info.id = id;
  info.name = name;
  info.type = type;
  return info;
}

const std::vector<DeviceInfo> kDevices = {
    device("opencl:pocl:cpu-haswell:0", "cpu-haswell", "cpu"),
    device("vulkan:nvidia:nvidia-h200:0", "NVIDIA H200", "gpu"),
    device("vulkan:nvidia:nvidia-h200:1", "NVIDIA H200", "gpu"),
    device("cpu:host:intel-xeon:0", "Intel(R) Xeon(R)", "cpu"),
};
} // namespace

TEST_CASE("device ids are lower-case, dash-separated and counted",
          "[runtime][device]") {
  CHECK(deviceIdPart("Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz") ==
        "intel-xeon-gold-6148-cpu-2.40ghz");
  CHECK(deviceIdPart("NVIDIA H200") == "nvidia-h200");
  CHECK(deviceIdPart("a:b") == "a-b"); // ':' separates the parts
  CHECK(deviceIdPart("  ") == "unknown");
  std::vector<DeviceInfo> seen;
  seen.push_back(
      device(nextDeviceId("vulkan", "NVIDIA", "NVIDIA H200", seen), "", "gpu"));
  seen.push_back(
      device(nextDeviceId("vulkan", "NVIDIA", "NVIDIA H200", seen), "", "gpu"));
  seen.push_back(
      device(nextDeviceId("vulkan", "NVIDIA", "NVIDIA H2", seen), "", "gpu"));
  CHECK(seen[0].id == "vulkan:nvidia:nvidia-h200:0");
  CHECK(seen[1].id == "vulkan:nvidia:nvidia-h200:1");
  CHECK(seen[2].id == "vulkan:nvidia:nvidia-h2:0");
}

TEST_CASE("selectDevice resolves --device values", "[runtime][device]") {
  auto pick = [](const std::string &request) {
    Result<DeviceInfo> d = selectDevice(kDevices, request);
    return d ? d->id : "error: " + d.message();
  };
  CHECK(pick("") == "vulkan:nvidia:nvidia-h200:0"); // the first GPU
  CHECK(pick("vulkan:nvidia:nvidia-h200:1") == "vulkan:nvidia:nvidia-h200:1");
  CHECK(pick("3") == "cpu:host:intel-xeon:0");
  CHECK(pick("haswell") == "opencl:pocl:cpu-haswell:0");
  CHECK(pick("XEON") == "cpu:host:intel-xeon:0"); // names match any case

  std::string ambiguous = pick("h200");
  CHECK(ambiguous.find("matches several devices") != std::string::npos);
  CHECK(ambiguous.find("2  vulkan:nvidia:nvidia-h200:1") != std::string::npos);
  std::string none = pick("amd");
  CHECK(none.find("--device=amd matches no device; there are:") !=
        std::string::npos);
  CHECK(none.find("0  opencl:pocl:cpu-haswell:0  (cpu-haswell)") !=
        std::string::npos);
  CHECK(pick("7").find("there are only 4 devices") != std::string::npos);

  // Without a GPU the first device is the default.
  std::vector<DeviceInfo> cpus = {kDevices[0], kDevices[3]};
  CHECK(selectDevice(cpus, "")->id == "opencl:pocl:cpu-haswell:0");
  Result<DeviceInfo> empty = selectDevice({}, "");
  REQUIRE(!empty.ok());
  CHECK(empty.message().find("no device found") != std::string::npos);
}
