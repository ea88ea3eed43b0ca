//===- BenchCommand.cpp - tilec bench FILE [--target=T] [--repeat=N] ------===//
//
// The plaidbench of tilec: compiles a program once for one device (through
// lib/Compiler's compileAndLoad, so the code timed is the code `tilec run`
// and `tilec autotune` run), runs it --warmup times untimed and --repeat times
// timed, and reports each kernel's times from the device's own counters (on
// llvm-x86, the host clock around each kernel nest), the rates (against
// the device's peaks when `tilec devices --probe` measured them), and
// whether the outputs match the interpreter.
//
//===----------------------------------------------------------------------===//

#include "BenchReport.h"
#include "Commands.h"
#include "DriverError.h"
#include "OutputCheck.h"
#include "Targets.h"

#include "tilec/Compiler/LoadedProgram.h"
#include "tilec/Compiler/ProgramInputs.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Compiler/ScheduleLoading.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

CLI::App *tilec::driver::addBenchCommand(CLI::App &app, BenchOptions &options) {
  CLI::App *bench = app.add_subcommand(
      "bench", "time each kernel on a device and compare with its peaks");
  addProgramOptions(*bench, options.program, /*fileRequired=*/true);
  bench
      ->add_option("--target", options.target,
                   deviceTargetHelp("where to time"))
      ->type_name("T")
      ->check(nonEmpty());
  bench
      ->add_option("--device", options.device,
                   "the device to time on, as 'tilec devices' lists it; "
                   "default the first GPU, else the first device")
      ->type_name("D")
      ->check(nonEmpty());
  bench
      ->add_option("--repeat", options.repeat,
                   "timed runs; times are their median, min and max "
                   "(default 20)")
      ->type_name("N")
      ->check(CLI::Range(1u, 1000000u));
  bench
      ->add_option("--warmup", options.warmup,
                   "untimed runs first (default 2)")
      ->type_name("N")
      ->check(CLI::Range(0u, 1000000u));
  bench->add_option("--seed", options.seed,
                    "seed of the generated inputs (default 0)")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber);
  bench
      ->add_option("--input", options.inputs,
                   "take parameter NAME from a .npy file (repeatable)")
      ->type_name("NAME=FILE.npy")
      ->allow_extra_args(false);
  bench
      ->add_option("--schedule", options.schedule,
                   "schedule file from 'tilec autotune': kernels with an "
                   "entry for the device use it, the others the cost model")
      ->type_name("S.json")
      ->check(nonEmpty());
  addOptLevelOption(*bench, options.optLevel, options.optLevelGiven,
                    "; llvm-x86 only (the JIT): a warning elsewhere");
  bench->add_flag("--json", options.json,
                  "print the report as JSON (docs/bench.md)");
  bench->footer(std::string("Examples:\n"
                            "  tilec bench model.tile --target=opencl "
                            "--repeat=50\n"
                            "  tilec bench model.tile --target=llvm-x86 "
                            "--json\n\n") +
                exitCodeHelp());
  return bench;
}

namespace {

using Clock = std::chrono::steady_clock;

/// The timed runs: per kernel its seconds in each run, and the kernel sum
/// and wall time of each run.
struct Measurements {
  std::vector<std::vector<double>> perKernel;
  std::vector<double> kernelSums, walls;
};

/// Runs `loaded` `repeat` times.
Measurements measure(LoadedProgram &loaded, unsigned repeat) {
  Measurements m;
  m.perKernel.resize(loaded.kernels().size());
  for (unsigned r = 0; r < repeat; ++r) {
    std::vector<double> seconds;
    Clock::time_point start = Clock::now();
    orFail(loaded.runBound(&seconds));
    m.walls.push_back(
        std::chrono::duration<double>(Clock::now() - start).count());
    if (seconds.size() != m.perKernel.size())
      failRuntime(fmt::format("internal error: {} kernel times for {} "
                              "kernels",
                              seconds.size(), m.perKernel.size()));
    double sum = 0;
    for (size_t k = 0; k < seconds.size(); ++k) {
      m.perKernel[k].push_back(seconds[k]);
      sum += seconds[k];
    }
    m.kernelSums.push_back(sum);
  }
  return m;
}

/// Fills the check fields of `report` from the interpreter's outputs.
void fillCheck(BenchReport &report, const typed::Program &program,
               std::vector<Tensor> inputs, const std::vector<Tensor> &outputs,
               ReferenceRules rules) {
  for (const OutputCheck &check :
       checkOutputs(program, std::move(inputs), outputs, rules)) {
    report.checkLines.push_back(check.line);
    report.checkOk = report.checkOk && check.comparison.match;
    report.maxAbsError =
        std::max(report.maxAbsError, check.comparison.maxAbsError);
    report.maxRelError =
        std::max(report.maxRelError, check.comparison.maxRelError);
  }
}

} // namespace

