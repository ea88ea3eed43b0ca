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
#include "tilec/Runtime/JITRuntime.h"
#include "tilec/Schedule/CPUDefaultSchedule.h"
#include "tilec/Schedule/ProfileCache.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"
#include "tilec/Dialect/Kernel/Analysis/TemporaryPlan.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

LoadedProgram::LoadedProgram(std::unique_ptr<rt::Program> loaded,
                             std::vector<std::string> inputNames,
                             std::vector<std::string> outputNames,
                             std::vector<KernelReport> kernels,
                             double compileSeconds, TemporaryMemory memory)
    : loaded(std::move(loaded)), inputNames(std::move(inputNames)),
      outputNames(std::move(outputNames)), kernelReports(std::move(kernels)),
      compileTime(compileSeconds), temporaries(memory) {}

std::vector<Tensor> LoadedProgram::run(const std::vector<Tensor> &inputs,
                                       std::vector<double> *kernelSeconds) {
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
      failRuntime(
          fmt::format("internal error: the device returned no '{}'", name));
    outputs.push_back(std::move(found->second));
  }
  return outputs;
}

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

/// What the JIT runtime reads of a manifest (tilec/Runtime/JITRuntime.h):
/// the program's inputs and outputs with their types, and its kernels in
/// launch order.
rt::Manifest hostManifest(const typed::Program &program,
                          const std::vector<KernelReport> &kernels) {
  rt::Manifest manifest;
  manifest.target = targetName(Target::LLVMX86).str();
  manifest.artefact = "<memory>";
  auto addValues = [&](const std::vector<typed::ValueId> &ids,
                       rt::BufferRole role,
                       std::vector<rt::ManifestValue> &values) {
    for (typed::ValueId id : ids) {
      const auto &value = program.value(id);
      rt::ManifestBuffer buffer;
      buffer.id = static_cast<int>(manifest.buffers.size());
      buffer.role = role;
      buffer.name = value.name;
      buffer.dtype = value.type.dtype;
      buffer.shape = value.type.shape;
      buffer.bytes = static_cast<uint64_t>(value.type.numElements()) *
                     dtypeBytes(value.type.dtype);
      values.push_back({value.name, buffer.id});
      manifest.buffers.push_back(std::move(buffer));
    }
  };
  addValues(program.inputs, rt::BufferRole::Input, manifest.inputs);
  addValues(program.outputs, rt::BufferRole::Output, manifest.outputs);
  for (const KernelReport &report : kernels) {
    rt::ManifestKernel kernel;
    kernel.name = report.name;
    kernel.fingerprint = report.fingerprint;
    manifest.kernels.push_back(std::move(kernel));
  }
  return manifest;
}

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
  mlir::MLIRContext context;
  std::vector<KernelReport> kernels;
  mlir::OwningOpRef<mlir::ModuleOp> module = orFail(buildGPULevelModule(
      context, loader, program, device.profile,
      [&](mlir::ModuleOp loops) -> llvm::Error {
        auto scheduled = scheduleKernels(loops, scheduleTargetOf(device),
                                         schedules, verbose,
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
      makeArtefact(device.target, *module, manifestContext, artefactName);
  const std::vector<rt::ManifestKernel> &launched = artefact.manifest.kernels;
  if (launched.size() != kernels.size())
    failRuntime(fmt::format("internal error: {} kernel nests became {} "
                            "kernels",
                            kernels.size(), launched.size()));
  return {std::move(artefact.bytes), std::move(artefact.manifest),
          std::move(kernels), temporaryMemoryOf(*module)};
}

/// Requires a device opened here, not read from a device list.
void requireRuntime(const DeviceTarget &device) {
  if (!device.runtime)
    failUsage(fmt::format("device {} was read from a device list and cannot "
                          "run anything here",
                          device.device.id));
}

/// Loads `artefact` on `device` through its runtime, as every target does.
std::unique_ptr<rt::Program> loadArtefact(DeviceTarget &device,
                                          const rt::Manifest &manifest,
                                          const std::string &artefact) {
  Result<std::unique_ptr<rt::Program>> loaded =
      device.runtime->load(device.device.id, manifest, artefact);
  if (!loaded)
    failRuntime(loaded.message());
  return std::move(*loaded);
}

std::unique_ptr<LoadedProgram>
loadOnGPU(DeviceTarget &device, ProgramLoader &loader,
          const typed::Program &program, const ScheduleChoice &schedules,
          bool verbose) {
  requireRuntime(device);
  Clock::time_point start = Clock::now();
  GPUArtefactFiles files = buildGPUArtefact(device, loader, program,
                                            schedules, verbose, "<memory>");
  std::unique_ptr<rt::Program> loaded =
      loadArtefact(device, files.manifest, files.bytes);
  return std::make_unique<LoadedProgram>(
      std::move(loaded), valueNames(program, program.inputs),
      valueNames(program, program.outputs), std::move(files.kernels),
      secondsSince(start), files.temporaries);
}

std::unique_ptr<LoadedProgram>
loadOnHost(DeviceTarget &device, ProgramLoader &loader,
           const typed::Program &program, const ScheduleChoice &schedules,
           bool verbose) {
  requireRuntime(device);
  Clock::time_point start = Clock::now();
  mlir::MLIRContext context;
  mlir::DialectRegistry registry;
  registerLoopsToLLVMDialects(registry);
  context.appendDialectRegistry(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      orFail(buildLoopLevelModule(context, loader, program));
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  std::vector<KernelReport> kernels = orFail(
      scheduleKernels(*module, scheduleTargetOf(device), schedules, verbose,
                      driverReporter()));
  TemporaryMemory memory = temporaryMemoryOf(*module);
  Result<std::string> artefact = rt::writeJITArtefact(*module);
  if (!artefact)
    failRuntime(artefact.message());
  std::unique_ptr<rt::Program> loaded = [&] {
    TimedStage stage("JIT compile");
    return loadArtefact(device, hostManifest(program, kernels), *artefact);
  }();
  return std::make_unique<LoadedProgram>(
      std::move(loaded), valueNames(program, program.inputs),
      valueNames(program, program.outputs), std::move(kernels),
      secondsSince(start), memory);
}

} // namespace

compiler::ScheduleTarget
tilec::driver::scheduleTargetOf(const DeviceTarget &device) {
  return {device.device.id, device.profile, device.target == Target::LLVMX86};
}

DeviceTarget tilec::driver::openDeviceTarget(Target target,
                                             const std::string &request,
                                             const std::string &devicesFrom,
                                             unsigned cpuOptLevel) {
  DeviceTarget opened;
  opened.target = target;
  // Refuses a target that runs on no device before anything is opened.
  runtimeOf(target);
  std::vector<rt::DeviceInfo> devices;
  if (!devicesFrom.empty()) {
    devices = devicesFromDump(target, devicesFrom);
  } else {
    JITOptions jit;
    jit.optLevel = cpuOptLevel;
    Result<rt::TargetRuntime> found =
        target == Target::LLVMX86
            ? rt::openRuntime(rt::createJITRuntime(jit))
            : rt::openTargetRuntime(targetName(target).str());
    if (!found)
      failRuntime(found.message());
    devices = std::move(found->devices);
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
