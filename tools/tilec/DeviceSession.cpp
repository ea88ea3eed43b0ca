//===- DeviceSession.cpp - Compile for a device, load, run, time ----------===//
//
// Part of the tilec driver; see DeviceSession.h. Every compile here takes
// the same steps on the loop level before its target's pipeline: the
// overrides, then the schedule file, then the cost model's pick for every
// kernel still without a schedule (KernelSchedules.cpp), so the schedule of
// each kernel can be reported and is the one the code was generated with.
//
//===----------------------------------------------------------------------===//

#include "DeviceSession.h"
#include "DriverError.h"
#include "GPUBackend.h"

#include "tilec/Compiler/GPUStages.h"
#include "tilec/Compiler/KernelSchedules.h"
#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Compiler/StageTiming.h"
#include "tilec/Runtime/DeviceReport.h"
#include "tilec/Runtime/JIT.h"
#include "tilec/Schedule/ProfileCache.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"
#include "tilec/Transforms/TemporaryPlan.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

LoadedProgram::~LoadedProgram() = default;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The runtime whose devices run `target`'s code, as DeviceInfo::runtime
/// names it.
std::string runtimeOf(Target target) {
  switch (target) {
  case Target::OpenCL:
    return "opencl";
  case Target::SPIRV:
    return "vulkan";
  case Target::LLVMX86:
    return "cpu";
  default:
    failUsage(fmt::format("target '{}' runs on no device; use opencl, spirv "
                          "or llvm-x86",
                          targetName(target).str()));
  }
}

/// The devices of `target` in a `tilec devices --json` dump.
std::vector<rt::DeviceInfo> devicesFromDump(Target target,
                                            const std::string &path) {
  Result<std::string> text = readFileBytes(path);
  if (!text)
    failInput(text.message());
  Result<std::vector<rt::RuntimeDevices>> report =
      rt::parseDeviceReportJson(*text, path);
  if (!report)
    failInput(report.message());
  std::vector<rt::DeviceInfo> devices;
  for (rt::RuntimeDevices &entry : *report)
    if (entry.runtime == runtimeOf(target))
      for (rt::DeviceInfo &device : entry.devices)
        devices.push_back(std::move(device));
  if (devices.empty())
    failInput(fmt::format("{}: lists no {} device, which target '{}' needs",
                          path, runtimeOf(target), targetName(target).str()));
  return devices;
}

/// The profile the cost model sees: the device's properties and the peaks
/// `tilec devices --probe` measured, when the cache has them.
schedule::DeviceProfile profileOf(Target target, const rt::DeviceInfo &device) {
  schedule::DeviceProfile profile =
      target == Target::LLVMX86 ? schedule::hostCPUProfile()
                                : schedule::profileFromDeviceInfo(device);
  profile.id = device.id;
  std::string warning;
  schedule::ProfileCache cache = schedule::ProfileCache::load(
      schedule::defaultProfileCachePath(), warning);
  // A corrupt cache is `devices --probe`'s to report and rebuild; here it
  // only means the peaks are estimated.
  schedule::applyCachedPeaks(profile, device, cache);
  return profile;
}

/// The names the program's inputs and outputs have on a device.
std::vector<std::string> valueNames(const typed::Program &program,
                                    const std::vector<typed::ValueId> &ids) {
  std::vector<std::string> names;
  for (typed::ValueId id : ids)
    names.push_back(program.value(id).name);
  return names;
}

/// What `module`'s temporary plan says about memory: the plan the CPU
/// pipeline and the GPU manifest both follow.
TemporaryMemory temporaryMemoryOf(mlir::ModuleOp module) {
  TemporaryPlan plan = planEntryTemporaries(module);
  return {plan.peakBytes(), plan.unsharedBytes(), plan.temporaries.size(),
          plan.slotBytes.size()};
}

/// A program loaded on an OpenCL or Vulkan device.
class DeviceProgram : public LoadedProgram {
public:
  DeviceProgram(std::unique_ptr<rt::Program> loaded,
                std::vector<std::string> inputNames,
                std::vector<std::string> outputNames,
                std::vector<KernelReport> kernels, double compileSeconds,
                TemporaryMemory memory)
      : loaded(std::move(loaded)), inputNames(std::move(inputNames)),
        outputNames(std::move(outputNames)) {
    kernelReports = std::move(kernels);
    compileTime = compileSeconds;
    temporaries = memory;
  }

