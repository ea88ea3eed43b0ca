//===- ScheduleLoading.h - --schedule in the driver -------------*- C++ -*-===//
//
// Part of the tilec driver: reading the schedule file `--schedule` names and
// putting its entries on the kernels of a loop-level module, for the plain
// compile, `tilec run`, and DeviceSession's compileAndLoad alike. A file
// that cannot be used never fails a compile (issue 6): it is reported on
// stderr and every kernel falls back to the cost model. It is never
// misapplied either: entries only match their own device and fingerprint.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_SCHEDULELOADING_H
#define TILEC_TOOLS_TILEC_SCHEDULELOADING_H

#include "Targets.h"

#include "tilec/Schedule/ScheduleFile.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec::driver {

struct CompileOptions;

/// The schedule file at `path`. One that is missing, unreadable or
/// malformed gives "tilec: warning: FILE: why; using the cost model for
/// every kernel" on stderr and std::nullopt. With `verbose`, says how many
/// entries were read.
std::optional<schedule::ScheduleFile> loadScheduleFile(const std::string &path,
                                                       bool verbose);

/// Puts the entries of `file` for `deviceId` on the kernels of the
/// loop-level `module` (schedule::applyScheduleFile). When the file has no
/// entry for `deviceId` at all, warns on stderr and names the devices it
/// has. With `verbose`, one line per kernel on stderr:
///   tilec: schedule: KERNEL (FINGERPRINT): from FILE
///   tilec: schedule: KERNEL (FINGERPRINT): cost model (no entry for DEVICE)
///   tilec: schedule: KERNEL (FINGERPRINT): override
/// the last for kernels that already carried a schedule.
std::vector<schedule::ScheduleUse>
applyScheduleFileAndReport(mlir::ModuleOp module,
                           const schedule::ScheduleFile &file,
                           const std::string &deviceId, bool verbose);

/// The device whose entries a compile without an opened device uses:
/// `requested` (--device-id) when given; else for llvm-x86 the host CPU;
/// else the one device of `file` with entries for `target`. When several
/// devices have such entries, a usage error asks for --device-id; when none
/// has, the result is empty (and every kernel falls back).
std::string scheduleDeviceForCompile(Target target,
                                     const schedule::ScheduleFile &file,
                                     const std::string &requested);

/// All of --schedule for a plain compile (`tilec FILE`, including
/// --emit=loops): loads options.schedule, picks the device, applies the
/// matching entries to the loop-level `module` and reports. Does nothing
/// without --schedule.
void applyScheduleOption(Target target, const CompileOptions &options,
                         mlir::ModuleOp module);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_SCHEDULELOADING_H
