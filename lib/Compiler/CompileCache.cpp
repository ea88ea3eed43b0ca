//===- CompileCache.cpp - The persistent compile cache --------------------===//
//
// Part of lib/Compiler; see CompileCache.h and docs/cache.md. The tilec
// version alone would not do as the build's identity: a developer rebuilds
// 0.2.0-dev many times with a different code generator each time. So an
// entry also records the executable's size and modification time and the
// LLVM version; neither is hashed into the key, so a rebuilt tilec finds
// the old entry, calls it stale and overwrites it instead of piling up new
// ones.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/CompileCache.h"
#include "tilec/Compiler/Reporter.h"
#include "tilec/Target/StageTiming.h"

#include "tilec/Schedule/ProfileCache.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Support/Json.h"
#include "tilec/Support/Version.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>

using namespace tilec;
using namespace tilec::compiler;
using json = nlohmann::json;

namespace {

/// The first line of every entry; the number is the format's version,
/// which is also hashed into every key.
constexpr llvm::StringLiteral kMagic = "tilec-compile-cache 1";
constexpr llvm::StringLiteral kEntrySuffix = ".tcc";

std::string sha256Hex(llvm::StringRef bytes) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes)),
                     /*LowerCase=*/true);
}

/// This build of tilec: its version, the LLVM it links and its executable.
std::string buildIdentity() {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::sys::fs::file_status status;
  std::string stamp = "unknown";
  if (!exe.empty() && !llvm::sys::fs::status(exe, status))
    stamp = fmt::format("{} bytes, modified {}", status.getSize(),
                        llvm::sys::toTimeT(status.getLastModificationTime()));
  return fmt::format("tilec {} (LLVM {}; {})", kTilecVersion,
                     LLVM_VERSION_STRING, stamp);
}

/// The folder the environment chooses; empty when it names none.
std::string defaultCacheDir() {
  if (const char *dir = std::getenv("TILEC_CACHE_DIR"); dir && *dir)
    return dir;
  // Beside the device profiles: $XDG_CACHE_HOME/tilec or ~/.cache/tilec.
  return llvm::sys::path::parent_path(schedule::defaultProfileCachePath())
      .str();
}

/// What a lookup found in an entry file.
enum class EntryState { Usable, Stale, Corrupt };

struct Checked {
  EntryState state;
  std::string why; ///< for Stale and Corrupt
  std::vector<CachePayload> payloads;
};

/// Checks the bytes of an entry against `key` and `expected`.
Checked checkEntry(llvm::StringRef bytes, const CacheKey &key,
                   llvm::ArrayRef<llvm::StringRef> expected) {
  auto corrupt = [](std::string why) {
    return Checked{EntryState::Corrupt, std::move(why), {}};
  };
  auto [magic, rest] = bytes.split('\n');
  if (magic != kMagic)
    return corrupt("not a tilec cache entry");
  auto [headerText, body] = rest.split('\n');
  Result<json> header = parseJson(headerText.str(), "header");
  if (!header)
    return corrupt(header.message());
  const json &h = *header;
  if (!h.is_object() || !h.contains("build") || !h["build"].is_string() ||
      !h.contains("material") || !h["material"].is_array() ||
      !h.contains("payloads") || !h["payloads"].is_array())
    return corrupt("the header lacks build, material or payloads");
  if (std::string build = h["build"]; build != buildIdentity())
    return {EntryState::Stale, "written by " + build, {}};
  json material = json::array();
  for (const auto &[name, value] : key.fields())
    material.push_back({name, value});
  if (h["material"] != material)
    return {EntryState::Stale, "its key material differs", {}};

  const json &listed = h["payloads"];
  if (listed.size() != expected.size())
    return corrupt("it lists the wrong payloads");
  Checked found{EntryState::Usable, "", {}};
  size_t offset = 0;
  for (size_t i = 0; i < listed.size(); ++i) {
    const json &item = listed[i];
    if (!item.is_object() || !item.contains("name") ||
        item["name"] != expected[i].str() || !item.contains("size") ||
        !item["size"].is_number_unsigned() || !item.contains("sha256") ||
        !item["sha256"].is_string())
      return corrupt(fmt::format("payload {} is not described", i));
    uint64_t size = item["size"];
    if (size > body.size() - offset)
      return corrupt("it is truncated");
    llvm::StringRef payload = body.substr(offset, size);
    offset += size;
    if (sha256Hex(payload) != item["sha256"].get<std::string>())
      return corrupt(fmt::format("the checksum of '{}' does not match",
                                 expected[i].str()));
    found.payloads.push_back({expected[i].str(), payload.str()});
  }
  if (offset != body.size())
    return corrupt("it has bytes after its payloads");
  return found;
}

} // namespace

void CacheKey::add(llvm::StringRef name, llvm::StringRef value) {
  material.emplace_back(name.str(), value.str());
}

void CacheKey::addDigestOf(llvm::StringRef name, llvm::StringRef bytes) {
  add(name, "sha256:" + sha256Hex(bytes));
}

