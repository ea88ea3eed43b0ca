//===- GPUBackend.cpp - The opencl and spirv targets in the driver --------===//
//
// Part of the tilec driver; see GPUBackend.h. The artefact and its manifest
// are both built in memory before either is written, and a manifest that
// cannot be written takes the artefact with it, so a failed compile leaves no
// half of a pair.
//
//===----------------------------------------------------------------------===//

#include "GPUBackend.h"
#include "DeviceSession.h"
#include "DriverError.h"
#include "KernelSchedules.h"
#include "ModuleStages.h"
#include "Output.h"
#include "ScheduleLoading.h"

#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Runtime/Device.h"
#include "tilec/Support/Version.h"
#include "tilec/Target/OpenCL/ManifestBuilder.h"
#include "tilec/Target/OpenCL/OpenCLEmitter.h"
#include "tilec/Target/SPIRV/SPIRVTarget.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

using namespace tilec;
using namespace tilec::driver;

void tilec::driver::addGPULevelDialects(mlir::MLIRContext &context) {
  mlir::DialectRegistry registry;
  registerGPULevelDialects(registry);
  context.appendDialectRegistry(registry);
}

GPUTargetOptions tilec::driver::gpuOptionsFor(const rt::DeviceInfo *device) {
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

SPIRVTargetOptions tilec::driver::spirvOptionsFor(const rt::DeviceInfo *device) {
  SPIRVTargetOptions options;
  if (!device)
    return options;
  options.fp16 = options.storage16Bit = device->fp16;
  options.fp64 = device->fp64;
  options.int8 = options.storage8Bit = device->int8;
  options.int64 = device->int64;
  if (device->subgroupSize)
    options.subgroupSize = static_cast<int>(device->subgroupSize);
  return options;
}

ManifestContext tilec::driver::manifestContextFor(Target target, llvm::StringRef inputPath,
                                   const typed::Program *program) {
  ManifestContext context;
  context.target = targetName(target).str();
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

mlir::OwningOpRef<mlir::ModuleOp> tilec::driver::buildGPULevelModule(
    mlir::MLIRContext &context, ProgramLoader &loader,
    const typed::Program &program, const GPUTargetOptions &target,
    llvm::function_ref<void(mlir::ModuleOp)> schedule) {
  addGPULevelDialects(context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildLoopLevelModule(context, loader, program);
  if (schedule)
    schedule(*module);
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  mlir::PassManager pm(&context);
  buildLoopsToGPUPipeline(pm, target);
  if (mlir::failed(pm.run(*module)))
    failInput();
  return module;
}

GPUArtefact tilec::driver::makeArtefact(Target target, mlir::ModuleOp module,
                         ManifestContext context,
                         const SPIRVTargetOptions &spirv,
                         llvm::StringRef artefactName) {
  context.artefact = artefactName.str();
  GPUArtefact artefact;
  if (target == Target::SPIRV) {
    mlir::FailureOr<SPIRVArtefact> binary =
        compileToSPIRV(module, spirv, context);
    if (mlir::failed(binary))
      failInput();
    const auto *words = reinterpret_cast<const char *>(binary->binary.data());
    artefact.bytes.assign(words, words + 4 * binary->binary.size());
    artefact.manifest = std::move(binary->manifest);
    return artefact;
  }
  llvm::raw_string_ostream os(artefact.bytes);
  if (mlir::failed(emitOpenCL(module, os)))
    failInput();
  mlir::FailureOr<rt::Manifest> manifest = buildManifest(module, context);
  if (mlir::failed(manifest))
    failInput();
  artefact.manifest = std::move(*manifest);
  return artefact;
}

namespace {

/// --emit=gpu|cl|spirv-asm, or the artefact and OUT.json.
void finish(Target target, const CompileOptions &options,
            std::optional<EmitKind> emit, mlir::ModuleOp module,
            const ManifestContext &context, const SPIRVTargetOptions &spirv) {
  std::string stdoutOrOutput = options.output.empty() ? "-" : options.output;
  std::string text;
  llvm::raw_string_ostream os(text);
  if (emit == EmitKind::GPU) {
    module->print(os, mlir::OpPrintingFlags().enableDebugInfo(
                          options.printDebugInfo, /*prettyForm=*/false));
    writeOutputFile(stdoutOrOutput, text);
    return;
  }
  if (emit == EmitKind::SPIRVAsm) {
    if (mlir::failed(printSPIRVAssembly(module, spirv, os)))
      failInput();
    writeOutputFile(stdoutOrOutput, text);
    return;
  }
  // --emit=cl and `-o -` give the kernels alone; otherwise the kernel file
  // (default: the input's stem) and its manifest.
  bool kernelsOnly = emit || options.output == "-";
  std::string path = options.output;
  if (path.empty()) {
    llvm::StringRef input = options.program.inputPath;
    path = (input == "-" ? std::string("kernel")
                         : llvm::sys::path::stem(input).str()) +
           (target == Target::SPIRV ? ".spv" : ".cl");
  }
  GPUArtefact artefact =
      makeArtefact(target, module, context, spirv,
                   kernelsOnly ? "-" : llvm::sys::path::filename(path));
  if (kernelsOnly) {
    writeOutputFile(emit ? stdoutOrOutput : "-", artefact.bytes);
    return;
  }
  writeOutputFile(path, artefact.bytes);
  if (Status written = rt::writeManifest(path + ".json", artefact.manifest);
      !written) {
    (void)llvm::sys::fs::remove(path);
    failRuntime(written.message());
  }
}

} // namespace

void tilec::driver::compileForGPU(Target target, const CompileOptions &options,
                                  std::optional<EmitKind> emit,
                                  ProgramLoader &loader,
                                  const typed::Program &program) {
  ManifestContext manifestContext =
      manifestContextFor(target, options.program.inputPath, &program);
  mlir::MLIRContext context;
  if (options.device.empty() && options.devicesFrom.empty()) {
    // No device: the limits every device meets, and the schedule file's
    // entries for --device-id.
    mlir::OwningOpRef<mlir::ModuleOp> module = buildGPULevelModule(
        context, loader, program, gpuOptionsFor(nullptr),
        [&](mlir::ModuleOp loops) {
          applyScheduleOption(target, options, loops);
        });
    mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
    finish(target, options, emit, *module, manifestContext,
           spirvOptionsFor(nullptr));
    return;
  }
  // A device (here, or in a device list from another machine): its limits,
  // its cost-model profile and its schedule-file entries, as `tilec run`
  // and `tilec autotune` compile for it.
  DeviceTarget device =
      openDeviceTarget(target, options.device, options.devicesFrom);
  bool verbose = options.program.verbose;
  std::optional<schedule::ScheduleFile> file;
  ScheduleChoice schedules;
  if (!options.schedule.empty() && (file = loadScheduleFile(options.schedule,
                                                            verbose)))
    schedules.file = &*file;
  GPUTargetOptions limits = gpuOptionsFor(&device.device);
  mlir::OwningOpRef<mlir::ModuleOp> module = buildGPULevelModule(
      context, loader, program, limits, [&](mlir::ModuleOp loops) {
        (void)scheduleKernels(loops, device, limits, schedules, verbose);
      });
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  manifestContext.device = device.device.id;
  finish(target, options, emit, *module, manifestContext,
         spirvOptionsFor(&device.device));
}

void tilec::driver::compileGPULevelFile(Target target,
                                        const CompileOptions &options,
                                        std::optional<EmitKind> emit) {
  mlir::MLIRContext context;
  addGPULevelDialects(context);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  auto file = mlir::openInputFile(options.program.inputPath, &error);
  if (!file)
    failRuntime(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    failInput();
  finish(target, options, emit, *module,
         manifestContextFor(target, options.program.inputPath, nullptr),
         spirvOptionsFor(nullptr));
}
