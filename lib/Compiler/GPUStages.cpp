//===- GPUStages.cpp - A program down to the gpu level --------------------===//
//
// Part of lib/Compiler; see GPUStages.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/GPUStages.h"
#include "tilec/Compiler/CompileError.h"
#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Compiler/Reporter.h"
#include "tilec/Compiler/StageTiming.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Support/Version.h"
#include "tilec/Target/GPU/GPUDialects.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"


using namespace tilec;
using namespace tilec::compiler;

void tilec::compiler::addGPULevelDialects(mlir::MLIRContext &context) {
  mlir::DialectRegistry registry;
  registerGPULevelDialects(registry);
  context.appendDialectRegistry(registry);
}

ManifestContext
tilec::compiler::manifestContextFor(llvm::StringRef target,
                                    llvm::StringRef inputPath,
                                    const typed::Program *program) {
  ManifestContext context;
  context.target = target.str();
  context.program = inputPath == "-" ? "<stdin>" : inputPath.str();
  context.tilecVersion = kTilecVersion;
  if (program) {
    for (typed::ValueId id : program->inputs)
      context.inputDTypes.push_back(program->value(id).type.dtype);
    for (typed::ValueId id : program->outputs)
      context.outputDTypes.push_back(program->value(id).type.dtype);
  }
  return context;
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
tilec::compiler::buildScheduledLoopModule(mlir::MLIRContext &context,
                                          ProgramLoader &loader,
                                          const typed::Program &program,
                                          const schedule::DeviceProfile &device,
                                          ScheduleStep schedule) {
  addGPULevelDialects(context);
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
      buildLoopLevelModule(context, loader, program);
  if (!module)
    return module;
  kernel::setGPUTarget(**module, device);
  if (!schedule)
    return module;
  TimedStage stage("schedules");
  if (llvm::Error error = schedule(**module))
    return std::move(error);
  return module;
}

llvm::Error tilec::compiler::mapToGPULevel(mlir::MLIRContext &context,
                                           ProgramLoader &loader,
                                           mlir::ModuleOp module) {
  TimedStage stage("GPU mapping");
  mlir::SourceMgrDiagnosticHandler handler(
      loader.getSourceMgr(), &context, loader.getReporter().diagnostics());
  mlir::PassManager pm(&context);
  stage.timePasses(pm);
  buildLoopsToGPUPipeline(pm);
  if (mlir::failed(pm.run(module)))
    return inputError();
  return llvm::Error::success();
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
tilec::compiler::buildGPULevelModule(mlir::MLIRContext &context,
                                     ProgramLoader &loader,
                                     const typed::Program &program,
                                     const schedule::DeviceProfile &device,
                                     ScheduleStep schedule) {
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
      buildScheduledLoopModule(context, loader, program, device, schedule);
  if (!module)
    return module;
  if (llvm::Error error = mapToGPULevel(context, loader, **module))
    return std::move(error);
  return module;
}
