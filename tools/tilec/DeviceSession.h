//===- DeviceSession.h - Compile for a device, load, run, time --*- C++ -*-===//
//
// What `tilec run`, `tilec bench` and `tilec autotune` share: pick a device
// of a target (a GPU runtime's device, or the host CPU for llvm-x86),
// compile a program for it with the schedules it should use, load it once
// and run it many times with per-kernel times. One path for every target,
// so a tuned schedule is measured exactly as it will later run.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_DEVICESESSION_H
#define TILEC_TOOLS_TILEC_DEVICESESSION_H

#include "Targets.h"

#include "tilec/Compiler/KernelSchedules.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Runtime/Device.h"
#include "tilec/Runtime/Manifest.h"
#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Schedule/ScheduleFile.h"
#include "tilec/Support/Tensor.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec::typed {
struct Program;
} // namespace tilec::typed

namespace tilec::driver {

using compiler::KernelReport;
using compiler::ProgramLoader;
using compiler::ScheduleChoice;

/// One device of one target, opened.
struct DeviceTarget {
  Target target = Target::OpenCL;
  rt::DeviceInfo device; ///< llvm-x86: the host CPU
  /// The runtime that loads and runs the target's programs: OpenCL,
  /// Vulkan, or the host JIT for llvm-x86. Null for a device read from a
  /// device list.
  std::unique_ptr<rt::Runtime> runtime;
  schedule::DeviceProfile profile; ///< with cached probe results
};

/// Opens `target`'s device named by `request` (rt::selectDevice's rules).
/// With `devicesFrom` (a `tilec devices --json` or `tilec-run --devices
/// --json` dump), the device is taken from that file instead and nothing
/// is opened (compiling for a remote device; `runtime` stays null).
/// `cpuOptLevel` is the JIT's -O level on llvm-x86 (`run -O`).
/// Failures are DriverErrors (exit 3 for the runtime, 2 for a bad request).
DeviceTarget openDeviceTarget(Target target, const std::string &request,
                              const std::string &devicesFrom = "",
                              unsigned cpuOptLevel = 2);

/// What lib/Compiler's schedule choice needs to know of `device`.
compiler::ScheduleTarget scheduleTargetOf(const DeviceTarget &device);

/// The temporaries of a compiled program and where they are stored
/// (Dialect/Kernel/Analysis/TemporaryPlan.h): the same plan on every target.
struct TemporaryMemory {
  uint64_t peakBytes = 0;     ///< the storage of all slots
  uint64_t unsharedBytes = 0; ///< the temporaries' storage without sharing
  size_t temporaries = 0;
  size_t slots = 0;
};

/// A program compiled for and loaded on one device (an rt::Program of the
/// device's runtime, whatever the target), ready to run many times.
class LoadedProgram {
public:
  LoadedProgram(std::unique_ptr<rt::Program> loaded,
                std::vector<std::string> inputNames,
                std::vector<std::string> outputNames,
                std::vector<KernelReport> kernels, double compileSeconds,
                TemporaryMemory memory);
  /// Runs every kernel once on `inputs` (the program's inputs in header
  /// order) and returns its outputs in header order. With `kernelSeconds`,
  /// fills one time per kernel in launch order (the device's profiling
  /// counters; on llvm-x86 the host clock around each kernel nest).
  std::vector<Tensor> run(const std::vector<Tensor> &inputs,
                          std::vector<double> *kernelSeconds);
  /// The kernels in launch order.
  const std::vector<KernelReport> &kernels() const { return kernelReports; }
  /// Wall time of compiling (front end to loaded program), in seconds.
  double compileSeconds() const { return compileTime; }
  /// The memory of the temporaries (on the device, or the host's for
  /// llvm-x86).
  const TemporaryMemory &temporaryMemory() const { return temporaries; }

private:
  std::unique_ptr<rt::Program> loaded;
  std::vector<std::string> inputNames, outputNames;
  std::vector<KernelReport> kernelReports;
  double compileTime = 0;
  TemporaryMemory temporaries;
};

/// Compiles `program` for `device` with `schedules` and loads it. With
/// `verbose`, says on stderr which kernels used the schedule file and which
/// fell back to the cost model. Failures are DriverErrors.
std::unique_ptr<LoadedProgram> compileAndLoad(DeviceTarget &device,
                                              ProgramLoader &loader,
                                              const typed::Program &program,
                                              const ScheduleChoice &schedules,
                                              bool verbose);

/// The kernel file and launch manifest of `program` for a GPU `device`
/// (opencl or spirv), not loaded: what `tilec autotune --export-candidates`
/// writes for a device that is elsewhere.
struct GPUArtefactFiles {
  std::string bytes; ///< OpenCL C source or a SPIR-V binary
  rt::Manifest manifest;
  std::vector<KernelReport> kernels;
  TemporaryMemory temporaries; ///< the plan the manifest's buffers follow
};
GPUArtefactFiles compileGPUArtefact(DeviceTarget &device,
                                    ProgramLoader &loader,
                                    const typed::Program &program,
                                    const ScheduleChoice &schedules,
                                    bool verbose);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_DEVICESESSION_H
