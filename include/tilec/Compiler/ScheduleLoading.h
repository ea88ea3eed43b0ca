//===- ScheduleLoading.h - Schedule files in a compile ----------*- C++ -*-===//
//
// Part of lib/Compiler: reading a schedule file (tilec's `--schedule`) and
// putting its entries on the kernels of a loop-level module, for the plain
// compile, `tilec run`, and DeviceSession's compileAndLoad alike. A file
// that cannot be used never fails a compile (issue 6): it is a warning on
// the Reporter and every kernel falls back to the cost model. It is never
// misapplied either: entries only match their own device and fingerprint.
// Warnings are "FILE: why; using the cost model for every kernel"; with
// `verbose`, remarks say where each kernel's schedule comes from.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_SCHEDULELOADING_H
#define TILEC_COMPILER_SCHEDULELOADING_H

#include "tilec/Schedule/ScheduleFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec::compiler {

class Reporter;

/// The schedule file at `path`. One that is missing, unreadable or
/// malformed is a warning and std::nullopt. With `verbose`, a remark says
/// how many entries were read.
std::optional<schedule::ScheduleFile>
loadScheduleFile(const std::string &path, bool verbose, Reporter &reporter);

/// Puts the entries of `file` for `deviceId` on the kernels of the
/// loop-level `module` (schedule::applyScheduleFile). When the file has no
/// entry for `deviceId` at all, warns and names the devices it has. With
/// `verbose`, one remark per kernel:
///   schedule: KERNEL (FINGERPRINT): from FILE
///   schedule: KERNEL (FINGERPRINT): cost model (no entry for DEVICE)
///   schedule: KERNEL (FINGERPRINT): override
/// the last for kernels that already carried a schedule.
std::vector<schedule::ScheduleUse>
applyScheduleFileAndReport(mlir::ModuleOp module,
                           const schedule::ScheduleFile &file,
                           const std::string &deviceId, bool verbose,
                           Reporter &reporter);

/// What a compile for a target without an opened device knows about the
/// target, for choosing whose entries of a schedule file apply.
struct ScheduleTargetName {
  llvm::StringRef name; ///< as schedule entries record it: "opencl"
  /// The target's schedules are keyed by the host CPU (llvm-x86).
  bool keyedByHost = false;
};

/// The device whose entries a compile without an opened device uses:
/// `requested` (--device-id) when given; else for a target keyed by the
/// host the host CPU; else the one device of `file` with entries for
/// `target`. When several devices have such entries, a usage error asks
/// for --device-id; when none has, the result is empty (and every kernel
/// falls back).
llvm::Expected<std::string>
scheduleDeviceForCompile(ScheduleTargetName target,
                         const schedule::ScheduleFile &file,
                         const std::string &requested);

/// All of a schedule file for a plain compile (`tilec FILE --schedule=PATH
/// [--device-id=ID]`, including --emit=loops): loads `path`, picks the
/// device, applies the matching entries to the loop-level `module` and
/// reports. Does nothing when `path` is empty.
llvm::Error applyScheduleFileForCompile(ScheduleTargetName target,
                                        const std::string &path,
                                        const std::string &deviceId,
                                        bool verbose, mlir::ModuleOp module,
                                        Reporter &reporter);

} // namespace tilec::compiler

#endif // TILEC_COMPILER_SCHEDULELOADING_H
