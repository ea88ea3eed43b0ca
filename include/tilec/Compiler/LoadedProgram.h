//===- LoadedProgram.h - A program compiled and loaded on a device -*- C++ -*-===//
//
// Part of lib/Compiler: what `tilec run`, `tilec bench`, `tilec autotune` and
// `tilec devices --probe` share. A program is compiled for an opened device
// (Compile.h, the artefact its backend's runtime loads), loaded once through
// that runtime (rt::Runtime, whatever the backend) and run many times with
// per-kernel times, so a tuned schedule is measured exactly as it will later
// run.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_LOADEDPROGRAM_H
#define TILEC_COMPILER_LOADEDPROGRAM_H

#include "tilec/Compiler/Compile.h"
#include "tilec/Compiler/DeviceTarget.h"
#include "tilec/Compiler/KernelSchedules.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Runtime/Device.h"
#include "tilec/Support/Tensor.h"

#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tilec::compiler {

/// A program compiled for and loaded on one device, ready to run many times.
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
  /// counters; on the host the clock around each kernel nest). A failure
  /// is a runtime error naming the runtime's own error.
  llvm::Expected<std::vector<Tensor>> run(const std::vector<Tensor> &inputs,
                                          std::vector<double> *kernelSeconds);
  /// Many runs on the same inputs, as an inference loop makes them with
  /// its buffers kept: bindInputs copies them once, and each runBound runs
  /// on those, into the outputs of the run before (the host's runtime
  /// writes them in place). run copies both on every call, which leaves
  /// the data in the calling thread's cache rather than where the
  /// kernels' threads left it (what `tilec bench` times). A runBound after
  /// another tells the runtime that its inputs did not change
  /// (rt::Program::reuseInputs): the host packs a weight's panels once.
  void bindInputs(const std::vector<Tensor> &inputs);
  llvm::Error runBound(std::vector<double> *kernelSeconds);
  /// The outputs of the last runBound, in header order.
  llvm::Expected<std::vector<Tensor>> boundOutputs() const;
  /// The loaded program itself, for resident running (lib/Training).
  rt::Program &runtimeProgram() { return *loaded; }
  /// The kernels in launch order.
  const std::vector<KernelReport> &kernels() const { return kernelReports; }
  /// Wall time of compiling (front end to loaded program), in seconds.
  double compileSeconds() const { return compileTime; }
  /// The memory of the temporaries (on the device, or the host's).
  const TemporaryMemory &temporaryMemory() const { return temporaries; }

private:
  std::unique_ptr<rt::Program> loaded;
  std::vector<std::string> inputNames, outputNames;
  std::map<std::string, Tensor> boundInputs, boundOutputsByName;
  /// Whether the loaded program's last run was a runBound on boundInputs.
  bool lastRunBound = false;
  std::vector<KernelReport> kernelReports;
  double compileTime = 0;
  TemporaryMemory temporaries;
};

/// Compiles `program` for `device` with `schedules` and loads it through
/// the device's runtime (timed as the stage "JIT compile": every runtime
/// compiles what it loads). With `verbose`, says on the loader's Reporter
/// which kernels used the schedule file and which the cost model. A device
/// read from a device list is a usage error: it runs nothing here.
llvm::Expected<std::unique_ptr<LoadedProgram>>
compileAndLoad(DeviceTarget &device, ProgramLoader &loader,
               const typed::Program &program, const ScheduleChoice &schedules,
               bool verbose);

} // namespace tilec::compiler

#endif // TILEC_COMPILER_LOADEDPROGRAM_H
