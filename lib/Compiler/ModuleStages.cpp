//===- ModuleStages.cpp - The program as tile IR and at the loop level ----===//
//
// Part of lib/Compiler; see ModuleStages.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Compiler/Reporter.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/PipelineRun.h"
#include "tilec/Target/StageTiming.h"

#include "tilec/Conversion/Passes.h"
#include "tilec/MLIRGen/MLIRGen.h"
#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

using namespace tilec;
using namespace tilec::compiler;

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
tilec::compiler::buildTileModule(mlir::MLIRContext &context,
                                 ProgramLoader &loader,
                                 const typed::Program &program) {
  TimedStage stage("tile IR");
  // MLIR diagnostics print like the front end's: file:line:col with a caret.
  mlir::SourceMgrDiagnosticHandler handler(
      loader.getSourceMgr(), &context, loader.getReporter().diagnostics());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      genModule(context, program, loader.getSourceMgr());
  if (!module || mlir::failed(mlir::verify(*module)))
    return inputError();
  return module;
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
tilec::compiler::buildLoopLevelModule(mlir::MLIRContext &context,
                                      ProgramLoader &loader,
                                      const typed::Program &program) {
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
      buildTileModule(context, loader, program);
  if (!module)
    return module.takeError();
  TimedStage stage("loop level");
  mlir::SourceMgrDiagnosticHandler handler(
      loader.getSourceMgr(), &context, loader.getReporter().diagnostics());
  mlir::PassManager pm(&context);
  stage.timePasses(pm);
  buildTileToLoopsPipeline(pm);
  if (mlir::failed(runCompilePipeline(pm, **module)))
    return inputError();
  return module;
}

void tilec::compiler::prepareLoopLevel(const TargetBackend &backend,
                                       mlir::ModuleOp module,
                                       const schedule::DeviceProfile &device) {
  backend.attachTarget(module, device);
  mlir::PassManager pm(module.getContext());
  if (backend.kind() == BackendKind::CPU) {
    // For the host CPU, as the default schedules (KernelSchedules.cpp).
    buildCPUKernelFormation(pm, LoopsToLLVMOptions());
  } else {
    pm.addNestedPass<mlir::func::FuncOp>(createTilecGPUFuseRowsPass());
    pm.addNestedPass<mlir::func::FuncOp>(
        createTilecGPUFlattenContractionsPass());
  }
  // The pass cannot fail: it rewrites what it matches and leaves the rest.
  (void)runCompilePipeline(pm, module);
}
