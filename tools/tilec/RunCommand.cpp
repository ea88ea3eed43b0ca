//===- RunCommand.cpp - tilec run FILE [--target=T] [--input ...] ---------===//
//
// Executes a program and reports its outputs: a one-line summary of each on
// stdout and, with --output-dir, NAME.npy files (and, from the interpreter,
// each float output's error bound as NAME.bound.npy, which
// `tilec-run --expect` compares with). The targets that execute
// are the reference interpreter, llvm-x86 (JIT-compiled for the host) and
// opencl and spirv on a device, the last three through the device session
// that `tilec bench` and `tilec autotune` use; --check compares them with
// the interpreter on the same inputs.
//
//===----------------------------------------------------------------------===//

#include "CPUBackend.h"
#include "Commands.h"
#include "DeviceSession.h"
#include "DriverError.h"
#include "Output.h"
#include "RunInputs.h"
#include "Targets.h"

#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Compiler/ScheduleLoading.h"
#include "tilec/Interp/Interpreter.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

/// Compiles `program` for the device of `target` that options.device names
/// (with options.schedule's entries for it) and runs it once on `inputs`.
static std::vector<Tensor> runOnTarget(Target target, const RunOptions &options,
                                       ProgramLoader &loader,
                                       const typed::Program &program,
                                       const std::vector<Tensor> &inputs) {
  bool verbose = options.program.verbose;
  DeviceTarget device = openDeviceTarget(
      target, options.device, "", static_cast<unsigned>(options.optLevel));
  if (verbose && target != Target::LLVMX86)
    llvm::errs() << fmt::format("tilec: running on {} ({})\n",
                                device.device.id, device.device.name);
  std::optional<schedule::ScheduleFile> file;
  ScheduleChoice schedules;
  if (!options.schedule.empty()) {
    file = loadScheduleFile(options.schedule, verbose, driverReporter());
    if (file)
      schedules.file = &*file;
  }
  std::unique_ptr<LoadedProgram> loaded =
      compileAndLoad(device, loader, program, schedules, verbose);
  return loaded->run(inputs, nullptr);
}

/// Runs the interpreter; with `bounds`, also fills it with the outputs'
/// error bounds.
static llvm::Expected<std::vector<Tensor>>
runInterpreter(const typed::Program &program, std::vector<Tensor> inputs,
               std::vector<Tensor> *bounds) {
  if (!bounds)
    return interpret(program, std::move(inputs));
  llvm::Expected<ReferenceOutputs> reference =
      interpretWithBounds(program, std::move(inputs));
  if (!reference)
    return reference.takeError();
  *bounds = std::move(reference->bounds);
  return std::move(reference->outputs);
}

void tilec::driver::runRunCommand(const RunOptions &options) {
  // Command-line problems first, before any file is read.
  Target target = parseTarget(options.target);
  requireRunTarget(target);
  bool onDevice = target == Target::OpenCL || target == Target::SPIRV;
  if (!options.device.empty() && !onDevice)
    failUsage(fmt::format("--device does not apply to target '{}', which "
                          "runs on the host",
                          targetName(target).str()));
  std::vector<InputFlag> inputFlags = parseInputFlags(options.inputs);
  warnIfOptLevelIgnored(options.optLevelGiven, options.optLevel, target,
                        std::nullopt);

  ProgramLoader loader(options.program, driverReporter());
  auto [program, inputs] =
      loadProgramWithInputs(loader, inputFlags, options.seed);

  // --check needs the inputs again for the interpreter.
  std::vector<Tensor> checkInputs;
  if (options.check && target != Target::Interp)
    checkInputs = inputs;
  auto start = std::chrono::steady_clock::now();
  std::vector<Tensor> bounds;
  bool writeBounds = target == Target::Interp && !options.outputDir.empty();
  llvm::Expected<std::vector<Tensor>> outputs =
      target == Target::Interp
          ? runInterpreter(program, std::move(inputs),
                           writeBounds ? &bounds : nullptr)
          : runOnTarget(target, options, loader, program, inputs);
  if (!outputs)
    failWith(ExitCode::RuntimeFailure, outputs.takeError());
  if (outputs->size() != program.outputs.size())
    failRuntime(fmt::format("internal error: the interpreter returned {} "
                            "output(s) for {}",
                            outputs->size(), program.outputs.size()));
  if (options.program.verbose) {
    std::chrono::duration<double> seconds =
        std::chrono::steady_clock::now() - start;
    llvm::errs() << fmt::format("tilec: {} in {:.3f} s\n",
                                target == Target::Interp ? "interpreted"
                                                         : "compiled and ran",
                                seconds.count());
  }

  if (!options.outputDir.empty())
    ensureDirectory(options.outputDir);
  for (size_t i = 0; i < program.outputs.size(); ++i) {
    const std::string &name = program.value(program.outputs[i]).name;
    const Tensor &tensor = (*outputs)[i];
    std::string summary = summarizeTensor(name, tensor);
    llvm::outs() << summary;
    if (summary.empty() || summary.back() != '\n')
      llvm::outs() << "\n";
    if (!options.outputDir.empty()) {
      std::string path = writeTensorFile(options.outputDir, name, tensor);
      if (options.program.verbose)
        llvm::errs() << "tilec: wrote " << path << "\n";
      if (i < bounds.size() && !bounds[i].data.empty())
        writeTensorFile(options.outputDir, name + ".bound", bounds[i]);
    }
  }

  if (options.check && target == Target::Interp)
    llvm::outs() << "check: target 'interp' is the reference interpreter; "
                    "the outputs match it by definition\n";
  else if (options.check &&
           !checkAgainstInterpreter(program, std::move(checkInputs), *outputs))
    failInput("check: the outputs differ from the reference interpreter");
}
