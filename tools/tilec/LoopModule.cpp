//===- LoopModule.cpp - The program lowered to the loop level -------------===//
//
// Part of the tilec driver; see LoopModule.h.
//
//===----------------------------------------------------------------------===//

#include "LoopModule.h"
#include "DriverError.h"
#include "TileModule.h"

#include "tilec/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

using namespace tilec;
using namespace tilec::driver;

mlir::OwningOpRef<mlir::ModuleOp>
tilec::driver::buildLoopLevelModule(mlir::MLIRContext &context,
                                    ProgramLoader &loader,
                                    const typed::Program &program) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildTileModule(context, loader, program);
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  mlir::PassManager pm(&context);
  buildTileToLoopsPipeline(pm);
  if (mlir::failed(pm.run(*module)))
    failInput();
  return module;
}
