//===- LoadedProgram.cpp - A program compiled and loaded on a device ------===//
//
// Part of lib/Compiler; see LoadedProgram.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/LoadedProgram.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/StageTiming.h"

#include <fmt/format.h>

#include <chrono>
#include <map>

using namespace tilec;
using namespace tilec::compiler;

LoadedProgram::LoadedProgram(std::unique_ptr<rt::Program> loaded,
                             std::vector<std::string> inputNames,
                             std::vector<std::string> outputNames,
                             std::vector<KernelReport> kernels,
                             double compileSeconds, TemporaryMemory memory)
    : loaded(std::move(loaded)), inputNames(std::move(inputNames)),
      outputNames(std::move(outputNames)), kernelReports(std::move(kernels)),
      compileTime(compileSeconds), temporaries(memory) {}

/// `named`'s tensors in the order of `names`.
static llvm::Expected<std::vector<Tensor>>
inOrder(const std::vector<std::string> &names,
        std::map<std::string, Tensor> named) {
  std::vector<Tensor> ordered;
  for (const std::string &name : names) {
    auto found = named.find(name);
    if (found == named.end())
      return runtimeError(
          fmt::format("internal error: the device returned no '{}'", name));
    ordered.push_back(std::move(found->second));
  }
  return ordered;
}

/// Runs `loaded` and fills `kernelSeconds` (if given) from its timings.
static llvm::Error runNamed(rt::Program &loaded,
                            const std::map<std::string, Tensor> &inputs,
                            std::map<std::string, Tensor> &outputs,
                            std::vector<double> *kernelSeconds) {
  std::vector<rt::KernelTiming> timings;
  if (Status ran =
          loaded.run(inputs, outputs, kernelSeconds ? &timings : nullptr);
      !ran)
    return runtimeError(ran.message());
  if (kernelSeconds) {
    kernelSeconds->clear();
    for (const rt::KernelTiming &timing : timings)
      kernelSeconds->push_back(timing.seconds);
  }
  return llvm::Error::success();
}

static std::map<std::string, Tensor>
named(const std::vector<std::string> &names,
      const std::vector<Tensor> &tensors) {
  std::map<std::string, Tensor> byName;
  for (size_t i = 0; i < names.size() && i < tensors.size(); ++i)
    byName[names[i]] = tensors[i];
  return byName;
}

llvm::Expected<std::vector<Tensor>>
LoadedProgram::run(const std::vector<Tensor> &inputs,
                   std::vector<double> *kernelSeconds) {
  std::map<std::string, Tensor> namedOutputs;
  lastRunBound = false;
  if (llvm::Error error = runNamed(*loaded, named(inputNames, inputs),
                                   namedOutputs, kernelSeconds))
    return std::move(error);
  return inOrder(outputNames, std::move(namedOutputs));
}

void LoadedProgram::bindInputs(const std::vector<Tensor> &inputs) {
  boundInputs = named(inputNames, inputs);
  boundOutputsByName.clear();
  lastRunBound = false;
}

llvm::Error LoadedProgram::runBound(std::vector<double> *kernelSeconds) {
  if (lastRunBound)
    loaded->reuseInputs();
  lastRunBound = false;
  if (llvm::Error error =
          runNamed(*loaded, boundInputs, boundOutputsByName, kernelSeconds))
    return error;
  lastRunBound = true;
  return llvm::Error::success();
}

llvm::Expected<std::vector<Tensor>> LoadedProgram::boundOutputs() const {
  return inOrder(outputNames, boundOutputsByName);
}

/// The names the program's inputs or outputs have on a device.
static std::vector<std::string>
valueNames(const typed::Program &program,
           const std::vector<typed::ValueId> &ids) {
  std::vector<std::string> names;
  for (typed::ValueId id : ids)
    names.push_back(program.value(id).name);
  return names;
}

llvm::Expected<std::unique_ptr<LoadedProgram>>
tilec::compiler::compileAndLoad(DeviceTarget &device, ProgramLoader &loader,
                                const typed::Program &program,
                                const ScheduleChoice &schedules,
                                bool verbose) {
  if (!device.runtime)
    return usageError(fmt::format("device {} was read from a device list and "
                                  "cannot run anything here",
                                  device.device.id));
  auto start = std::chrono::steady_clock::now();
  CompileRequest request;
  request.backend = device.backend;
  request.device = &device;
  request.schedules = schedules;
  request.verbose = verbose;
  request.artefact.context = manifestContextFor(
      *device.backend, loader.programOptions().inputPath, program);
  request.artefact.context.artefact = "<memory>";
  request.artefact.forRuntime = true;
  llvm::Expected<CompiledProgram> compiled =
      compileProgram(loader, program, request);
  if (!compiled)
    return compiled.takeError();
  Result<std::unique_ptr<rt::Program>> loaded = [&] {
    TimedStage stage("JIT compile");
    return device.runtime->load(device.device.id, *compiled->artefact.manifest,
                                compiled->artefact.bytes);
  }();
  if (!loaded)
    return runtimeError(loaded.message());
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  return std::make_unique<LoadedProgram>(
      std::move(*loaded), valueNames(program, program.inputs),
      valueNames(program, program.outputs), std::move(compiled->kernels),
      seconds, compiled->temporaries);
}
