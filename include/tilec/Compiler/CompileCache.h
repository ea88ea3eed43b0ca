//===- CompileCache.h - The persistent compile cache ------------*- C++ -*-===//
//
// Part of lib/Compiler (issue 7): a compile whose key material was seen
// before writes the stored outputs instead of lowering again, so a second
// compile of the same model is near-instant. One entry is one file,
// DIR/KEY.tcc, written atomically; docs/cache.md has its format. An entry is
// used only when it checks out completely: one from another build of tilec
// or for other key material is stale, one that does not parse or whose
// payloads fail their checksums is corrupt, and both are rebuilt. The cache
// never fails a compile: a folder that cannot be written is a warning.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_COMPILECACHE_H
#define TILEC_COMPILER_COMPILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilec::compiler {

class Reporter;

/// Everything a compile's outputs depend on, as named fields in a fixed
/// order. The cache key is a SHA-256 over the fields; the entry stores them
/// all, so a lookup can tell the stored material from the wanted one.
class CacheKey {
public:
  /// Adds a field; `value` is kept verbatim (keep it short).
  void add(llvm::StringRef name, llvm::StringRef value);
  /// Adds a field whose value is the SHA-256 of `bytes` (a printed module).
  void addDigestOf(llvm::StringRef name, llvm::StringRef bytes);

  /// The fields, in the order they were added.
  const std::vector<std::pair<std::string, std::string>> &fields() const {
    return material;
  }
  /// 64 hex digits: the SHA-256 of the cache format and every field.
  std::string digest() const;

private:
  std::vector<std::pair<std::string, std::string>> material;
};

/// One named output of a compile ("object", "kernels", "manifest").
struct CachePayload {
  std::string name;
  std::string bytes;
};

/// Where the cache lives and whether it is used (the compile flags).
struct CacheSettings {
  std::string dir;       ///< --cache-dir; empty: the environment's choice
  bool disabled = false; ///< --no-cache
  bool verbose = false;  ///< -v: report hits, misses and stale entries
};

/// The cache of one command. Messages go to a Reporter: hits, misses and
/// stale entries as remarks with `verbose` only, corrupt entries and
/// unwritable folders always (as warnings).
class CompileCache {
public:
  /// The cache `settings` choose: --cache-dir, else $TILEC_CACHE_DIR, else
  /// $XDG_CACHE_HOME/tilec, else $HOME/.cache/tilec. Off with --no-cache or
  /// when no folder can be named. Its size cap is $TILEC_CACHE_MAX_BYTES
  /// (default kDefaultMaxBytes).
  CompileCache(const CacheSettings &settings, Reporter &reporter);

  /// The payloads stored under `key`, named as `expected` in that order, or
  /// std::nullopt (off, a miss, or a stale or corrupt entry, reported).
  std::optional<std::vector<CachePayload>>
  lookup(const CacheKey &key, llvm::ArrayRef<llvm::StringRef> expected);

  /// Stores `payloads` under `key` atomically, replacing any entry there,
  /// then removes the least recently used entries beyond the size cap.
  /// A failure is a warning.
  void store(const CacheKey &key, const std::vector<CachePayload> &payloads);

  bool enabled() const { return !dir.empty(); }
  /// The entry file of `key`.
  std::string entryPath(const CacheKey &key) const;

  static constexpr uint64_t kDefaultMaxBytes = uint64_t(1) << 30;

private:
  /// Deletes the oldest entries (by modification time, which a hit
  /// refreshes) until the folder holds at most maxBytes; `keep` stays.
  void prune(const std::string &keep);

  std::string dir; ///< empty: off
  uint64_t maxBytes = kDefaultMaxBytes;
  bool verbose = false;
  Reporter *reporter;
};

} // namespace tilec::compiler

#endif // TILEC_COMPILER_COMPILECACHE_H
