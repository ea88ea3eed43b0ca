//===- Compile.h - A program compiled for one backend -----------*- C++ -*-===//
//
// Part of lib/Compiler: the compile session every command shares
// (docs/architecture.md, "Three things that exist once"). One path for
// every backend, driven through the backend interface (TargetBackend.h):
//
//   1. the loop level of the bound program, in a context with the
//      backend's dialects (ModuleStages.h);
//   2. the device: the backend marks the module with the device's profile
//      (GPU backends: its #tilec.gpu_target), the default profile when the
//      compile names no device;
//   3. the schedules: with a device, overrides, then the schedule file's
//      entries for it, then the cost model (KernelSchedules.h), each kernel
//      reported; without one, a schedule file's entries (ScheduleLoading.h)
//      and the default-schedule pass of the backend's pipeline for the rest;
//   4. the compile cache, for an artefact or --emit form that is written
//      (not one its runtime loads);
//   5. for a GPU backend the mapping to the gpu level
//      (buildLoopsToGPUPipeline);
//   6. the backend's serializer, or the --emit form asked for, printed.
//
// Every stage is timed for --time-passes. Diagnostics go to the loader's
// Reporter; failures are CompileErrors.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_COMPILE_H
#define TILEC_COMPILER_COMPILE_H

#include "tilec/Compiler/DeviceTarget.h"
#include "tilec/Compiler/KernelSchedules.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Target/Artefact.h"
#include "tilec/Target/TargetBackend.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tilec::compiler {

class CompileCache;

/// The temporaries of a compiled program and where they are stored
/// (Dialect/Kernel/Analysis/TemporaryPlan.h): the same plan on every
/// backend.
struct TemporaryMemory {
  uint64_t peakBytes = 0;     ///< the storage of all slots
  uint64_t unsharedBytes = 0; ///< the temporaries' storage without sharing
  size_t temporaries = 0;
  size_t slots = 0;
};

/// What to compile for and what to make.
struct CompileRequest {
  const TargetBackend *backend = nullptr;
  /// The device compiled for (opened here, or read from a device list);
  /// null: none.
  const DeviceTarget *device = nullptr;
  /// With a device: which schedules its kernels use.
  ScheduleChoice schedules;
  /// Without a device: the schedule file of a plain compile (`--schedule`)
  /// and whose of its entries apply (`--device-id`; ScheduleLoading.h).
  std::string scheduleFile, scheduleDeviceId;
  ArtefactRequest artefact;
  /// Empty: the artefact. Else the form to print instead: "gpu" (the gpu
  /// level of a GPU backend) or one of the backend's emitStages().
  std::string emit;
  bool printDebugInfo = false; ///< --emit=gpu: print op locations
  bool verbose = false;        ///< say where each schedule comes from
};

/// What a compile made.
struct CompiledProgram {
  Artefact artefact;   ///< when no --emit form was asked for
  std::string emitted; ///< the --emit form
  /// With a device: every kernel in launch order, with its schedule.
  std::vector<KernelReport> kernels;
  TemporaryMemory temporaries;
  bool fromCache = false; ///< it came from the compile cache
};

/// The manifest context of a compile of `program` (read from `inputPath`)
/// for `backend`: the typed program's input and output dtypes, which the
/// loop level's signless integers no longer carry.
ManifestContext manifestContextFor(const TargetBackend &backend,
                                   llvm::StringRef inputPath,
                                   const typed::Program &program);

/// Compiles `program` as `request` says. With `cache`, what is made (not
/// an artefact for the runtime) is looked up and stored there.
llvm::Expected<CompiledProgram> compileProgram(ProgramLoader &loader,
                                               const typed::Program &program,
                                               const CompileRequest &request,
                                               CompileCache *cache = nullptr);

} // namespace tilec::compiler

#endif // TILEC_COMPILER_COMPILE_H
