//===- AutotuneCommand.cpp - tilec autotune FILE --target=T -o S.json -----===//
//
// Measures the cost model's best candidate schedules of every kernel on a
// device and merges the winners into a schedule file (docs/autotune.md).
// Three ways in, one way out: local tuning measures here (LocalRunner),
// --export-candidates writes a folder for tilec-run --tune to measure
// elsewhere, and --import replays that folder's results; local tuning and
// import both go through the Tuner and writeWinners below.
//
// The schedule file is rewritten atomically after each kernel, so Ctrl-C or
// a crash loses only the kernel being measured, and a rerun skips the
// kernels the file already has for the device (unless --force).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "DriverError.h"
#include "Targets.h"
#include "TuneProgress.h"

#include "tilec/Autotune/LocalTuning.h"
#include "tilec/Autotune/TuneCandidates.h"
#include "tilec/Autotune/TuneExport.h"
#include "tilec/Autotune/Tuner.h"
#include "tilec/Compiler/ProgramInputs.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Compiler/ReferenceCheck.h"
#include "tilec/Interp/Interpreter.h"
#include "tilec/Schedule/ScheduleFile.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <filesystem>

using namespace tilec;
using namespace tilec::autotune;
using namespace tilec::driver;
using namespace tilec::compiler;

CLI::App *tilec::driver::addAutotuneCommand(CLI::App &app,
                                            AutotuneOptions &options) {
  CLI::App *command = app.add_subcommand(
      "autotune", "measure candidate schedules on a device, keep the fastest");
  addProgramOptions(*command, options.program, /*fileRequired=*/false);
  command
      ->add_option("--target", options.target,
                   deviceTargetHelp("where to measure"))
      ->type_name("T");
  command
      ->add_option("--device", options.device,
                   "the device, as for 'tilec run' (not for llvm-x86, which "
                   "measures the host CPU)")
      ->type_name("D");
  command
      ->add_option("-o,--output", options.output,
                   "the schedule file to merge the winners into (created if "
                   "missing; other entries are kept)")
      ->type_name("S.json");
  command
      ->add_option("--budget", options.budgetSeconds,
                   "stop starting new candidates after this many seconds")
      ->type_name("SECONDS")
      ->check(CLI::NonNegativeNumber);
  command
      ->add_option("--top", options.top,
                   "candidates measured per kernel, best estimates first "
                   "(default 8)")
      ->type_name("K")
      ->check(CLI::Range(1, 1000));
  command
      ->add_option("--repeat", options.repeat,
                   "timed runs per candidate after a warm-up; the median "
                   "counts (default 5)")
      ->type_name("N")
      ->check(CLI::Range(1, 100000));
  command
      ->add_option("--seed", options.seed,
                   "seed of the generated inputs (default 0)")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--force", options.force,
                    "retune kernels the file already has for the device");
  command
      ->add_option("--export-candidates", options.exportDir,
                   "write the candidates, inputs and reference outputs to DIR "
                   "for 'tilec-run --tune DIR' on another machine")
      ->type_name("DIR");
  command
      ->add_option("--devices-from", options.devicesFrom,
                   "with --export-candidates: take --device from this "
                   "'tilec devices --json' or 'tilec-run --devices --json' "
                   "dump instead of this machine")
      ->type_name("FILE");
  command
      ->add_option("--import", options.importDir,
                   "merge the best verified candidates that 'tilec-run "
                   "--tune DIR' measured into -o")
      ->type_name("DIR");
  // Hidden test flags (docs/autotune.md, "Testing"): an empty group hides
  // them from --help.
  command->add_flag("--fake-timer", options.fakeTimer)->group("");
  command->add_option("--stop-after", options.stopAfter)->group("");
  command->add_option("--wrong-candidate", options.wrongCandidate)->group("");
  command->footer(std::string("Examples:\n"
                              "  tilec autotune model.tile --target=opencl -o "
                              "schedules.json --budget=600\n"
                              "  tilec model.tile --schedule=schedules.json -o "
                              "model.cl\n\n") +
                  exitCodeHelp());
  return command;
}

namespace {

/// The schedule file to merge into: empty when it does not exist yet. A
/// file that exists but cannot be read is an error, never overwritten.
schedule::ScheduleFile readOrCreate(const std::string &path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error))
    return schedule::ScheduleFile();
  Result<schedule::ScheduleFile> file = schedule::readScheduleFile(path);
  if (!file)
    failInput(file.message() + "; fix or remove it: autotune does not "
                               "overwrite a file it cannot read");
  return std::move(*file);
}

/// Tunes `tasks` into the schedule file `to.path` (tuneIntoScheduleFile)
/// and says what went where.
void writeWinners(const std::vector<KernelTask> &tasks, CandidateRunner &runner,
                  Tuner &tuner, TuneProgress &progress,
                  schedule::ScheduleFile file, const Destination &to) {
  Result<TuningSummary> summary =
      tuneIntoScheduleFile(tasks, runner, tuner, progress, file, to);
  if (!summary)
    failRuntime(summary.message());
  progress.note(fmt::format("autotune: {} kernel(s) written to {} for {}{}",
                            summary->written, to.path, to.deviceId,
                            summary->skipped
                                ? fmt::format(", {} already there",
                                              summary->skipped)
                                : std::string()));
}

