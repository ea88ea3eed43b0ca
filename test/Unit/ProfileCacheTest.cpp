//===- ProfileCacheTest.cpp - The device-profile cache of devices --probe -===//
//
// The cache round trip (kept per device id and driver version), a missing
// file as an empty cache, and a corrupt file as an empty cache with a
// warning, so that the next probe rebuilds it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/ProfileCache.h"
#include "tilec/Support/FileIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace tilec;
using namespace tilec::schedule;

namespace {

/// A fresh folder for one test case, removed at the end.
struct TempFolder {
  llvm::SmallString<128> path;
  TempFolder() {
    REQUIRE(!llvm::sys::fs::createUniqueDirectory("tilec-profile-cache",
                                                  path));
  }
  ~TempFolder() { (void)llvm::sys::fs::remove_directories(path); }
  std::string file(const char *name) const {
    llvm::SmallString<128> joined(path);
    llvm::sys::path::append(joined, name);
    return joined.str().str();
  }
};

rt::DeviceInfo device(const char *id, const char *driver) {
  rt::DeviceInfo info;
  info.id = id;
  info.driverVersion = driver;
  info.name = "Test Device";
  return info;
}

} // namespace

TEST_CASE("the profile cache keeps peaks per device and driver", "[profile]") {
  TempFolder folder;
  // The folder of the cache is created on save.
  std::string path = folder.file("tilec/device-profiles.json");
  std::string warning;
  ProfileCache cache = ProfileCache::load(path, warning);
  CHECK(warning.empty());
  rt::DeviceInfo gpu = device("opencl:test:gpu:0", "1.0");
  CHECK(cache.lookup(gpu) == nullptr);
  cache.store(gpu, {2.5e10, 1.25e11, "2026-11-30"});
  cache.store(device("cpu:host:x:0", ""), {1e10, 5e10, "2026-11-29"});
  REQUIRE(cache.save().ok());

  ProfileCache again = ProfileCache::load(path, warning);
  CHECK(warning.empty());
  const MeasuredPeaks *peaks = again.lookup(gpu);
  REQUIRE(peaks);
  CHECK(peaks->bytesPerSecond == 2.5e10);
  CHECK(peaks->flopsPerSecond == 1.25e11);
  CHECK(peaks->date == "2026-11-30");
  CHECK(again.lookup(device("cpu:host:x:0", "")) != nullptr);
  // Another driver version may have other peaks: not a hit.
  CHECK(again.lookup(device("opencl:test:gpu:0", "2.0")) == nullptr);

  DeviceProfile profile;
  CHECK(applyCachedPeaks(profile, gpu, again));
  CHECK(profile.peakBytesPerSecond == 2.5e10);
  CHECK(profile.peakFlopsPerSecond == 1.25e11);
  DeviceProfile unknown;
  CHECK(!applyCachedPeaks(unknown, device("vulkan:x:y:0", "1"), again));
  CHECK(unknown.peakFlopsPerSecond == 0);
}

TEST_CASE("a corrupt profile cache is empty, with a warning", "[profile]") {
  TempFolder folder;
  std::string path = folder.file("device-profiles.json");
  const char *corrupt[] = {
      "{ not json",
      R"({"format": "something-else", "version": 1, "devices": {}})",
      R"({"format": "tilec-device-profiles", "version": 99, "devices": {}})",
      R"({"format": "tilec-device-profiles", "version": 1, "devices": {
          "a 1": {"id": "a", "driver_version": "1",
                  "peak_bytes_per_second": -1, "peak_flops_per_second": 1}}})",
      R"({"format": "tilec-device-profiles", "version": 1, "devices": {
          "b 1": {"id": "a", "driver_version": "1",
                  "peak_bytes_per_second": 1, "peak_flops_per_second": 1}}})",
  };
  for (const char *text : corrupt) {
    REQUIRE(writeFileAtomically(path, text).ok());
    std::string warning;
    ProfileCache cache = ProfileCache::load(path, warning);
    INFO(text);
    CHECK(warning.find(path) == 0);
    CHECK(warning.find("measured again") != std::string::npos);
    CHECK(cache.lookup(device("a", "1")) == nullptr);
    // Saving rebuilds a valid file.
    cache.store(device("a", "1"), {1, 2, "2026-11-30"});
    REQUIRE(cache.save().ok());
    ProfileCache rebuilt = ProfileCache::load(path, warning);
    CHECK(warning.empty());
    CHECK(rebuilt.lookup(device("a", "1")) != nullptr);
  }
}

TEST_CASE("the cache lives under XDG_CACHE_HOME, else ~/.cache", "[profile]") {
  const char *oldXdg = std::getenv("XDG_CACHE_HOME");
  std::string savedXdg = oldXdg ? oldXdg : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  CHECK(defaultProfileCachePath() == "/tmp/xdg/tilec/device-profiles.json");
  unsetenv("XDG_CACHE_HOME");
  const char *home = std::getenv("HOME");
  if (home && *home)
    CHECK(defaultProfileCachePath() ==
          std::string(home) + "/.cache/tilec/device-profiles.json");
  if (oldXdg)
    setenv("XDG_CACHE_HOME", savedXdg.c_str(), 1);
}
