//===- ModuleStages.h - The program as tile IR and at the loop level -*- C++ -*-===//
//
// Part of the tilec driver: the two MLIR stages every MLIR-based command
// starts from. Each reports its failures on stderr and ends the command with
// exit code 1.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_MODULESTAGES_H
#define TILEC_TOOLS_TILEC_MODULESTAGES_H

#include "ProgramLoader.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace tilec::driver {

/// Lowers `program` to a verified module of tile ops in `context`.
mlir::OwningOpRef<mlir::ModuleOp>
buildTileModule(mlir::MLIRContext &context, ProgramLoader &loader,
                const typed::Program &program);

/// Lowers `program` to the loop level in `context` (buildTileModule, then
/// the tile-to-loops pipeline).
mlir::OwningOpRef<mlir::ModuleOp>
buildLoopLevelModule(mlir::MLIRContext &context, ProgramLoader &loader,
                     const typed::Program &program);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_MODULESTAGES_H