/// The names of the available GPU backends, joined by " and ".
std::string gpuTargetNames() {
  std::string names;
  for (const TargetBackend *backend : targetBackends())
    if (backend->kind() == BackendKind::GPU && backend->available())
      names += (names.empty() ? "" : " and ") + backend->name().str();
  return names;
}

/// The command line's own consistency, before anything is read.
const TargetBackend &checkOptions(const AutotuneOptions &options) {
  TargetChoice target = parseTarget(options.target);
  requireDeviceTarget(target, "autotune");
  const TargetBackend &backend = target.getBackend();
  bool onHost = backend.kind() == BackendKind::CPU;
  bool exporting = !options.exportDir.empty();
  bool importing = !options.importDir.empty();
  if (exporting && importing)
    failUsage("--export-candidates and --import are two steps: give one");
  if (!exporting && options.output.empty())
    failUsage("autotune needs -o SCHEDULES.json, the file to write");
  if (exporting && !options.output.empty())
    failUsage("--export-candidates writes a folder, not -o: merge its "
              "results later with --import DIR -o SCHEDULES.json");
  if (!importing && options.program.inputPath.empty())
    failUsage("autotune needs the program: tilec autotune FILE ...");
  if (exporting && onHost)
    failUsage(fmt::format("--export-candidates is for {}: tilec-run has no "
                          "host CPU code to run",
                          gpuTargetNames()));
  if (!options.devicesFrom.empty() && !exporting)
    failUsage("--devices-from applies to --export-candidates only: local "
              "tuning measures a device of this machine");
  if (!options.device.empty() && onHost)
    failUsage(fmt::format("--device does not apply to target '{}', which "
                          "runs on the host",
                          backend.name().str()));
  if (importing && !options.device.empty())
    failUsage("--import takes the device from the folder, not --device");
  return backend;
}

void runImport(const AutotuneOptions &options, const TargetBackend &backend,
               TuningClock &clock, TuneProgress &progress) {
  schedule::ScheduleFile file = readOrCreate(options.output);
  ImportedTuning imported = orFail(importTuning(options.importDir));
  if (imported.index.target != backend.name())
    failUsage(fmt::format("{} holds {} candidates, not {}: pass --target={}",
                          tune::indexPath(options.importDir),
                          imported.index.target, backend.name().str(),
                          imported.index.target));
  Tuner tuner(clock, progress, options.budgetSeconds);
  writeWinners(imported.tasks, *imported.runner, tuner, progress,
               std::move(file),
               {options.output, imported.index.device, imported.index.target,
                todayUTC(), options.force, options.stopAfter});
}

} // namespace

void tilec::driver::runAutotuneCommand(const AutotuneOptions &options) {
  const TargetBackend &backend = checkOptions(options);
  std::unique_ptr<TuningClock> clock =
      options.fakeTimer ? makeFakeClock() : makeSteadyClock();
  TuneProgress progress(llvm::outs(), llvm::outs().is_displayed());
  if (!options.importDir.empty())
    return runImport(options, backend, *clock, progress);

  // A file that cannot be merged into is found before any measuring.
  schedule::ScheduleFile file;
  if (options.exportDir.empty())
    file = readOrCreate(options.output);
  ProgramLoader loader(options.program, driverReporter());
  std::string entry = orFail(loader.parse()).name;
  typed::Program program = orFail(loader.bind());
  DeviceTarget device = orFail(
      openDeviceTarget(backend, options.device, options.devicesFrom));
  std::vector<Tensor> inputs =
      orFail(assembleInputs(program, {}, options.seed));
  llvm::Expected<ReferenceOutputs> reference =
      interpretWithBounds(program, inputs, referenceRulesOf(options.program));
  if (!reference)
    failWith(ExitCode::RuntimeFailure, reference.takeError());
  std::vector<KernelTask> tasks =
      orFail(planTuning(loader, program, device, options.top));

  if (!options.exportDir.empty()) {
    ExportRequest request{options.exportDir, entry,
                          std::move(inputs), std::move(reference->outputs),
                          std::move(reference->bounds),
                          options.repeat,    options.program.verbose};
    orFail(exportCandidates(request, device, loader, program, tasks,
                            progress));
    return;
  }
  LocalRunner runner(device, loader, program, std::move(inputs),
                     std::move(reference->outputs),
                     std::move(reference->bounds), options.repeat,
                     options.program.verbose, options.wrongCandidate);
  Tuner tuner(*clock, progress, options.budgetSeconds);
  writeWinners(tasks, runner, tuner, progress, std::move(file),
               {options.output, device.device.id, backend.name().str(),
                todayUTC(), options.force, options.stopAfter});
}
