//===- ScheduleLoading.cpp - Schedule files in a compile ------------------===//
//
// Part of lib/Compiler; see ScheduleLoading.h. Every way a schedule
// file can go unused (unreadable, malformed, another version, another
// device) ends in the same sentence, "using the cost model for every
// kernel", so a user who sees no speed-up from a file finds out why without
// -v.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/ScheduleLoading.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Compiler/Reporter.h"

#include "tilec/Runtime/Device.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

using namespace tilec;
using namespace tilec::compiler;
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
llvm::Expected<std::string> hostCpuId() {
  Result<rt::TargetRuntime> cpu = rt::openTargetRuntime("cpu");
  if (!cpu)
    return runtimeError(cpu.message());
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
                const std::string &deviceId, const std::string &missing,
                Reporter &reporter) {
  for (const ScheduleUse &use : uses) {
    const ScheduleEntry *entry =
        use.fromFile ? file.lookup(deviceId, use.fingerprint) : nullptr;
    std::string source =
        use.preset     ? std::string("override")
        : use.fromFile ? "from " + nameOf(file) +
                             (entry ? ": " + entry->schedule.str() : "")
                       : "cost model (" + missing + ")";
    reporter.remark(fmt::format("schedule: {} ({}): {}", use.kernel,
                                use.fingerprint, source));
  }
}

} // namespace

std::optional<ScheduleFile>
tilec::compiler::loadScheduleFile(const std::string &path, bool verbose,
                                  Reporter &reporter) {
  Result<ScheduleFile> file = readScheduleFile(path);
  if (!file) {
    reporter.warning(fmt::format("{}; {}", file.message(), kFallBack));
    return std::nullopt;
  }
  if (verbose) {
    size_t entries = 0;
    for (const auto &device : file->devices)
      entries += device.second.size();
    reporter.remark(fmt::format("schedule: read {}: {} entries for {} devices",
                                path, entries, file->devices.size()));
  }
  return std::move(*file);
}

std::vector<ScheduleUse> tilec::compiler::applyScheduleFileAndReport(
    mlir::ModuleOp module, const ScheduleFile &file,
    const std::string &deviceId, bool verbose, Reporter &reporter) {
  auto found = file.devices.find(deviceId);
  if (found == file.devices.end() || found->second.empty())
    reporter.warning(fmt::format("{}: no schedules for {} (it has: {}); {}",
                                 nameOf(file), deviceId,
                                 deviceList(devicesOf(file)), kFallBack));
  else if (verbose)
    reporter.remark(fmt::format("schedule: entries for {}", deviceId));
  std::vector<ScheduleUse> uses = applyScheduleFile(module, file, deviceId);
  if (verbose)
    reportUses(uses, file, deviceId, "no entry for " + deviceId, reporter);
  return uses;
}

llvm::Expected<std::string>
tilec::compiler::scheduleDeviceForCompile(ScheduleTargetName target,
                                          const ScheduleFile &file,
                                          const std::string &requested) {
  if (!requested.empty())
    return requested;
  if (target.keyedByHost)
    return hostCpuId();
  std::string name = target.name.str();
  std::vector<std::string> candidates = devicesOf(file, &name);
  if (candidates.size() > 1)
    return usageError(fmt::format(
        "{} has {} schedules for several devices ({}); say which with "
        "--device-id=ID",
        nameOf(file), name, deviceList(candidates)));
  return candidates.empty() ? std::string() : candidates.front();
}

llvm::Error tilec::compiler::applyScheduleFileForCompile(
    ScheduleTargetName target, const std::string &path,
    const std::string &requestedDevice, bool verbose, mlir::ModuleOp module,
    Reporter &reporter) {
  if (path.empty())
    return llvm::Error::success();
  std::optional<ScheduleFile> file = loadScheduleFile(path, verbose, reporter);
  if (!file)
    return llvm::Error::success();
  llvm::Expected<std::string> deviceId =
      scheduleDeviceForCompile(target, *file, requestedDevice);
  if (!deviceId)
    return deviceId.takeError();
  if (!deviceId->empty()) {
    applyScheduleFileAndReport(module, *file, *deviceId, verbose, reporter);
    return llvm::Error::success();
  }
  // No device of the file has entries for this target.
  std::string name = target.name.str();
  reporter.warning(fmt::format(
      "{}: no {} schedules (it has schedules for: {}); {}", nameOf(*file),
      name, deviceList(devicesOf(*file)), kFallBack));
  if (verbose)
    reportUses(applyScheduleFile(module, *file, *deviceId), *file, *deviceId,
               "no " + name + " entries", reporter);
  return llvm::Error::success();
}
