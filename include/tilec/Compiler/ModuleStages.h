//===- ModuleStages.h - The program as tile IR and at the loop level -*- C++ -*-===//
//
// Part of lib/Compiler: the two MLIR stages every MLIR-based command
// starts from. Each renders its diagnostics on the loader's Reporter and
// then fails with an input error without a message.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_MODULESTAGES_H
#define TILEC_COMPILER_MODULESTAGES_H

#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Target/TargetBackend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace tilec::compiler {

/// Lowers `program` to a verified module of tile ops in `context`.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildTileModule(mlir::MLIRContext &context, ProgramLoader &loader,
                const typed::Program &program);

/// Lowers `program` to the loop level in `context` (buildTileModule, then
/// the tile-to-loops pipeline).
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildLoopLevelModule(mlir::MLIRContext &context, ProgramLoader &loader,
                     const typed::Program &program);

/// Readies the loop-level `module` for `backend` on `device` before its
/// kernels are scheduled, so that schedules, the cost model and autotune
/// all see the nests the backend maps: the backend's attachTarget; for a
/// GPU backend tilec-gpu-fuse-rows and tilec-gpu-flatten-contractions (on a
/// known GPU, a softmax becomes one row kernel and a convolution the
/// implicit GEMM the outer-product tiling takes); for the CPU the kernel
/// formation of buildCPUKernelFormation (transposed operand copies, row
/// kernels).
void prepareLoopLevel(const TargetBackend &backend, mlir::ModuleOp module,
                      const schedule::DeviceProfile &device);

} // namespace tilec::compiler

#endif // TILEC_COMPILER_MODULESTAGES_H