  std::vector<Tensor> run(const std::vector<Tensor> &inputs,
                          std::vector<double> *kernelSeconds) override {
    std::map<std::string, Tensor> namedInputs, namedOutputs;
    for (size_t i = 0; i < inputNames.size() && i < inputs.size(); ++i)
      namedInputs[inputNames[i]] = inputs[i];
    std::vector<rt::KernelTiming> timings;
    if (Status ran = loaded->run(namedInputs, namedOutputs,
                                 kernelSeconds ? &timings : nullptr);
        !ran)
      failRuntime(ran.message());
    if (kernelSeconds) {
      kernelSeconds->clear();
      for (const rt::KernelTiming &timing : timings)
        kernelSeconds->push_back(timing.seconds);
    }
    std::vector<Tensor> outputs;
    for (const std::string &name : outputNames) {
      auto found = namedOutputs.find(name);
      if (found == namedOutputs.end())
        failRuntime(fmt::format("internal error: the device returned no '{}'",
                                name));
      outputs.push_back(std::move(found->second));
    }
    return outputs;
  }

private:
  std::unique_ptr<rt::Program> loaded;
  std::vector<std::string> inputNames, outputNames;
};

/// A program JIT-compiled for the host CPU, timed per kernel nest.
class HostProgram : public LoadedProgram {
public:
  HostProgram(std::unique_ptr<JITProgram> compiled,
              std::vector<TensorType> outputTypes,
              std::vector<KernelReport> kernels, double compileSeconds,
              TemporaryMemory memory)
      : compiled(std::move(compiled)), outputTypes(std::move(outputTypes)) {
    kernelReports = std::move(kernels);
    compileTime = compileSeconds;
    temporaries = memory;
  }

  std::vector<Tensor> run(const std::vector<Tensor> &inputs,
                          std::vector<double> *kernelSeconds) override {
    auto outputs = compiled->run(inputs, outputTypes, kernelSeconds);
    if (!outputs)
      failWith(ExitCode::RuntimeFailure, outputs.takeError());
    return std::move(*outputs);
  }

private:
  std::unique_ptr<JITProgram> compiled;
  std::vector<TensorType> outputTypes;
};

/// Requires an OpenCL or SPIR-V device target.
void requireGPU(const DeviceTarget &device) {
  if (device.target != Target::OpenCL && device.target != Target::SPIRV)
    failUsage(fmt::format("target '{}' has no GPU kernels",
                          targetName(device.target).str()));
}

/// Compiles `program` to the kernels of a GPU device target, with their
/// reports.
GPUArtefactFiles buildGPUArtefact(DeviceTarget &device, ProgramLoader &loader,
                                  const typed::Program &program,
                                  const ScheduleChoice &schedules,
                                  bool verbose, llvm::StringRef artefactName) {
  requireGPU(device);
  GPUTargetOptions gpuOptions = gpuOptionsFor(&device.device);
  mlir::MLIRContext context;
  std::vector<KernelReport> kernels;
  mlir::OwningOpRef<mlir::ModuleOp> module = orFail(buildGPULevelModule(
      context, loader, program, gpuOptions,
      [&](mlir::ModuleOp loops) -> llvm::Error {
        auto scheduled = scheduleKernels(loops, scheduleTargetOf(device),
                                         gpuOptions, schedules, verbose,
                                         driverReporter());
        if (!scheduled)
          return scheduled.takeError();
        kernels = std::move(*scheduled);
        return llvm::Error::success();
      }));
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  ManifestContext manifestContext =
      manifestContextFor(targetName(device.target),
                         loader.programOptions().inputPath, &program);
  manifestContext.device = device.device.id;
  GPUArtefact artefact =
      makeArtefact(device.target, *module, manifestContext,
                   spirvOptionsFor(&device.device), artefactName);
  const std::vector<rt::ManifestKernel> &launched = artefact.manifest.kernels;
  if (launched.size() != kernels.size())
    failRuntime(fmt::format("internal error: {} kernel nests became {} "
                            "kernels",
                            kernels.size(), launched.size()));
  return {std::move(artefact.bytes), std::move(artefact.manifest),
          std::move(kernels), temporaryMemoryOf(*module)};
}

