//===- TrainCommand.cpp - tilec train FILE --data ... ---------------------===//
//
// Compiles a training step function once (docs/training.md) with the batch
// size bound from --batch through the data's shapes, loads it on the
// device, and hands it to lib/Training's Trainer, which runs the epochs
// with the carried tensors (outputs X' of inputs X) kept on the device.
// Compile time is reported apart from the epochs.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "DriverError.h"

#include "tilec/Compiler/LoadedProgram.h"
#include "tilec/Compiler/ProgramInputs.h"
#include "tilec/Training/TrainProgress.h"
#include "tilec/Training/Trainer.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <set>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

CLI::App *tilec::driver::addTrainCommand(CLI::App &app, TrainOptions &options) {
  CLI::App *command = app.add_subcommand(
      "train", "train: run a step function (forward, grad, update) over data "
               "for some epochs; carried tensors X' -> X stay on the device");
  addProgramOptions(*command, options.program, /*fileRequired=*/true);
  command
      ->add_option("--data", options.data,
                   "a data array for input NAME, sliced along axis 0 into "
                   "batches (repeatable; every array has the same rows)")
      ->type_name("NAME=FILE.npy")
      ->allow_extra_args(false)
      ->required();
  command
      ->add_option("--init", options.init,
                   "the initial value of input NAME (repeatable); a carried "
                   "input without one starts at zeros")
      ->type_name("NAME=FILE.npy")
      ->allow_extra_args(false);
  command->add_option("--batch", options.batch, "rows per step (required)")
      ->type_name("B")
      ->check(CLI::Range(int64_t(1), int64_t(1) << 40))
      ->required();
  command->add_option("--epochs", options.epochs, "passes over the data (default 1)")
      ->type_name("E")
      ->check(CLI::Range(1u, 1000000u));
  command->add_flag("--shuffle", options.shuffle,
                    "a new batch order each epoch (deterministic from --seed)");
  command->add_option("--seed", options.seed, "seed of the shuffle (default 0)")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber);
  command
      ->add_option("--save-dir", options.saveDir,
                   "write every carried tensor as DIR/NAME.npy at the end of "
                   "each epoch (atomically: an interrupted run keeps the last "
                   "epoch's)")
      ->type_name("DIR")
      ->check(nonEmpty());
  command
      ->add_option("--target", options.target,
                   deviceTargetHelp("where to train"))
      ->type_name("T")
      ->check(nonEmpty());
  command
      ->add_option("--device", options.device,
                   "the device, as 'tilec devices' lists it (an id, a unique part of "
                   "an id or name, or an index); default the first GPU, else "
                   "the first device")
      ->type_name("D")
      ->check(nonEmpty());
  command->add_flag("--json", options.json, "print each epoch as a JSON line");
  addOptLevelOption(*command, options.optLevel, options.optLevelGiven,
                    "; llvm-x86 only (the JIT)");
  command->footer(std::string("Example:\n"
                              "  tilec train examples/train/mlp_sgd.tile "
                              "--data X=x.npy --data Lab=y.npy --batch 32 "
                              "--epochs 5 --init W1=w1.npy --save-dir out\n\n") +
                  exitCodeHelp());
  return command;
}

namespace {

std::vector<train::NamedTensor> takeFiles(const std::vector<InputFlag> &flags,
                                          std::map<std::string, InputFile> &files) {
  std::vector<train::NamedTensor> result;
  for (const InputFlag &flag : flags) {
    InputFile &file = files.at(flag.name);
    result.push_back({flag.name, flag.path, std::move(file.tensor)});
  }
  return result;
}

} // namespace

void tilec::driver::runTrainCommand(const TrainOptions &options) {
  TargetChoice target = parseTarget(options.target);
  requireDeviceTarget(target, "train");
  bool onDevice = target.getBackend().kind() == BackendKind::GPU;
  if (!options.device.empty() && !onDevice)
    failUsage(fmt::format("--device does not apply to target '{}', which "
                          "runs on the host",
                          target.name().str()));
  std::vector<InputFlag> dataFlags = parseInputFlags(options.data);
  std::vector<InputFlag> initFlags = parseInputFlags(options.init);
  std::set<std::string> named;
  for (const auto *flags : {&dataFlags, &initFlags})
    for (const InputFlag &flag : *flags)
      if (!named.insert(flag.name).second)
        failUsage(fmt::format("'{}' is given twice (--data and --init name "
                              "each input at most once)",
                              flag.name));

  ProgramLoader loader(options.program, driverReporter());
  const ast::Function &entry = orFail(loader.parse());
  std::vector<InputFlag> all = dataFlags;
  all.insert(all.end(), initFlags.begin(), initFlags.end());
  std::map<std::string, InputFile> files = orFail(
      readInputFiles(all, entry, loader.entryDisplayName()));
  std::vector<train::NamedTensor> data = takeFiles(dataFlags, files);
  std::vector<train::NamedTensor> init = takeFiles(initFlags, files);

  // Bind with one batch of each data array, so that its first size is B.
  std::map<std::string, InputFile> binding;
  for (const train::NamedTensor &d : data) {
    TensorType batch = d.tensor.type;
    if (batch.shape.empty())
      failInput(fmt::format("--data '{}': a data array needs rows (rank 1 or "
                            "more), the file holds a scalar",
                            d.path));
    batch.shape[0] = options.batch;
    binding[d.name] = InputFile{d.path, Tensor(batch)};
  }
  for (const train::NamedTensor &i : init)
    binding[i.name] = InputFile{i.path, i.tensor};
  loader.setInputFiles(std::move(binding));
  typed::Program program = orFail(loader.bind());

  DeviceTarget device = orFail(openDeviceTarget(
      target.getBackend(), options.device, "",
      static_cast<unsigned>(options.optLevel)));
  std::unique_ptr<LoadedProgram> loaded = orFail(compileAndLoad(
      device, loader, program, ScheduleChoice(), options.program.verbose));
  llvm::errs() << fmt::format("tilec: compiled for {} in {:.2f} s (not counted "
                              "in the epochs)\n",
                              device.device.id, loaded->compileSeconds());

  train::Signature sig;
  for (typed::ValueId id : program.inputs)
    sig.inputs.push_back({program.value(id).name, program.value(id).type});
  for (typed::ValueId id : program.outputs)
    sig.outputs.push_back({program.value(id).name, program.value(id).type});
  train::TrainOptions trainOptions;
  trainOptions.batch = options.batch;
  trainOptions.epochs = options.epochs;
  trainOptions.shuffle = options.shuffle;
  trainOptions.seed = options.seed;
  trainOptions.saveDir = options.saveDir;
  train::Trainer trainer(loaded->runtimeProgram(), sig, trainOptions);
  Status prepared =
      trainer.prepare(std::move(data), std::move(init), [](const std::string &n) {
        llvm::errs() << "tilec: note: " << n << "\n";
      });
  if (!prepared)
    failInput(prepared.message());

  Status trained = train::runWithProgress(trainer, options.epochs, options.json);
  if (!trained)
    failRuntime(trained.message());
}
