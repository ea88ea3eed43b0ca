//===- ModuleStages.cpp - The program as tile IR and at the loop level ----===//
//
// Part of the tilec driver; see ModuleStages.h.
//
//===----------------------------------------------------------------------===//

#include "ModuleStages.h"
#include "DriverError.h"
#include "StageTiming.h"

#include "tilec/MLIRGen/MLIRGen.h"
#include "tilec/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

using namespace tilec;
using namespace tilec::driver;

mlir::OwningOpRef<mlir::ModuleOp>
tilec::driver::buildTileModule(mlir::MLIRContext &context,
                               ProgramLoader &loader,
                               const typed::Program &program) {
  TimedStage stage("tile IR");
  // MLIR diagnostics print like the front end's: file:line:col with a caret.
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      genModule(context, program, loader.getSourceMgr());
  if (!module || mlir::failed(mlir::verify(*module)))
    failInput();
  return module;
}

mlir::OwningOpRef<mlir::ModuleOp>
tilec::driver::buildLoopLevelModule(mlir::MLIRContext &context,
                                    ProgramLoader &loader,
                                    const typed::Program &program) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildTileModule(context, loader, program);
  TimedStage stage("loop level");
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  mlir::PassManager pm(&context);
  stage.timePasses(pm);
  buildTileToLoopsPipeline(pm);
  if (mlir::failed(pm.run(*module)))
    failInput();
  return module;
}
