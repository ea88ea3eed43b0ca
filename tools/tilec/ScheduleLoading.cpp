//===- ScheduleLoading.cpp - --schedule in the driver ---------------------===//
//
// Part of the tilec driver; see ScheduleLoading.h. Every way a schedule
// file can go unused (unreadable, malformed, another version, another
// device) ends in the same sentence, "using the cost model for every
// kernel", so a user who sees no speed-up from a file finds out why without
// -v.
//
//===----------------------------------------------------------------------===//

#include "ScheduleLoading.h"
#include "DriverError.h"
#include "Options.h"

#include "tilec/Runtime/Device.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::schedule;

namespace {

constexpr const char *kFallBack = "using the cost model for every kernel";

/// "a, b, c", or "none".
std::string deviceList(const std::vector<std::string> &ids) {
  if (ids.empty())
    return "none";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(ids, os, ", ");
  return text;
}

/// The devices of `file` that have at least one entry, optionally only
/// entries for `target`.
std::vector<std::string> devicesOf(const ScheduleFile &file,
                                   const std::string *target = nullptr) {
  std::vector<std::string> ids;
  for (const auto &[id, entries] : file.devices)
    if (llvm::any_of(entries, [&](const auto &item) {
          return !target || item.second.target == *target;
        }))
      ids.push_back(id);
  return ids;
}

/// The host CPU's id, as `tilec devices` lists it: what llvm-x86 schedules
/// are keyed by.
std::string hostCpuId() {
  Result<rt::TargetRuntime> cpu = rt::openTargetRuntime("cpu");
  if (!cpu)
    failRuntime(cpu.message());
  return cpu->devices.front().id;
}

/// The file's name in messages.
std::string nameOf(const ScheduleFile &file) {
  return file.path.empty() ? "the schedule file" : file.path;
}

/// With -v, where each kernel's schedule comes from, and the file's
/// schedule itself when it is applied (so a test can see what a kernel got);
/// `missing` says why a kernel without an entry has none.
void reportUses(const std::vector<ScheduleUse> &uses, const ScheduleFile &file,
                const std::string &deviceId, const std::string &missing) {
  for (const ScheduleUse &use : uses) {
    const ScheduleEntry *entry =
        use.fromFile ? file.lookup(deviceId, use.fingerprint) : nullptr;
    std::string source =
        use.preset     ? std::string("override")
        : use.fromFile ? "from " + nameOf(file) +
                             (entry ? ": " + entry->schedule.str() : "")
                       : "cost model (" + missing + ")";
    llvm::errs() << fmt::format("tilec: schedule: {} ({}): {}\n", use.kernel,
                                use.fingerprint, source);
  }
}

} // namespace

std::optional<ScheduleFile>
tilec::driver::loadScheduleFile(const std::string &path, bool verbose) {
  Result<ScheduleFile> file = readScheduleFile(path);
  if (!file) {
    llvm::errs() << fmt::format("tilec: warning: {}; {}\n", file.message(),
                                kFallBack);
    return std::nullopt;
  }
  if (verbose) {
    size_t entries = 0;
    for (const auto &device : file->devices)
      entries += device.second.size();
    llvm::errs() << fmt::format(
        "tilec: schedule: read {}: {} entries for {} devices\n", path, entries,
        file->devices.size());
  }
  return std::move(*file);
}

std::vector<ScheduleUse> tilec::driver::applyScheduleFileAndReport(
    mlir::ModuleOp module, const ScheduleFile &file,
    const std::string &deviceId, bool verbose) {
  auto found = file.devices.find(deviceId);
  if (found == file.devices.end() || found->second.empty())
    llvm::errs() << fmt::format(
        "tilec: warning: {}: no schedules for {} (it has: {}); {}\n",
        nameOf(file), deviceId, deviceList(devicesOf(file)), kFallBack);
  else if (verbose)
    llvm::errs() << fmt::format("tilec: schedule: entries for {}\n", deviceId);
  std::vector<ScheduleUse> uses = applyScheduleFile(module, file, deviceId);
  if (verbose)
    reportUses(uses, file, deviceId, "no entry for " + deviceId);
  return uses;
}

std::string
tilec::driver::scheduleDeviceForCompile(Target target, const ScheduleFile &file,
                                        const std::string &requested) {
  if (!requested.empty())
    return requested;
  if (target == Target::LLVMX86)
    return hostCpuId();
  std::string name = targetName(target).str();
  std::vector<std::string> candidates = devicesOf(file, &name);
  if (candidates.size() > 1)
    failUsage(fmt::format(
        "{} has {} schedules for several devices ({}); say which with "
        "--device-id=ID",
        nameOf(file), name, deviceList(candidates)));
  return candidates.empty() ? std::string() : candidates.front();
}

void tilec::driver::applyScheduleOption(Target target,
                                        const CompileOptions &options,
                                        mlir::ModuleOp module) {
  if (options.schedule.empty())
    return;
  bool verbose = options.program.verbose;
  std::optional<ScheduleFile> file =
      loadScheduleFile(options.schedule, verbose);
  if (!file)
    return;
  std::string deviceId =
      scheduleDeviceForCompile(target, *file, options.deviceId);
  if (!deviceId.empty()) {
    applyScheduleFileAndReport(module, *file, deviceId, verbose);
    return;
  }
  // No device of the file has entries for this target.
  std::string name = targetName(target).str();
  llvm::errs() << fmt::format(
      "tilec: warning: {}: no {} schedules (it has schedules for: {}); {}\n",
      nameOf(*file), name, deviceList(devicesOf(*file)), kFallBack);
  if (verbose)
    reportUses(applyScheduleFile(module, *file, deviceId), *file, deviceId,
               "no " + name + " entries");
}