void tilec::driver::runBenchCommand(const BenchOptions &options) {
  // Command-line problems first, before any file is read.
  TargetChoice target = parseTarget(options.target);
  if (target.isInterpreter())
    failUsage("bench times compiled code; 'interp' is the reference "
              "interpreter, which bench already checks the outputs against; "
              "use --target=" + compileTargetNames());
  requireRunTarget(target);
  std::vector<InputFlag> inputFlags = parseInputFlags(options.inputs);
  warnIfOptLevelIgnored(options.optLevelGiven, options.optLevel, target,
                        std::nullopt);

  ProgramLoader loader(options.program, driverReporter());
  auto [program, inputs] =
      orFail(loadProgramWithInputs(loader, inputFlags, options.seed));

  bool verbose = options.program.verbose;
  DeviceTarget device = orFail(
      openDeviceTarget(target.getBackend(), options.device, "",
                       static_cast<unsigned>(options.optLevel)));
  std::optional<schedule::ScheduleFile> file;
  ScheduleChoice schedules;
  if (!options.schedule.empty() &&
      (file = loadScheduleFile(options.schedule, verbose, driverReporter())))
    schedules.file = &*file;
  std::unique_ptr<LoadedProgram> loaded =
      orFail(compileAndLoad(device, loader, program, schedules, verbose));

  // The outputs checked are those of the last run: the runs reuse their
  // buffers, as an inference loop does, and all but the first reuse what
  // the first derived from the inputs (the CPU's packed weights).
  loaded->bindInputs(inputs);
  for (unsigned w = 0; w < options.warmup; ++w)
    orFail(loaded->runBound(nullptr));
  Measurements m = measure(*loaded, options.repeat);
  std::vector<Tensor> outputs = orFail(loaded->boundOutputs());

  BenchReport report;
  report.program = options.program.inputPath;
  report.target = target.name().str();
  report.deviceId = device.device.id;
  report.deviceName = device.device.name;
  report.repeat = options.repeat;
  report.warmup = options.warmup;
  report.compileSeconds = loaded->compileSeconds();
  report.peakMeasured = device.profile.peakFlopsPerSecond > 0 &&
                        device.profile.peakBytesPerSecond > 0;
  // The probe's multiply-add chain measures what tilec's element-wise code
  // reaches, which on a CPU is well below what the matmul micro-kernel
  // reaches: the compute roof is the higher of it and the theoretical rate
  // from the device's properties, so that no kernel runs above its roof.
  schedule::DeviceProfile unprobed = device.profile;
  unprobed.peakFlopsPerSecond = unprobed.peakBytesPerSecond = 0;
  report.peakFlops = std::max(device.profile.peakFlopsPerSecond,
                              schedule::estimatedPeakFlops(unprobed));
  report.peakBytes = report.peakMeasured
                         ? device.profile.peakBytesPerSecond
                         : schedule::estimatedPeakBytes(unprobed);
  for (size_t k = 0; k < loaded->kernels().size(); ++k)
    report.kernels.push_back(
        {loaded->kernels()[k], TimeStats::of(m.perKernel[k])});
  report.kernelTotal = TimeStats::of(m.kernelSums);
  report.wall = TimeStats::of(m.walls);
  report.temporaries = loaded->temporaryMemory();
  fillCheck(report, program, std::move(inputs), outputs,
            referenceRulesOf(options.program));

  llvm::outs() << (options.json ? formatBenchJson(report)
                                : formatBenchText(report));
  if (!report.checkOk)
    failInput("check: the outputs differ from the reference interpreter");
}
