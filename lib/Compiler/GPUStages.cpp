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
#include "tilec/Support/Version.h"
#include "tilec/Target/GPU/GPUDialects.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::compiler;

void tilec::compiler::addGPULevelDialects(mlir::MLIRContext &context) {
  mlir::DialectRegistry registry;
  registerGPULevelDialects(registry);
  context.appendDialectRegistry(registry);
}

GPUTargetOptions
tilec::compiler::gpuOptionsFor(const rt::DeviceInfo *device) {
  GPUTargetOptions options;
  if (!device)
    return options;
  auto take = [](int64_t &field, uint64_t value) {
    if (value)
      field = static_cast<int64_t>(value);
  };
  // Kernels stay well inside a device's largest work-group: the default
  // schedule only needs enough work-items to fill the device.
  take(options.maxWorkGroupSize,
       std::min<uint64_t>(device->maxWorkGroupSize, 1024));
  for (unsigned d = 0; d < 3 && d < device->maxWorkItemSizes.size(); ++d)
    take(options.maxWorkItemSizes[d],
         std::min<uint64_t>(device->maxWorkItemSizes[d],
                            options.maxWorkGroupSize));
  take(options.localMemBytes, device->localMemBytes);
  take(options.computeUnits, device->computeUnits);
  take(options.preferredVectorWidth, device->preferredVectorWidthFloat);
  take(options.subgroupSize, device->subgroupSize);
  return options;
}

SPIRVTargetOptions
tilec::compiler::spirvOptionsFor(const rt::DeviceInfo *device) {
  SPIRVTargetOptions options;
  if (!device)
    return options;
  options.fp16 = options.storage16Bit = device->fp16;
  options.fp64 = device->fp64;
  options.int8 = options.storage8Bit = device->int8;
  options.int64 = device->int64;
  if (device->subgroupSize)
    options.subgroupSize = static_cast<int>(device->subgroupSize);
  options.infNanPreserve16 = device->infNanPreserveF16;
  options.infNanPreserve32 = device->infNanPreserveF32;
  options.infNanPreserve64 = device->infNanPreserveF64;
  options.denormPreserve16 = device->denormPreserveF16;
  options.denormPreserve32 = device->denormPreserveF32;
  options.denormPreserve64 = device->denormPreserveF64;
  options.maxLoopIterations = device->maxLoopIterations;
  return options;
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
                                          ScheduleStep schedule) {
  addGPULevelDialects(context);
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
      buildLoopLevelModule(context, loader, program);
  if (!module || !schedule)
    return module;
  TimedStage stage("schedules");
  if (llvm::Error error = schedule(**module))
    return std::move(error);
  return module;
}

llvm::Error tilec::compiler::mapToGPULevel(mlir::MLIRContext &context,
                                           ProgramLoader &loader,
                                           mlir::ModuleOp module,
                                           const GPUTargetOptions &target) {
  TimedStage stage("GPU mapping");
  mlir::SourceMgrDiagnosticHandler handler(
      loader.getSourceMgr(), &context, loader.getReporter().diagnostics());
  mlir::PassManager pm(&context);
  stage.timePasses(pm);
  buildLoopsToGPUPipeline(pm, target);
  if (mlir::failed(pm.run(module)))
    return inputError();
  return llvm::Error::success();
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
tilec::compiler::buildGPULevelModule(mlir::MLIRContext &context,
                                     ProgramLoader &loader,
                                     const typed::Program &program,
                                     const GPUTargetOptions &target,
                                     ScheduleStep schedule) {
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
      buildScheduledLoopModule(context, loader, program, schedule);
  if (!module)
    return module;
  if (llvm::Error error = mapToGPULevel(context, loader, **module, target))
    return std::move(error);
  return module;
}
