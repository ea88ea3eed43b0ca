//===- LoopModule.h - The program lowered to the loop level -----*- C++ -*-===//
//
// The step behind --emit=loops: MLIRGen, then the tile-to-loops pipeline
// (bounds, fusion, loops, buffer planning, kernel fingerprints).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_LOOPMODULE_H
#define TILEC_TOOLS_TILEC_LOOPMODULE_H

#include "ProgramLoader.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace tilec::driver {

/// Lowers `program` to the loop level in `context`. A failure has been
/// reported on stderr and ends the command (exit code 1).
mlir::OwningOpRef<mlir::ModuleOp>
buildLoopLevelModule(mlir::MLIRContext &context, ProgramLoader &loader,
                     const typed::Program &program);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_LOOPMODULE_H
