//===- Compile.cpp - A program compiled for one backend -------------------===//
//
// Part of lib/Compiler; see Compile.h. The module is the loop level until a
// GPU backend's mapping takes it to the gpu level in place; the compile
// cache's key is taken before that, from the scheduled loop level, so that a
// hit skips the mapping and the backend.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/Compile.h"
#include "tilec/Compiler/CompileCache.h"
#include "tilec/Compiler/CompileCacheKeys.h"
#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Compiler/Reporter.h"
#include "tilec/Compiler/ScheduleLoading.h"
#include "tilec/Dialect/Kernel/Analysis/TemporaryPlan.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Support/Version.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/PipelineRun.h"
#include "tilec/Target/StageTiming.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <set>

using namespace tilec;
using namespace tilec::compiler;

namespace {

//===----------------------------------------------------------------------===//
// The artefact in the compile cache
//===----------------------------------------------------------------------===//

/// The payloads of a cached artefact: its bytes, its manifest (empty when
/// it has none) and its side files. An --emit form is kept as an artefact
/// of its text alone.
constexpr llvm::StringRef kPayloads[] = {"artefact", "manifest", "side-files"};

/// Side files as "PATH\nSIZE\nBYTES" one after the other.
std::string encodeSideFiles(const std::vector<SideFile> &files) {
  std::string text;
  for (const SideFile &file : files)
    text += fmt::format("{}\n{}\n", file.path, file.bytes.size()) + file.bytes;
  return text;
}

std::optional<std::vector<SideFile>> decodeSideFiles(llvm::StringRef text) {
  std::vector<SideFile> files;
  while (!text.empty()) {
    auto [path, rest] = text.split('\n');
    auto [sizeText, body] = rest.split('\n');
    size_t size;
    if (sizeText.getAsInteger(10, size) || size > body.size())
      return std::nullopt;
    files.push_back({path.str(), body.take_front(size).str()});
    text = body.drop_front(size);
  }
  return files;
}

std::vector<CachePayload> toPayloads(const Artefact &artefact) {
  return {{kPayloads[0].str(), artefact.bytes},
          {kPayloads[1].str(),
           artefact.manifest ? rt::printManifest(*artefact.manifest) : ""},
          {kPayloads[2].str(), encodeSideFiles(artefact.sideFiles)}};
}

/// The artefact of a cache hit; std::nullopt when its payloads do not read
/// back (it is then compiled again and stored anew).
std::optional<Artefact> fromPayloads(std::vector<CachePayload> payloads) {
  Artefact artefact;
  artefact.bytes = std::move(payloads[0].bytes);
  if (!payloads[1].bytes.empty()) {
    Result<rt::Manifest> manifest =
        rt::parseManifest(payloads[1].bytes, "cached manifest");
    if (!manifest)
      return std::nullopt;
    artefact.manifest = std::move(*manifest);
  }
  std::optional<std::vector<SideFile>> sideFiles =
      decodeSideFiles(payloads[2].bytes);
  if (!sideFiles)
    return std::nullopt;
  artefact.sideFiles = std::move(*sideFiles);
  return artefact;
}

//===----------------------------------------------------------------------===//
// The stages
//===----------------------------------------------------------------------===//

TemporaryMemory temporaryMemoryOf(mlir::ModuleOp module) {
  TemporaryPlan plan = planEntryTemporaries(module);
  return {plan.peakBytes(), plan.unsharedBytes(), plan.temporaries.size(),
          plan.slotBytes.size()};
}

/// Puts the schedules on the loop-level `module` (step 3 of Compile.h).
llvm::Expected<std::vector<KernelReport>>
scheduleKernelsOf(mlir::ModuleOp module, ProgramLoader &loader,
                  const CompileRequest &request) {
  TimedStage stage("schedules");
  if (request.device)
    return scheduleKernels(module, scheduleTargetOf(*request.device),
                           request.schedules, request.verbose,
                           loader.getReporter());
  const TargetBackend &backend = *request.backend;
  if (llvm::Error error = applyScheduleFileForCompile(
          {backend.name(), backend.kind() == BackendKind::CPU},
          request.scheduleFile, request.scheduleDeviceId, request.verbose,
          module, loader.getReporter()))
    return std::move(error);
  return std::vector<KernelReport>();
}

/// The loop level to the gpu level, in place, for the module's
/// #tilec.gpu_target.
/// That the manifest launches every kernel nest of `nests` and nothing
/// else, by fingerprint.
llvm::Error checkKernelsLaunched(const std::vector<KernelReport> &nests,
                                 const rt::Manifest &manifest) {
  std::set<std::string> scheduled, launched;
  for (const KernelReport &nest : nests)
    scheduled.insert(nest.fingerprint);
  for (const rt::ManifestKernel &kernel : manifest.kernels)
    launched.insert(kernel.fingerprint);
  if (scheduled != launched)
    return runtimeError(fmt::format(
        "internal error: the {} kernel nests were compiled into {} kernels "
        "of other fingerprints",
        nests.size(), manifest.kernels.size()));
  return llvm::Error::success();
}

llvm::Error mapToGPULevel(mlir::MLIRContext &context, mlir::ModuleOp module,
                          const TargetBackend &backend) {
  TimedStage stage("GPU mapping");
  mlir::PassManager pm(&context);
  stage.timePasses(pm);
  buildLoopsToGPUPipeline(pm, backend.indexIs32Bit());
  if (mlir::failed(runCompilePipeline(pm, module)))
    return inputError();
  return llvm::Error::success();
}

/// What the compile cache keeps for `request`: the artefact or the --emit
/// form, each under its own key.
std::string outputName(const CompileRequest &request) {
  if (request.emit.empty())
    return "artefact";
  return "emit=" + request.emit +
         (request.printDebugInfo ? " with locations" : "");
}

std::string print(mlir::ModuleOp module, bool debugInfo) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo(
                        debugInfo, /*prettyForm=*/false));
  return text;
}

} // namespace

