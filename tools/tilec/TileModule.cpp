//===- TileModule.cpp - The typed program as verified tile IR -------------===//
//
// Part of the tilec driver; see TileModule.h.
//
//===----------------------------------------------------------------------===//

#include "TileModule.h"
#include "DriverError.h"

#include "tilec/MLIRGen/MLIRGen.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

using namespace tilec;
using namespace tilec::driver;

mlir::OwningOpRef<mlir::ModuleOp>
tilec::driver::buildTileModule(mlir::MLIRContext &context,
                               ProgramLoader &loader,
                               const typed::Program &program) {
  // MLIR diagnostics print like the front end's: file:line:col with a caret.
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      genModule(context, program, loader.getSourceMgr());
  if (!module || mlir::failed(mlir::verify(*module)))
    failInput();
  return module;
}
