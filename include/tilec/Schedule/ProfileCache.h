//===- ProfileCache.h - Measured device peaks, kept between runs -*- C++ -*-===//
//
// `tilec devices --probe` measures each device's peak bandwidth and compute
// rate once and keeps them in $XDG_CACHE_HOME/tilec/device-profiles.json
// (default ~/.cache/tilec), so that every later compile's cost model and
// `tilec bench` can use them without measuring again. Entries are keyed by
// device id and driver version: a new driver may change the peaks.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SCHEDULE_PROFILECACHE_H
#define TILEC_SCHEDULE_PROFILECACHE_H

#include "tilec/Runtime/Device.h"
#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Support/Result.h"

#include <map>
#include <string>

namespace tilec::schedule {

/// What the probe measured on one device.
struct MeasuredPeaks {
  double bytesPerSecond = 0; ///< a large copy
  double flopsPerSecond = 0; ///< tilec's own code on a long FMA chain
  std::string date;          ///< YYYY-MM-DD of the measurement
};

/// The cache file's path: $XDG_CACHE_HOME/tilec/device-profiles.json, else
/// $HOME/.cache/tilec/device-profiles.json; "" when neither is set.
std::string defaultProfileCachePath();

/// The peaks of every probed device, as read from and written to one file.
class ProfileCache {
public:
  /// Reads `path`. A missing file is an empty cache. A corrupt one (not
  /// JSON, another format or version, bad entries) is an empty cache too,
  /// so the next probe rebuilds it; `warning` then says why.
  static ProfileCache load(const std::string &path, std::string &warning);

  /// The peaks of `device` (same id and driver version), or null.
  const MeasuredPeaks *lookup(const rt::DeviceInfo &device) const;
  /// Adds or replaces the peaks of `device`; other devices are kept.
  void store(const rt::DeviceInfo &device, const MeasuredPeaks &peaks);
  /// Writes the file atomically, creating its folder.
  Status save() const;

  const std::string &path() const { return filePath; }

private:
  struct Entry {
    std::string id, driverVersion, name;
    MeasuredPeaks peaks;
  };
  static std::string keyOf(const rt::DeviceInfo &device);

  std::string filePath;
  std::map<std::string, Entry> entries; ///< by keyOf
};

/// Sets the measured peaks of `profile` from `cache` when it has `device`;
/// returns whether it did.
bool applyCachedPeaks(DeviceProfile &profile, const rt::DeviceInfo &device,
                      const ProfileCache &cache);

} // namespace tilec::schedule

#endif // TILEC_SCHEDULE_PROFILECACHE_H
