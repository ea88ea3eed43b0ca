//===- ScheduleFile.h - Tuned schedules on disk ------------------*- C++ -*-===//
//
// The schedule file that `tilec autotune` writes and `--schedule` reads
// (docs/architecture.md, "Schedules and autotuning"): JSON with a versioned
// schema, entries keyed by device identifier and kernel fingerprint, sorted
// and one entry per kernel so that it diffs well:
//   {
//     "format": "tilec-schedules", "version": 1,
//     "devices": {
//       "opencl:pocl:cpu-...:0": {
//         "026c6791287ff337": {
//           "kernel": "matmul_C", "target": "opencl",
//           "schedule": {"block": [64, 64, 16], "thread": [4, 4], "vector": 4,
//                        "unroll": 1, "stage": [true, true], "order": []},
//           "seconds": 0.00123, "default_seconds": 0.0031,
//           "date": "2026-11-30", "tilec_version": "0.2.0-dev" } } } }
// Reading never guesses: a malformed file, an unknown format or version, or a
// bad schedule gives an error naming the file and the entry; the caller then
// falls back to the cost model and says so.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SCHEDULE_SCHEDULEFILE_H
#define TILEC_SCHEDULE_SCHEDULEFILE_H

#include "tilec/Schedule/Schedule.h"
#include "tilec/Support/Result.h"

#include <map>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec::schedule {

inline constexpr int kScheduleFileVersion = 1;

/// The tuned schedule of one kernel on one device.
struct ScheduleEntry {
  std::string kernel; ///< the kernel's name when it was tuned (informative)
  std::string target; ///< "opencl", "spirv", "llvm-x86"
  KernelSchedule schedule;
  double seconds = 0;        ///< measured median time of the kernel
  double defaultSeconds = 0; ///< the cost model's pick, measured (0: unknown)
  std::string date;          ///< YYYY-MM-DD
  std::string tilecVersion;
};

/// Every entry of a schedule file: device id -> fingerprint -> entry.
struct ScheduleFile {
  std::map<std::string, std::map<std::string, ScheduleEntry>> devices;
  /// The file it was read from, for messages; empty when built in memory.
  /// Not part of the file's contents (never printed).
  std::string path;

  /// The entry for `fingerprint` on `deviceId`, or null.
  const ScheduleEntry *lookup(const std::string &deviceId,
                              const std::string &fingerprint) const;
  /// Adds or replaces one entry; every other entry is kept.
  void merge(const std::string &deviceId, const std::string &fingerprint,
             const ScheduleEntry &entry);
};

/// A KernelSchedule as the JSON object of the file ("schedule" above), and
/// back; `where` prefixes errors ("schedules.json: devices.X.Y.schedule").
std::string scheduleToJson(const KernelSchedule &schedule);
Result<KernelSchedule> scheduleFromJson(const std::string &text,
                                        const std::string &where);

/// Text of the file: sorted keys, 2-space indent, a final newline.
std::string printScheduleFile(const ScheduleFile &file);
/// Parses and validates; `name` names the file in errors.
Result<ScheduleFile> parseScheduleFile(const std::string &text,
                                       const std::string &name);
/// Reads `path`. A missing file is an error too; autotune treats it as empty.
Result<ScheduleFile> readScheduleFile(const std::string &path);
/// Writes atomically (temporary file in the same folder, then rename).
Status writeScheduleFile(const std::string &path, const ScheduleFile &file);

/// What happened to one kernel when a schedule file was applied.
struct ScheduleUse {
  std::string kernel;      ///< tilec.kernel
  std::string fingerprint; ///< tilec.fingerprint
  bool fromFile = false;   ///< false: falls back to the cost model
  bool preset = false;     ///< already carried a schedule (an override): kept
};

/// Sets `tilec.schedule` on every kernel nest of the loop-level `module`
/// whose fingerprint has an entry for `deviceId` in `file` (kernels that
/// already carry a schedule are left alone and reported as not from the
/// file), and reports every kernel in program order.
std::vector<ScheduleUse> applyScheduleFile(mlir::ModuleOp module,
                                           const ScheduleFile &file,
                                           const std::string &deviceId);

/// Sets `tilec.schedule` on the kernels whose fingerprint is a key of
/// `schedules` (autotune's candidates); returns how many were set.
unsigned applySchedules(mlir::ModuleOp module,
                        const std::map<std::string, KernelSchedule> &schedules);

} // namespace tilec::schedule

#endif // TILEC_SCHEDULE_SCHEDULEFILE_H
