//===- DeviceReport.cpp - Listing the devices every runtime sees ----------===//
//
// The text form shows what the cost model reads, in units people read (MiB,
// MHz); the JSON form has every field in plain numbers (bytes), with the
// DeviceInfo field names in snake_case.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/DeviceReport.h"
#include "tilec/Support/Json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <variant>

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
        (d.subgroupShuffle ? " (shuffles)" : "") + "\n";
  text += "  vector width:  float " +
          std::to_string(d.preferredVectorWidthFloat) + ", half " +
          std::to_string(d.preferredVectorWidthHalf) + "\n";
  text += std::string("  types:         fp16 ") + (d.fp16 ? "yes" : "no") +
          ", fp64 " + (d.fp64 ? "yes" : "no") + "\n";
  if (d.computeCapability)
    text += "  cuda:          compute capability " +
            std::to_string(d.computeCapability / 10) + "." +
            std::to_string(d.computeCapability % 10) + ", shared " +
            bytesText(d.sharedMemOptInBytes) + " per block opted in, " +
            bytesText(d.sharedMemPerComputeUnitBytes) + " per SM, " +
            numberText(d.registersPerBlock) + " registers per block, " +
            "memory " + numberText(d.memoryBandwidthBytes / 1000000000) +
            " GB/s\n";
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

namespace {

/// One DeviceInfo field and its JSON name. The writer and the reader both
/// walk this table, so the two forms cannot drift apart.
struct DeviceField {
  const char *name;
  std::variant<std::string DeviceInfo::*, unsigned DeviceInfo::*,
               uint64_t DeviceInfo::*, bool DeviceInfo::*,
               std::vector<uint64_t> DeviceInfo::*,
               std::vector<std::string> DeviceInfo::*>
      member;
};

const DeviceField deviceFields[] = {
    {"id", &DeviceInfo::id},
    {"runtime", &DeviceInfo::runtime},
    {"type", &DeviceInfo::type},
    {"name", &DeviceInfo::name},
    {"vendor", &DeviceInfo::vendor},
    {"driver_version", &DeviceInfo::driverVersion},
    {"platform", &DeviceInfo::platform},
    {"api_version", &DeviceInfo::apiVersion},
    {"compute_units", &DeviceInfo::computeUnits},
    {"clock_mhz", &DeviceInfo::clockMHz},
    {"global_mem_bytes", &DeviceInfo::globalMemBytes},
    {"max_alloc_bytes", &DeviceInfo::maxAllocBytes},
    {"local_mem_bytes", &DeviceInfo::localMemBytes},
    {"max_work_group_size", &DeviceInfo::maxWorkGroupSize},
    {"max_work_item_sizes", &DeviceInfo::maxWorkItemSizes},
    {"max_work_group_count", &DeviceInfo::maxWorkGroupCount},
    {"cache_bytes", &DeviceInfo::cacheBytes},
    {"cache_line_bytes", &DeviceInfo::cacheLineBytes},
    {"l1_cache_bytes", &DeviceInfo::l1CacheBytes},
    {"l3_cache_bytes", &DeviceInfo::l3CacheBytes},
    {"preferred_vector_width_float", &DeviceInfo::preferredVectorWidthFloat},
    {"preferred_vector_width_half", &DeviceInfo::preferredVectorWidthHalf},
    {"subgroup_size", &DeviceInfo::subgroupSize},
    {"subgroup_shuffle", &DeviceInfo::subgroupShuffle},
    {"max_storage_buffer_range", &DeviceInfo::maxStorageBufferRange},
    {"fp16", &DeviceInfo::fp16},
    {"fp64", &DeviceInfo::fp64},
    {"int64", &DeviceInfo::int64},
    {"int8", &DeviceInfo::int8},
    {"inf_nan_preserve_f16", &DeviceInfo::infNanPreserveF16},
    {"inf_nan_preserve_f32", &DeviceInfo::infNanPreserveF32},
    {"inf_nan_preserve_f64", &DeviceInfo::infNanPreserveF64},
    {"denorm_preserve_f16", &DeviceInfo::denormPreserveF16},
    {"denorm_preserve_f32", &DeviceInfo::denormPreserveF32},
    {"denorm_preserve_f64", &DeviceInfo::denormPreserveF64},
    {"max_loop_iterations", &DeviceInfo::maxLoopIterations},
    {"compute_capability", &DeviceInfo::computeCapability},
    {"shared_mem_opt_in_bytes", &DeviceInfo::sharedMemOptInBytes},
    {"shared_mem_per_compute_unit_bytes",
     &DeviceInfo::sharedMemPerComputeUnitBytes},
    {"registers_per_block", &DeviceInfo::registersPerBlock},
    {"memory_bandwidth_bytes", &DeviceInfo::memoryBandwidthBytes},
    {"extensions", &DeviceInfo::extensions},
};

json deviceJson(const DeviceInfo &d) {
  json object = json::object();
  for (const DeviceField &field : deviceFields)
    std::visit([&](auto member) { object[field.name] = d.*member; },
               field.member);
  return object;
}

/// Whether `value` has the JSON type of a field of type T.
template <typename T> bool hasTypeOf(const json &value) {
  if constexpr (std::is_same_v<T, std::string>)
    return value.is_string();
  else if constexpr (std::is_same_v<T, bool>)
    return value.is_boolean();
  else if constexpr (std::is_same_v<T, std::vector<std::string>>)
    return value.is_array() &&
           std::all_of(value.begin(), value.end(),
                       [](const json &v) { return v.is_string(); });
  else if constexpr (std::is_same_v<T, std::vector<uint64_t>>)
    return value.is_array() &&
           std::all_of(value.begin(), value.end(),
                       [](const json &v) { return v.is_number_unsigned(); });
  else
    return value.is_number_unsigned() &&
           value.get<uint64_t>() <= std::numeric_limits<T>::max();
}

/// Reads one device object; `where` prefixes errors.
Result<DeviceInfo> readDevice(const json &object, const std::string &where) {
  if (!object.is_object())
    return Result<DeviceInfo>::error(where + ": must be an object");
  DeviceInfo device;
  for (const DeviceField &field : deviceFields) {
    auto found = object.find(field.name);
    if (found == object.end())
      continue; // a field an older tilec did not write stays unknown (0)
    bool ok = std::visit(
        [&](auto member) {
          using T = std::remove_reference_t<decltype(device.*member)>;
          if (!hasTypeOf<T>(*found))
            return false;
          device.*member = found->template get<T>();
          return true;
        },
        field.member);
    if (!ok)
      return Result<DeviceInfo>::error(where + "." + field.name +
                                       ": has the wrong type");
  }
  if (device.id.empty() || device.runtime.empty())
    return Result<DeviceInfo>::error(where +
                                     ": needs a non-empty \"id\" and \"runtime\"");
  return device;
}

} // namespace

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