std::unique_ptr<LoadedProgram>
loadOnGPU(DeviceTarget &device, ProgramLoader &loader,
          const typed::Program &program, const ScheduleChoice &schedules,
          bool verbose) {
  if (!device.runtime)
    failUsage(fmt::format("device {} was read from a device list and cannot "
                          "run anything here",
                          device.device.id));
  Clock::time_point start = Clock::now();
  GPUArtefactFiles files = buildGPUArtefact(device, loader, program,
                                            schedules, verbose, "<memory>");
  Result<std::unique_ptr<rt::Program>> loaded =
      device.runtime->load(device.device.id, files.manifest, files.bytes);
  if (!loaded)
    failRuntime(loaded.message());
  return std::make_unique<DeviceProgram>(
      std::move(*loaded), valueNames(program, program.inputs),
      valueNames(program, program.outputs), std::move(files.kernels),
      secondsSince(start), files.temporaries);
}

std::unique_ptr<LoadedProgram>
loadOnHost(DeviceTarget &device, ProgramLoader &loader,
           const typed::Program &program, const ScheduleChoice &schedules,
           bool verbose) {
  Clock::time_point start = Clock::now();
  mlir::MLIRContext context;
  mlir::DialectRegistry registry;
  registerLoopsToLLVMDialects(registry);
  context.appendDialectRegistry(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      orFail(buildLoopLevelModule(context, loader, program));
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  std::vector<KernelReport> kernels = orFail(
      scheduleKernels(*module, scheduleTargetOf(device),
                      gpuOptionsFor(nullptr), schedules, verbose,
                      driverReporter()));
  TemporaryMemory memory = temporaryMemoryOf(*module);
  JITOptions options;
  options.optLevel = device.cpuOptLevel;
  options.timeKernels = true;
  auto compiled = [&] {
    TimedStage stage("JIT compile");
    return JITProgram::compile(*module, "", options);
  }();
  if (!compiled)
    failWith(ExitCode::RuntimeFailure, compiled.takeError());
  if ((*compiled)->timedKernelCount() != kernels.size())
    failRuntime(fmt::format("internal error: {} kernels, {} timed",
                            kernels.size(),
                            (*compiled)->timedKernelCount()));
  std::vector<TensorType> outputTypes;
  for (typed::ValueId id : program.outputs)
    outputTypes.push_back(program.value(id).type);
  return std::make_unique<HostProgram>(std::move(*compiled),
                                       std::move(outputTypes),
                                       std::move(kernels), secondsSince(start),
                                       memory);
}

} // namespace

compiler::ScheduleTarget
tilec::driver::scheduleTargetOf(const DeviceTarget &device) {
  return {device.device.id, device.profile, device.target == Target::LLVMX86};
}

DeviceTarget tilec::driver::openDeviceTarget(Target target,
                                             const std::string &request,
                                             const std::string &devicesFrom) {
  DeviceTarget opened;
  opened.target = target;
  std::string runtime = runtimeOf(target);
  std::vector<rt::DeviceInfo> devices;
  if (!devicesFrom.empty()) {
    devices = devicesFromDump(target, devicesFrom);
  } else {
    Result<rt::TargetRuntime> found = rt::openTargetRuntime(
        target == Target::LLVMX86 ? runtime : targetName(target).str());
    if (!found)
      failRuntime(found.message());
    devices = std::move(found->devices);
    // The host CPU runs JIT code, not manifests: no runtime to keep.
    if (target != Target::LLVMX86)
      opened.runtime = std::move(found->runtime);
  }
  Result<rt::DeviceInfo> device = rt::selectDevice(devices, request);
  if (!device)
    failRuntime(device.message());
  opened.device = std::move(*device);
  opened.profile = profileOf(target, opened.device);
  return opened;
}

std::unique_ptr<LoadedProgram>
tilec::driver::compileAndLoad(DeviceTarget &device, ProgramLoader &loader,
                              const typed::Program &program,
                              const ScheduleChoice &schedules, bool verbose) {
  if (device.target == Target::LLVMX86)
    return loadOnHost(device, loader, program, schedules, verbose);
  return loadOnGPU(device, loader, program, schedules, verbose);
}

GPUArtefactFiles tilec::driver::compileGPUArtefact(
    DeviceTarget &device, ProgramLoader &loader, const typed::Program &program,
    const ScheduleChoice &schedules, bool verbose) {
  return buildGPUArtefact(device, loader, program, schedules, verbose,
                          device.target == Target::SPIRV ? "kernels.spv"
                                                         : "kernels.cl");
}
