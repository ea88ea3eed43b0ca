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
#include "Output.h"

#include "tilec/Compiler/CompileCacheKeys.h"
#include "tilec/Compiler/GPUStages.h"
#include "tilec/Compiler/KernelSchedules.h"
#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Compiler/ScheduleLoading.h"
#include "tilec/Compiler/StageTiming.h"
#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Runtime/Device.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Support/Version.h"
#include "tilec/Target/GPU/GPUDialects.h"
#include "tilec/Target/GPU/ManifestBuilder.h"
#include "tilec/Target/OpenCL/OpenCLEmitter.h"
#include "tilec/Target/SPIRV/SPIRVTarget.h"
#include "tilec/Target/TargetBackend.h"

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
using namespace tilec::compiler;

GPUArtefact tilec::driver::makeArtefact(Target target, mlir::ModuleOp module,
                         ManifestContext context,
                         llvm::StringRef artefactName) {
  TimedStage stage(target == Target::SPIRV ? "SPIR-V" : "OpenCL C");
  context.artefact = artefactName.str();
  GPUArtefact artefact;
  if (target == Target::SPIRV) {
    mlir::FailureOr<SPIRVArtefact> binary =
        compileToSPIRV(module, context);
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

/// Where the kernel file of a compile without --emit goes: -o, else the
/// input's stem with .cl or .spv; "-" is stdout.
std::string kernelFilePath(Target target, const CompileOptions &options) {
  if (!options.output.empty())
    return options.output;
  llvm::StringRef input = options.program.inputPath;
  return (input == "-" ? std::string("kernel")
                       : llvm::sys::path::stem(input).str()) +
         getTargetBackend(targetName(target)).artefactExtension().str();
}

/// The kernel file's name as its manifest records it.
std::string artefactName(llvm::StringRef path) {
  return path == "-" ? "-" : llvm::sys::path::filename(path).str();
}

/// Writes the "kernels" payload to `path` and, unless that is stdout, the
/// "manifest" payload beside it as PATH.json; a manifest that cannot be
/// written takes the kernel file with it.
void writeKernelFiles(const std::string &path,
                      const std::vector<CachePayload> &files) {
  writeOutputFile(path, files[0].bytes);
  if (path == "-")
    return;
  if (Status written = writeFileAtomically(path + ".json", files[1].bytes);
      !written) {
    (void)llvm::sys::fs::remove(path);
    failRuntime(written.message());
  }
}

/// --emit=gpu|cl|spirv-asm, or (no --emit) the kernel file and its
/// manifest, which are returned for the compile cache.
std::vector<CachePayload> finish(Target target, const CompileOptions &options,
                                 std::optional<EmitKind> emit,
                                 mlir::ModuleOp module,
                                 const ManifestContext &context) {
  std::string stdoutOrOutput = options.output.empty() ? "-" : options.output;
  std::string text;
  llvm::raw_string_ostream os(text);
  if (emit == EmitKind::GPU) {
    module->print(os, mlir::OpPrintingFlags().enableDebugInfo(
                          options.printDebugInfo, /*prettyForm=*/false));
    writeOutputFile(stdoutOrOutput, text);
    return {};
  }
  if (emit == EmitKind::SPIRVAsm) {
    if (mlir::failed(printSPIRVAssembly(module, os)))
      failInput();
    writeOutputFile(stdoutOrOutput, text);
    return {};
  }
  if (emit) {
    // --emit=cl: the kernels alone.
    writeOutputFile(stdoutOrOutput,
                    makeArtefact(target, module, context, "-").bytes);
    return {};
  }
  std::string path = kernelFilePath(target, options);
  GPUArtefact artefact =
      makeArtefact(target, module, context, artefactName(path));
  std::vector<CachePayload> files = {
      {"kernels", std::move(artefact.bytes)},
      {"manifest", rt::printManifest(artefact.manifest)}};
  writeKernelFiles(path, files);
  return files;
}

} // namespace

void tilec::driver::compileForGPU(Target target, const CompileOptions &options,
                                  std::optional<EmitKind> emit,
                                  ProgramLoader &loader,
                                  const typed::Program &program) {
  ManifestContext manifestContext =
      manifestContextFor(targetName(target), options.program.inputPath,
                         &program);
  mlir::MLIRContext context;
  // No device: the default profile (limits every device meets), and the
  // schedule file's entries for --device-id.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::optional<DeviceTarget> device;
  std::optional<schedule::ScheduleFile> file;
  if (options.device.empty() && options.devicesFrom.empty()) {
    module = orFail(buildScheduledLoopModule(
        context, loader, program, schedule::DeviceProfile(),
        [&](mlir::ModuleOp loops) {
          return applyScheduleOption(target, options, loops);
        }));
  } else {
    // A device (here, or in a device list from another machine): its
    // limits, its cost-model profile and its schedule-file entries, as
    // `tilec run` and `tilec autotune` compile for it.
    device = openDeviceTarget(target, options.device, options.devicesFrom);
    bool verbose = options.program.verbose;
    ScheduleChoice schedules;
    if (!options.schedule.empty() &&
        (file = loadScheduleFile(options.schedule, verbose, driverReporter())))
      schedules.file = &*file;
    manifestContext.device = device->device.id;
    module = orFail(buildScheduledLoopModule(
        context, loader, program, device->profile,
        [&](mlir::ModuleOp loops) {
          return scheduleKernels(loops, scheduleTargetOf(*device), schedules,
                                 verbose, driverReporter())
              .takeError();
        }));
  }
  // A compile without --emit may find its two files in the cache, keyed by
  // the scheduled loop level and everything the mapping and the manifest
  // add to it.
  std::optional<CompileCache> cache;
  CacheKey key;
  if (!emit) {
    ManifestContext named = manifestContext;
    named.artefact = artefactName(kernelFilePath(target, options));
    cache.emplace(cacheSettingsOf(options), driverReporter());
    key = gpuCacheKey(targetName(target), *module, named);
    if (auto hit = cache->lookup(key, {"kernels", "manifest"})) {
      writeKernelFiles(kernelFilePath(target, options), *hit);
      return;
    }
  }
  orFail(mapToGPULevel(context, loader, *module));
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  std::vector<CachePayload> files =
      finish(target, options, emit, *module, manifestContext);
  if (cache)
    cache->store(key, files);
}
