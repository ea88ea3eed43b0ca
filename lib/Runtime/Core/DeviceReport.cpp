//===- DeviceReport.cpp - Listing the devices every runtime sees ----------===//
//
// The text form shows what the cost model reads, in units people read (MiB,
// MHz); the JSON form has every field in plain numbers (bytes), with the
// DeviceInfo field names in snake_case.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/DeviceReport.h"

#include <nlohmann/json.hpp>

#include <cstdio>

using namespace tilec;
using namespace tilec::rt;
using json = nlohmann::json;

std::vector<RuntimeDevices> tilec::rt::discoverAllDevices(
    const std::vector<std::unique_ptr<Runtime>> &runtimes) {
  std::vector<RuntimeDevices> report;
  for (const std::unique_ptr<Runtime> &runtime : runtimes) {
    RuntimeDevices entry{runtime->name(), runtime->devices(), ""};
    if (entry.devices.empty())
      entry.whyNone = runtime->whyNone();
    report.push_back(std::move(entry));
  }
  return report;
}

/// 3145728 -> "3 MiB"; 0 -> "?" (unknown).
static std::string bytesText(uint64_t bytes) {
  if (bytes == 0)
    return "?";
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text),
                value == uint64_t(value) ? "%.0f %s" : "%.1f %s", value,
                units[unit]);
  return text;
}

static std::string numberText(uint64_t value) {
  return value == 0 ? "?" : std::to_string(value);
}

static std::string listText(const std::vector<uint64_t> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

static std::string describe(const DeviceInfo &d) {
  std::string text = d.id + "\n";
  text += "  name:          " + d.name + " (" + d.type + ", " +
          (d.vendor.empty() ? "unknown vendor" : d.vendor) + ")\n";
  if (!d.platform.empty() || !d.apiVersion.empty())
    text += "  platform:      " + d.platform +
            (d.apiVersion.empty() ? "" : ", " + d.apiVersion) +
            (d.driverVersion.empty() ? "" : ", driver " + d.driverVersion) +
            "\n";
  text += "  compute units: " + numberText(d.computeUnits) + " at " +
          numberText(d.clockMHz) + " MHz\n";
  text += "  memory:        global " + bytesText(d.globalMemBytes) +
          " (largest buffer " + bytesText(d.maxAllocBytes) + "), local " +
          bytesText(d.localMemBytes) + "\n";
  text += "  cache:         " +
          (d.l1CacheBytes ? "L1 " + bytesText(d.l1CacheBytes) + ", L2 "
                          : std::string()) +
          bytesText(d.cacheBytes) +
          (d.l3CacheBytes ? ", L3 " + bytesText(d.l3CacheBytes) : "") +
          ", line " + numberText(d.cacheLineBytes) + " B\n";
  if (d.maxWorkGroupSize || !d.maxWorkItemSizes.empty())
    text +=
        "  work-group:    up to " + numberText(d.maxWorkGroupSize) +
        " items, per dimension " + listText(d.maxWorkItemSizes) +
        (d.maxWorkGroupCount.empty()
             ? ""
             : ", groups per dimension " + listText(d.maxWorkGroupCount)) +
        (d.subgroupSize ? ", subgroup " + std::to_string(d.subgroupSize) : "") +
        "\n";
  text += "  vector width:  float " +
          std::to_string(d.preferredVectorWidthFloat) + ", half " +
          std::to_string(d.preferredVectorWidthHalf) + "\n";
  text += std::string("  types:         fp16 ") + (d.fp16 ? "yes" : "no") +
          ", fp64 " + (d.fp64 ? "yes" : "no") + "\n";
  return text;
}

std::string
tilec::rt::formatDeviceReport(const std::vector<RuntimeDevices> &report) {
  std::string text;
  for (const RuntimeDevices &entry : report)
    for (const DeviceInfo &device : entry.devices)
      text += (text.empty() ? "" : "\n") + describe(device);
  for (const RuntimeDevices &entry : report)
    if (entry.devices.empty())
      text += (text.empty() ? "" : "\n") + entry.runtime + ": no devices" +
              (entry.whyNone.empty() ? "" : " (" + entry.whyNone + ")") + "\n";
  return text;
}

static json deviceJson(const DeviceInfo &d) {
  return {{"id", d.id},
          {"runtime", d.runtime},
          {"type", d.type},
          {"name", d.name},
          {"vendor", d.vendor},
          {"driver_version", d.driverVersion},
          {"platform", d.platform},
          {"api_version", d.apiVersion},
          {"compute_units", d.computeUnits},
          {"clock_mhz", d.clockMHz},
          {"global_mem_bytes", d.globalMemBytes},
          {"max_alloc_bytes", d.maxAllocBytes},
          {"local_mem_bytes", d.localMemBytes},
          {"max_work_group_size", d.maxWorkGroupSize},
          {"max_work_item_sizes", d.maxWorkItemSizes},
          {"max_work_group_count", d.maxWorkGroupCount},
          {"cache_bytes", d.cacheBytes},
          {"cache_line_bytes", d.cacheLineBytes},
          {"l1_cache_bytes", d.l1CacheBytes},
          {"l3_cache_bytes", d.l3CacheBytes},
          {"preferred_vector_width_float", d.preferredVectorWidthFloat},
          {"preferred_vector_width_half", d.preferredVectorWidthHalf},
          {"subgroup_size", d.subgroupSize},
          {"max_storage_buffer_range", d.maxStorageBufferRange},
          {"fp16", d.fp16},
          {"fp64", d.fp64},
          {"int64", d.int64},
          {"int8", d.int8},
          {"extensions", d.extensions}};
}

std::string
tilec::rt::formatDeviceReportJson(const std::vector<RuntimeDevices> &report) {
  json devices = json::array(), runtimes = json::array();
  for (const RuntimeDevices &entry : report) {
    for (const DeviceInfo &device : entry.devices)
      devices.push_back(deviceJson(device));
    runtimes.push_back({{"name", entry.runtime},
                        {"devices", entry.devices.size()},
                        {"why_none", entry.whyNone}});
  }
  json root = {{"devices", devices}, {"runtimes", runtimes}};
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}
