//===- RunCommand.cpp - tilec run FILE [--target=T] [--input ...] ---------===//
//
// Executes a program and reports its outputs: a one-line summary of each on
// stdout and, with --output-dir, NAME.npy files. The targets that execute
// are the reference interpreter and llvm-x86 (JIT-compiled for the host);
// --check compares llvm-x86 with the interpreter on the same inputs.
//
//===----------------------------------------------------------------------===//

#include "CPUBackend.h"
#include "Commands.h"
#include "DriverError.h"
#include "GPUBackend.h"
#include "Output.h"
#include "ProgramLoader.h"
#include "RunInputs.h"
#include "Targets.h"

#include "tilec/Interp/Interpreter.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>

using namespace tilec;
using namespace tilec::driver;

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

  ProgramLoader loader(options.program);
  const ast::Function &entry = loader.parse();
  loader.setInputFiles(
      readInputFiles(inputFlags, entry, loader.entryDisplayName()));
  typed::Program program = loader.bind();
  std::vector<Tensor> inputs =
      assembleInputs(program, loader.takeInputFiles(), options.seed);

  // --check needs the inputs again for the interpreter.
  std::vector<Tensor> checkInputs;
  if (options.check && target != Target::Interp)
    checkInputs = inputs;
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<std::vector<Tensor>> outputs =
      onDevice ? runOnDevice(target, options.device, loader, program, inputs,
                             options.program.verbose)
      : target == Target::LLVMX86
          ? runOnCPU(loader, program, inputs, options.optLevel)
          : interpret(program, std::move(inputs));
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
    }
  }

  if (options.check && target == Target::Interp)
    llvm::outs() << "check: target 'interp' is the reference interpreter; "
                    "the outputs match it by definition\n";
  else if (options.check &&
           !checkAgainstInterpreter(program, std::move(checkInputs), *outputs))
    failInput("check: the outputs differ from the reference interpreter");
}