ManifestContext
tilec::compiler::manifestContextFor(const TargetBackend &backend,
                                    llvm::StringRef inputPath,
                                    const typed::Program &program) {
  ManifestContext context;
  context.target = backend.name().str();
  context.program = inputPath == "-" ? "<stdin>" : inputPath.str();
  context.tilecVersion = kTilecVersion;
  for (typed::ValueId id : program.inputs)
    context.inputDTypes.push_back(program.value(id).type.dtype);
  for (typed::ValueId id : program.outputs)
    context.outputDTypes.push_back(program.value(id).type.dtype);
  return context;
}

llvm::Expected<CompiledProgram>
tilec::compiler::compileProgram(ProgramLoader &loader,
                                const typed::Program &program,
                                const CompileRequest &request,
                                CompileCache *cache) {
  const TargetBackend &backend = *request.backend;
  if (llvm::Error error = backend.checkRequest(request.artefact))
    return std::move(error);
  if (request.emit == "gpu" && backend.kind() != BackendKind::GPU)
    return usageError(fmt::format("target '{}' has no gpu level",
                                  backend.name().str()));
  if (!request.emit.empty() && request.emit != "gpu" &&
      !backend.emits(request.emit))
    return usageError(fmt::format("target '{}' does not print --emit={}",
                                  backend.name().str(), request.emit));

  mlir::MLIRContext context;
  // Diagnostics name the Tile statement; a dump of the op it was lowered
  // to says nothing to the program's author.
  context.printOpOnDiagnostic(false);
  mlir::DialectRegistry registry;
  backend.registerDialects(registry);
  context.appendDialectRegistry(registry);
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> built =
      buildLoopLevelModule(context, loader, program);
  if (!built)
    return built.takeError();
  mlir::ModuleOp module = **built;
  // Whatever fails from here on names the Tile statements it concerns.
  mlir::SourceMgrDiagnosticHandler handler(
      loader.getSourceMgr(), &context, loader.getReporter().diagnostics());

  prepareLoopLevel(backend, module,
                   request.device ? request.device->profile
                                  : schedule::DeviceProfile());
  if (loader.programOptions().allowTF32) {
    context.getOrLoadDialect<kernel::KernelDialect>();
    kernel::AllowTF32(&context).setAttr(module, mlir::UnitAttr::get(&context));
  }
  CompiledProgram compiled;
  llvm::Expected<std::vector<KernelReport>> kernels =
      scheduleKernelsOf(module, loader, request);
  if (!kernels)
    return kernels.takeError();
  compiled.kernels = std::move(*kernels);

  ArtefactRequest artefactRequest = request.artefact;
  if (request.device)
    artefactRequest.context.device = request.device->device.id;
  // What the runtime loads is compiled anew: it is never written anywhere.
  bool cached = cache && !artefactRequest.forRuntime;
  CacheKey key;
  if (cached) {
    llvm::Expected<std::vector<CacheKeyField>> fields =
        backend.cacheKeyFields(artefactRequest);
    if (!fields)
      return fields.takeError();
    key = compileCacheKey(backend, module, artefactRequest, outputName(request),
                          *fields);
    if (auto hit = cache->lookup(key, kPayloads))
      if (std::optional<Artefact> artefact = fromPayloads(std::move(*hit))) {
        compiled.fromCache = true;
        if (request.emit.empty())
          compiled.artefact = std::move(*artefact);
        else
          compiled.emitted = std::move(artefact->bytes);
        return compiled;
      }
  }

  if (backend.kind() == BackendKind::GPU)
    if (llvm::Error error = mapToGPULevel(context, module, backend))
      return std::move(error);
  if (!request.emit.empty()) {
    if (request.emit == "gpu") {
      compiled.emitted = print(module, request.printDebugInfo);
    } else {
      llvm::raw_string_ostream os(compiled.emitted);
      if (llvm::Error error =
              backend.printStage(request.emit, module, artefactRequest, os))
        return std::move(error);
    }
    if (cached) {
      Artefact text;
      text.bytes = compiled.emitted;
      cache->store(key, toPayloads(text));
    }
    return compiled;
  }
  llvm::Expected<Artefact> artefact =
      backend.serialize(module, artefactRequest);
  if (!artefact)
    return artefact.takeError();
  // The manifest launches the kernel nests the schedules saw, each as one
  // kernel or (a split reduction) several with its fingerprint.
  if (artefact->manifest && request.device)
    if (llvm::Error error =
            checkKernelsLaunched(compiled.kernels, *artefact->manifest))
      return std::move(error);
  compiled.artefact = std::move(*artefact);
  compiled.temporaries = temporaryMemoryOf(module);
  if (cached)
    cache->store(key, toPayloads(compiled.artefact));
  return compiled;
}
