//===- RunCommand.cpp - tilec run FILE [--target=T] [--input ...] ---------===//
//
// Executes a program and reports its outputs: a one-line summary of each on
// stdout and, with --output-dir, NAME.npy files (and, from the interpreter,
// each float output's error bound as NAME.bound.npy, which
// `tilec-run --expect` compares with). The targets that execute
// are the reference interpreter and every backend of the registry, loaded on
// a device through its runtime (LoadedProgram.h) as `tilec bench` and
// `tilec autotune` load them (llvm-x86: the host, JIT-compiled); --check
// compares them with the interpreter on the same inputs.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "DriverError.h"
#include "Output.h"
#include "OutputCheck.h"
#include "Targets.h"

#include "tilec/Compiler/LoadedProgram.h"
#include "tilec/Compiler/ProgramInputs.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Compiler/ScheduleLoading.h"
#include "tilec/Interp/Interpreter.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

/// Compiles `program` for the device of `backend` that options.device names
/// (with options.schedule's entries for it) and runs it once on `inputs`.
static llvm::Expected<std::vector<Tensor>>
runOnBackend(const TargetBackend &backend, const RunOptions &options,
             ProgramLoader &loader, const typed::Program &program,
             const std::vector<Tensor> &inputs) {
  bool verbose = options.program.verbose;
  DeviceTarget device = orFail(openDeviceTarget(
      backend, options.device, "", static_cast<unsigned>(options.optLevel)));
  if (verbose && backend.kind() == BackendKind::GPU)
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
      orFail(compileAndLoad(device, loader, program, schedules, verbose));
  return loaded->run(inputs, nullptr);
}

/// Runs the interpreter; with `bounds`, also fills it with the outputs'
/// error bounds.
static llvm::Expected<std::vector<Tensor>>
runInterpreter(const typed::Program &program, std::vector<Tensor> inputs,
               std::vector<Tensor> *bounds, ReferenceRules rules) {
  if (!bounds)
    return interpret(program, std::move(inputs));
  llvm::Expected<ReferenceOutputs> reference =
      interpretWithBounds(program, std::move(inputs), rules);
  if (!reference)
    return reference.takeError();
  *bounds = std::move(reference->bounds);
  return std::move(reference->outputs);
}

void tilec::driver::runRunCommand(const RunOptions &options) {
  // Command-line problems first, before any file is read.
  TargetChoice target = parseTarget(options.target);
  requireRunTarget(target);
  bool onDevice = !target.isInterpreter() &&
                  target.getBackend().kind() == BackendKind::GPU;
  if (!options.device.empty() && !onDevice)
    failUsage(fmt::format("--device does not apply to target '{}', which "
                          "runs on the host",
                          target.name().str()));
  std::vector<InputFlag> inputFlags = parseInputFlags(options.inputs);
  warnIfOptLevelIgnored(options.optLevelGiven, options.optLevel, target,
                        std::nullopt);

  ProgramLoader loader(options.program, driverReporter());
  auto [program, inputs] =
      orFail(loadProgramWithInputs(loader, inputFlags, options.seed));

  // --check needs the inputs again for the interpreter.
  std::vector<Tensor> checkInputs;
  if (options.check && !target.isInterpreter())
    checkInputs = inputs;
  auto start = std::chrono::steady_clock::now();
  std::vector<Tensor> bounds;
  bool writeBounds = target.isInterpreter() && !options.outputDir.empty();
  llvm::Expected<std::vector<Tensor>> outputs =
      target.isInterpreter()
          ? runInterpreter(program, std::move(inputs),
                           writeBounds ? &bounds : nullptr,
                           referenceRulesOf(options.program))
          : runOnBackend(target.getBackend(), options, loader, program,
                         inputs);
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
                                target.isInterpreter() ? "interpreted"
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

  if (options.check && target.isInterpreter())
    llvm::outs() << "check: target 'interp' is the reference interpreter; "
                    "the outputs match it by definition\n";
  else if (options.check &&
           !checkAgainstInterpreter(program, std::move(checkInputs), *outputs,
                                    referenceRulesOf(options.program)))
    failInput("check: the outputs differ from the reference interpreter");
}