Result<std::vector<RuntimeDevices>>
tilec::rt::parseDeviceReportJson(const std::string &text,
                                 const std::string &name) {
  using Report = std::vector<RuntimeDevices>;
  using Parsed = Result<Report>;
  Result<json> parsed = parseJson(text, name);
  if (!parsed)
    return Parsed::error(parsed.message());
  json &root = *parsed;
  auto devices = root.is_object() ? root.find("devices") : root.end();
  if (devices == root.end() || !devices->is_array())
    return Parsed::error(name + ": not a device list ('tilec devices --json' "
                                "writes one): no \"devices\" array");
  Report report;
  auto runtimes = root.find("runtimes");
  if (runtimes != root.end() && runtimes->is_array())
    for (const json &runtime : *runtimes)
      if (runtime.is_object() && runtime.value("name", json()).is_string())
        report.push_back(
            {runtime["name"].get<std::string>(), {},
             runtime.value("why_none", json()).is_string()
                 ? runtime["why_none"].get<std::string>()
                 : std::string()});
  for (size_t i = 0; i < devices->size(); ++i) {
    Result<DeviceInfo> device =
        readDevice((*devices)[i], name + ": devices[" + std::to_string(i) + "]");
    if (!device)
      return device.status();
    auto owner = std::find_if(report.begin(), report.end(),
                              [&](const RuntimeDevices &entry) {
                                return entry.runtime == device->runtime;
                              });
    if (owner == report.end())
      owner = report.insert(report.end(),
                            RuntimeDevices{device->runtime, {}, ""});
    owner->devices.push_back(std::move(*device));
  }
  return report;
}
