//===- GPUStages.h - A program down to the gpu level ------------*- C++ -*-===//
//
// Part of lib/Compiler: what every GPU backend's compile does before its
// own code generation (docs/architecture.md, "Pipeline"): the loop level in
// a context with the gpu level's dialects, marked with the device it is
// compiled for and with the schedules put on it, and the mapping to the gpu
// level (buildLoopsToGPUPipeline). Failures are CompileErrors (input errors
// after diagnostics on the loader's Reporter).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_GPUSTAGES_H
#define TILEC_COMPILER_GPUSTAGES_H

#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Target/GPU/ManifestBuilder.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

namespace tilec::compiler {

/// Adds the dialects of the gpu level to `context`.
void addGPULevelDialects(mlir::MLIRContext &context);

/// What the manifest of a compile for `target` ("opencl") records about
/// the program, from the typed program (the gpu level's signless integers
/// no longer say whether they were signed); without one, the dtypes come
/// from the memref element types.
ManifestContext manifestContextFor(llvm::StringRef target,
                                   llvm::StringRef inputPath,
                                   const typed::Program *program);

/// Puts schedules on a loop-level module's kernels before the mapping.
using ScheduleStep = llvm::function_ref<llvm::Error(mlir::ModuleOp)>;

/// The loop level of `program`, in a context with the gpu level's dialects,
/// compiled for `device` (its #tilec.gpu_target, which the mapping, the
/// default schedules and the back ends read), with `schedule` (if any)
/// applied: the first half of buildGPULevelModule. Without a device, pass
/// the default profile: limits every OpenCL 1.2 / Vulkan 1.1 device meets.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildScheduledLoopModule(mlir::MLIRContext &context, ProgramLoader &loader,
                         const typed::Program &program,
                         const schedule::DeviceProfile &device,
                         ScheduleStep schedule = {});

/// Maps the loop-level `module` to the gpu level for the device of its
/// #tilec.gpu_target, in place: the second half of buildGPULevelModule.
llvm::Error mapToGPULevel(mlir::MLIRContext &context, ProgramLoader &loader,
                          mlir::ModuleOp module);

/// Lowers `program` to the gpu level, specialised on `device`; `schedule`
/// may put tuned schedules on the loop level's kernels first (the default
/// schedule pass fills in only kernels without one).
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildGPULevelModule(mlir::MLIRContext &context, ProgramLoader &loader,
                    const typed::Program &program,
                    const schedule::DeviceProfile &device,
                    ScheduleStep schedule = {});

} // namespace tilec::compiler

#endif // TILEC_COMPILER_GPUSTAGES_H
