//===- TileModule.h - The typed program as verified tile IR -----*- C++ -*-===//
//
// The step every MLIR-based --emit kind and target starts from: MLIRGen of
// the bound program, verified, with diagnostics pointing into the .tile file.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_TILEMODULE_H
#define TILEC_TOOLS_TILEC_TILEMODULE_H

#include "ProgramLoader.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace tilec::driver {

/// Lowers `program` to a verified module of tile ops in `context`. A
/// failure has been reported on stderr and ends the command (exit code 1).
mlir::OwningOpRef<mlir::ModuleOp>
buildTileModule(mlir::MLIRContext &context, ProgramLoader &loader,
                const typed::Program &program);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_TILEMODULE_H