std::string CacheKey::digest() const {
  // Each field as "name=<length>:value" so no two materials print alike.
  std::string text = kMagic.str() + "\n";
  for (const auto &[name, value] : material)
    text += fmt::format("{}={}:{}\n", name, value.size(), value);
  return sha256Hex(text);
}

CompileCache::CompileCache(const CacheSettings &settings, Reporter &reporter)
    : verbose(settings.verbose), reporter(&reporter) {
  if (settings.disabled)
    return;
  dir = settings.dir.empty() ? defaultCacheDir() : settings.dir;
  if (dir.empty()) {
    if (verbose)
      reporter.remark("cache: off (no TILEC_CACHE_DIR, XDG_CACHE_HOME or "
                      "HOME)");
    return;
  }
  if (const char *cap = std::getenv("TILEC_CACHE_MAX_BYTES"); cap && *cap) {
    unsigned long long value;
    if (llvm::StringRef(cap).getAsInteger(10, value))
      reporter.warning(fmt::format("TILEC_CACHE_MAX_BYTES='{}' is not a "
                                   "number of bytes; using {}",
                                   cap, kDefaultMaxBytes));
    else
      maxBytes = value;
  }
}

std::string CompileCache::entryPath(const CacheKey &key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key.digest() + kEntrySuffix);
  return path.str().str();
}

std::optional<std::vector<CachePayload>>
CompileCache::lookup(const CacheKey &key,
                     llvm::ArrayRef<llvm::StringRef> expected) {
  if (!enabled())
    return std::nullopt;
  TimedStage stage("compile cache lookup");
  std::string path = entryPath(key);
  if (!llvm::sys::fs::exists(path)) {
    if (verbose)
      reporter->remark("cache miss: " + path);
    return std::nullopt;
  }
  Result<std::string> bytes = readFileBytes(path);
  Checked checked = bytes ? checkEntry(*bytes, key, expected)
                          : Checked{EntryState::Corrupt, bytes.message(), {}};
  switch (checked.state) {
  case EntryState::Corrupt:
    reporter->warning(fmt::format("cache entry {} is corrupt ({}); "
                                  "rebuilding it",
                                  path, checked.why));
    return std::nullopt;
  case EntryState::Stale:
    if (verbose)
      reporter->remark(fmt::format("cache stale: {} ({}); rebuilding it",
                                   path, checked.why));
    return std::nullopt;
  case EntryState::Usable:
    break;
  }
  if (verbose)
    reporter->remark("cache hit: " + path);
  // The modification time is the LRU clock prune() reads.
  (void)::utimensat(AT_FDCWD, path.c_str(), /*now*/ nullptr, 0);
  return std::move(checked.payloads);
}

void CompileCache::store(const CacheKey &key,
                         const std::vector<CachePayload> &payloads) {
  if (!enabled())
    return;
  TimedStage stage("compile cache store");
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    reporter->warning(fmt::format("cannot create the cache folder '{}': {}; "
                                  "the compile is not cached",
                                  dir, ec.message()));
    return;
  }
  json header = {{"build", buildIdentity()}, {"key", key.digest()}};
  json material = json::array();
  for (const auto &[name, value] : key.fields())
    material.push_back({name, value});
  header["material"] = std::move(material);
  json listed = json::array();
  std::string body;
  for (const CachePayload &payload : payloads) {
    listed.push_back({{"name", payload.name},
                      {"size", payload.bytes.size()},
                      {"sha256", sha256Hex(payload.bytes)}});
    body += payload.bytes;
  }
  header["payloads"] = std::move(listed);
  std::string path = entryPath(key);
  // A path that is not UTF-8 is stored with replacement characters: such
  // an entry never matches and is only ever rebuilt, but never breaks.
  std::string entry =
      kMagic.str() + "\n" +
      header.dump(-1, ' ', false, json::error_handler_t::replace) + "\n" + body;
  if (Status written = writeFileAtomically(path, entry); !written) {
    reporter->warning(written.message() + "; the compile is not cached");
    return;
  }
  if (verbose)
    reporter->remark("cache store: " + path);
  prune(path);
}

void CompileCache::prune(const std::string &keep) {
  struct Entry {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> modified;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  // A write that was killed leaves its temporary (ENTRY.tmp-XXXXXX, see
  // writeFileAtomically); one an hour old belongs to no live writer.
  auto anHourAgo = std::chrono::system_clock::now() - std::chrono::hours(1);
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(it->path(), status))
      continue;
    if (name.contains(kEntrySuffix.str() + ".tmp-")) {
      if (status.getLastModificationTime() < anHourAgo)
        (void)llvm::sys::fs::remove(it->path());
      continue;
    }
    if (!name.ends_with(kEntrySuffix))
      continue;
    entries.push_back(
        {it->path(), status.getSize(), status.getLastModificationTime()});
    total += status.getSize();
  }
  if (total <= maxBytes)
    return;
  llvm::sort(entries, [](const Entry &a, const Entry &b) {
    return a.modified < b.modified;
  });
  for (const Entry &entry : entries) {
    if (total <= maxBytes)
      break;
    if (entry.path == keep || llvm::sys::fs::remove(entry.path))
      continue;
    total -= entry.size;
    if (verbose)
      reporter->remark("cache evict: " + entry.path);
  }
}
