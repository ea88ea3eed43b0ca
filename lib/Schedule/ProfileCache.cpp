//===- ProfileCache.cpp - Measured device peaks, kept between runs --------===//
//
// The file:
//   {"format": "tilec-device-profiles", "version": 1,
//    "devices": {"<id> <driver version>": {"id": ..., "driver_version": ...,
//                "name": ..., "peak_bytes_per_second": 1.2e10,
//                "peak_flops_per_second": 3.4e11, "date": "2026-11-30"}}}
// It is only a cache: anything wrong with it is a reason to measure again,
// never an error that stops a command.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/ProfileCache.h"

#include "tilec/Support/FileIO.h"
#include "tilec/Support/Json.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace tilec;
using namespace tilec::schedule;
using json = nlohmann::json;

static constexpr const char *kFormat = "tilec-device-profiles";
static constexpr int kVersion = 1;

std::string tilec::schedule::defaultProfileCachePath() {
  llvm::SmallString<256> path;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    path = xdg;
  } else if (const char *home = std::getenv("HOME"); home && *home) {
    path = home;
    llvm::sys::path::append(path, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(path, "tilec", "device-profiles.json");
  return path.str().str();
}

std::string ProfileCache::keyOf(const rt::DeviceInfo &device) {
  return device.id + " " + device.driverVersion;
}

/// Whether `value` is a positive number (a measured rate).
static bool isRate(const json &value) {
  return value.is_number() && value.get<double>() > 0;
}

ProfileCache ProfileCache::load(const std::string &path,
                                std::string &warning) {
  ProfileCache cache;
  cache.filePath = path;
  warning.clear();
  if (path.empty() || !llvm::sys::fs::exists(path))
    return cache;
  auto corrupt = [&](const std::string &why) {
    warning = path + ": " + why + "; the device profiles will be measured "
                                  "again";
    cache.entries.clear();
    return cache;
  };
  Result<std::string> text = readFileBytes(path);
  if (!text)
    return corrupt(text.message());
  Result<json> parsed = parseJson(*text, path);
  if (!parsed) // the message starts with "PATH: ", which corrupt() adds
    return corrupt(parsed.message().substr(path.size() + 2));
  json &root = *parsed;
  if (!root.is_object())
    return corrupt("not a JSON object");
  if (root.value("format", json()) != kFormat ||
      root.value("version", json()) != kVersion)
    return corrupt(std::string("not a '") + kFormat + "' file of version " +
                   std::to_string(kVersion));
  auto devices = root.find("devices");
  if (devices == root.end() || !devices->is_object())
    return corrupt("no \"devices\" object");
  for (const auto &[key, object] : devices->items()) {
    if (!object.is_object() || !object.value("id", json()).is_string() ||
        !object.value("driver_version", json()).is_string() ||
        !isRate(object.value("peak_bytes_per_second", json())) ||
        !isRate(object.value("peak_flops_per_second", json())))
      return corrupt("bad entry '" + key + "'");
    Entry entry;
    entry.id = object["id"].get<std::string>();
    entry.driverVersion = object["driver_version"].get<std::string>();
    entry.name = object.value("name", json("")).is_string()
                     ? object.value("name", std::string())
                     : std::string();
    entry.peaks.bytesPerSecond = object["peak_bytes_per_second"];
    entry.peaks.flopsPerSecond = object["peak_flops_per_second"];
    if (object.value("date", json("")).is_string())
      entry.peaks.date = object.value("date", std::string());
    if (key != entry.id + " " + entry.driverVersion)
      return corrupt("entry '" + key + "' does not match its id and driver");
    cache.entries[key] = std::move(entry);
  }
  return cache;
}

const MeasuredPeaks *
ProfileCache::lookup(const rt::DeviceInfo &device) const {
  auto found = entries.find(keyOf(device));
  return found == entries.end() ? nullptr : &found->second.peaks;
}

void ProfileCache::store(const rt::DeviceInfo &device,
                         const MeasuredPeaks &peaks) {
  entries[keyOf(device)] = {device.id, device.driverVersion, device.name,
                            peaks};
}

Status ProfileCache::save() const {
  if (filePath.empty())
    return Status::error("no cache folder: neither XDG_CACHE_HOME nor HOME "
                         "is set");
  json devices = json::object();
  for (const auto &[key, entry] : entries)
    devices[key] = {{"id", entry.id},
                    {"driver_version", entry.driverVersion},
                    {"name", entry.name},
                    {"peak_bytes_per_second", entry.peaks.bytesPerSecond},
                    {"peak_flops_per_second", entry.peaks.flopsPerSecond},
                    {"date", entry.peaks.date}};
  json root = {{"format", kFormat}, {"version", kVersion},
               {"devices", devices}};
  llvm::StringRef folder = llvm::sys::path::parent_path(filePath);
  if (!folder.empty())
    if (std::error_code error = llvm::sys::fs::create_directories(folder))
      return Status::error(folder.str() + ": cannot create: " +
                           error.message());
  return writeFileAtomically(
      filePath,
      root.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

bool tilec::schedule::applyCachedPeaks(DeviceProfile &profile,
                                       const rt::DeviceInfo &device,
                                       const ProfileCache &cache) {
  const MeasuredPeaks *peaks = cache.lookup(device);
  if (!peaks)
    return false;
  profile.peakBytesPerSecond = peaks->bytesPerSecond;
  profile.peakFlopsPerSecond = peaks->flopsPerSecond;
  return true;
}
