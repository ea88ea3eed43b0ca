//===- GPUBackend.cpp - The opencl and spirv targets in the driver --------===//
//
// Part of the tilec driver; see GPUBackend.h. The artefact and its manifest
// are both built in memory before either is written, and a manifest that
// cannot be written takes the artefact with it, so a failed compile leaves no
// half of a pair.
//
//===----------------------------------------------------------------------===//

#include "GPUBackend.h"
#include "DriverError.h"
#include "ModuleStages.h"
#include "Output.h"

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

namespace {

/// The kernels of one program for one target: the file's bytes (OpenCL C
/// source or a SPIR-V binary) and the launch manifest that goes with them.
struct GPUArtefact {
  std::string bytes;
  rt::Manifest manifest;
};

/// A context that knows the dialects of the gpu level.
void addGPULevelDialects(mlir::MLIRContext &context) {
  mlir::DialectRegistry registry;
  registerGPULevelDialects(registry);
  context.appendDialectRegistry(registry);
}

/// The device facts the GPU mapping specialises on. Without a device (a
/// plain compile) the defaults, which every OpenCL 1.2 / Vulkan 1.1 device
/// meets; a limit a device does not report keeps its default.
GPUTargetOptions gpuOptionsFor(const rt::DeviceInfo *device) {
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

/// The SPIR-V capabilities a Vulkan device offers; without a device, the
/// defaults (what lavapipe and current GPUs all support).
SPIRVTargetOptions spirvOptionsFor(const rt::DeviceInfo *device) {
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

/// What the manifest records about the program, from the typed program (the
/// gpu level's signless integers no longer say whether they were signed).
ManifestContext manifestContextFor(Target target, llvm::StringRef inputPath,
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

/// Lowers `program` to the gpu level, specialised on `target`'s limits.
mlir::OwningOpRef<mlir::ModuleOp>
buildGPULevelModule(mlir::MLIRContext &context, ProgramLoader &loader,
                    const typed::Program &program,
                    const GPUTargetOptions &target) {
  addGPULevelDialects(context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildLoopLevelModule(context, loader, program);
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  mlir::PassManager pm(&context);
  buildLoopsToGPUPipeline(pm, target);
  if (mlir::failed(pm.run(*module)))
    failInput();
  return module;
}

/// The kernels of a gpu-level module for `target` with their manifest;
/// `artefactName` is the kernel file's name as the manifest records it.
GPUArtefact makeArtefact(Target target, mlir::ModuleOp module,
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

/// --emit=gpu|cl|spirv-asm, or the artefact and OUT.json.
void finish(Target target, const CompileOptions &options,
            std::optional<EmitKind> emit, mlir::ModuleOp module,
            const ManifestContext &context) {
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
    if (mlir::failed(printSPIRVAssembly(module, spirvOptionsFor(nullptr), os)))
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
      makeArtefact(target, module, context, spirvOptionsFor(nullptr),
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
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildGPULevelModule(context, loader, program, gpuOptionsFor(nullptr));
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  finish(target, options, emit, *module,
         manifestContextFor(target, options.program.inputPath, &program));
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
         manifestContextFor(target, options.program.inputPath, nullptr));
}

std::vector<Tensor>
tilec::driver::runOnDevice(Target target, const std::string &deviceRequest,
                           ProgramLoader &loader, const typed::Program &program,
                           const std::vector<Tensor> &inputs, bool verbose) {
  Result<rt::TargetRuntime> opened =
      rt::openTargetRuntime(targetName(target).str());
  if (!opened)
    failRuntime(opened.message());
  std::unique_ptr<rt::Runtime> &runtime = opened->runtime;
  Result<rt::DeviceInfo> device =
      rt::selectDevice(opened->devices, deviceRequest);
  if (!device)
    failRuntime(device.message());
  if (verbose)
    llvm::errs() << fmt::format("tilec: running on {} ({})\n", device->id,
                                device->name);

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildGPULevelModule(context, loader, program, gpuOptionsFor(&*device));
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  ManifestContext manifestContext =
      manifestContextFor(target, loader.programOptions().inputPath, &program);
  manifestContext.device = device->id;
  GPUArtefact artefact = makeArtefact(target, *module, manifestContext,
                                      spirvOptionsFor(&*device), "<memory>");

  Result<std::unique_ptr<rt::Program>> loaded =
      runtime->load(device->id, artefact.manifest, artefact.bytes);
  if (!loaded)
    failRuntime(loaded.message());
  std::map<std::string, Tensor> namedInputs, namedOutputs;
  for (size_t i = 0; i < program.inputs.size() && i < inputs.size(); ++i)
    namedInputs[program.value(program.inputs[i]).name] = inputs[i];
  if (Status ran = (*loaded)->run(namedInputs, namedOutputs); !ran)
    failRuntime(ran.message());
  std::vector<Tensor> outputs;
  for (typed::ValueId id : program.outputs) {
    auto found = namedOutputs.find(program.value(id).name);
    if (found == namedOutputs.end())
      failRuntime(fmt::format("internal error: the device returned no '{}'",
                              program.value(id).name));
    outputs.push_back(std::move(found->second));
  }
  return outputs;
}
