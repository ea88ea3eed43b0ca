//===- DeviceReportTest.cpp - Reading a `tilec devices --json` dump -------===//
//
// --devices-from reads the device list of another machine: what
// formatDeviceReportJson writes must read back field for field, a dump from
// an older tilec (fewer fields) must still read, and a malformed one must
// give an error naming the file and the entry.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/DeviceReport.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::rt;

namespace {

DeviceInfo sampleGPU() {
  DeviceInfo d;
  d.id = "vulkan:nvidia:nvidia-h200:0";
  d.runtime = "vulkan";
  d.type = "gpu";
  d.name = "NVIDIA H200";
  d.vendor = "NVIDIA";
  d.driverVersion = "560.1";
  d.apiVersion = "Vulkan 1.3.280";
  d.computeUnits = 132;
  d.clockMHz = 1980;
  d.globalMemBytes = uint64_t(141) << 30;
  d.localMemBytes = 49152;
  d.maxWorkGroupSize = 1024;
  d.maxWorkItemSizes = {1024, 1024, 64};
  d.maxWorkGroupCount = {2147483647, 65535, 65535};
  d.subgroupSize = 32;
  d.fp16 = true;
  d.fp64 = true;
  // What the H200's Vulkan driver grants (denormals kept for f16 only).
  d.infNanPreserveF16 = d.infNanPreserveF32 = d.infNanPreserveF64 = true;
  d.denormPreserveF16 = true;
  d.extensions = {"VK_KHR_16bit_storage"};
  return d;
}

} // namespace

TEST_CASE("a device report reads back what it wrote", "[devices]") {
  std::vector<RuntimeDevices> report = {
      {"opencl", {}, "no OpenCL platform"},
      {"vulkan", {sampleGPU()}, ""},
  };
  auto parsed =
      parseDeviceReportJson(formatDeviceReportJson(report), "h200.json");
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 2);
  CHECK((*parsed)[0].runtime == "opencl");
  CHECK((*parsed)[0].devices.empty());
  CHECK((*parsed)[0].whyNone == "no OpenCL platform");
  REQUIRE((*parsed)[1].devices.size() == 1);
  const DeviceInfo &d = (*parsed)[1].devices[0];
  DeviceInfo want = sampleGPU();
  CHECK(d.id == want.id);
  CHECK(d.name == want.name);
  CHECK(d.driverVersion == want.driverVersion);
  CHECK(d.computeUnits == 132);
  CHECK(d.globalMemBytes == want.globalMemBytes);
  CHECK(d.maxWorkItemSizes == want.maxWorkItemSizes);
  CHECK(d.maxWorkGroupCount == want.maxWorkGroupCount);
  CHECK(d.fp16);
  CHECK(d.infNanPreserveF64);
  CHECK(d.denormPreserveF16);
  CHECK_FALSE(d.denormPreserveF32);
  CHECK(d.extensions == want.extensions);
  // Printing what was read gives the same text again.
  CHECK(formatDeviceReportJson(*parsed) == formatDeviceReportJson(report));
}

TEST_CASE("a device report from an older tilec still reads", "[devices]") {
  auto parsed = parseDeviceReportJson(
      R"({"devices": [{"id": "opencl:pocl:cpu:0", "runtime": "opencl",
                       "compute_units": 4, "new_field": [1, 2]}]})",
      "old.json");
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 1);
  CHECK((*parsed)[0].runtime == "opencl");
  CHECK((*parsed)[0].devices[0].computeUnits == 4);
  CHECK((*parsed)[0].devices[0].localMemBytes == 0); // unknown
}

TEST_CASE("a malformed device report is an error naming the entry",
          "[devices]") {
  auto error = [](const char *text) {
    auto parsed = parseDeviceReportJson(text, "d.json");
    REQUIRE(!parsed.ok());
    return parsed.message();
  };
  CHECK(error("{ nope") .find("d.json: not valid JSON") == 0);
  CHECK(error(R"({"manifest": 1})").find("no \"devices\" array") !=
        std::string::npos);
  CHECK(error(R"({"devices": [{"id": "x", "runtime": "opencl",
                               "compute_units": "four"}]})") ==
        "d.json: devices[0].compute_units: has the wrong type");
  CHECK(error(R"({"devices": [{"id": "x", "runtime": "opencl",
                               "compute_units": -1}]})") ==
        "d.json: devices[0].compute_units: has the wrong type");
  CHECK(error(R"({"devices": [{"name": "no id"}]})")
            .find("d.json: devices[0]: needs a non-empty") == 0);
  CHECK(error(R"({"devices": [3]})") == "d.json: devices[0]: must be an object");
}
