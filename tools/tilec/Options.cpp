//===- Options.cpp - The flags of tilec's commands ------------------------===//
//
// Part of the tilec driver; see Options.h. Declarations of flags live
// here, and the splitting of --input: checking what the values mean (a
// target name, a -D value, an input's name) is the commands' business, so
// that every such error has the same form and exit code.
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "DriverError.h"
#include "Targets.h"

#include "llvm/ADT/StringRef.h"

#include <fmt/format.h>

#include <set>

using namespace tilec;
using namespace tilec::driver;

tilec::compiler::CacheSettings
tilec::driver::cacheSettingsOf(const CompileOptions &options) {
  return {options.cacheDir, options.noCache, options.program.verbose};
}

std::vector<compiler::InputFlag>
tilec::driver::parseInputFlags(const std::vector<std::string> &flags) {
  std::vector<compiler::InputFlag> parsed;
  std::set<std::string> seen;
  for (const std::string &flag : flags) {
    auto [name, path] = llvm::StringRef(flag).split('=');
    if (name.empty() || path.empty())
      failUsage(
          fmt::format("--input '{}' is not of the form NAME=FILE.npy", flag));
    if (!seen.insert(name.str()).second)
      failUsage(fmt::format("--input gives '{}' twice", name.str()));
    parsed.push_back({name.str(), path.str()});
  }
  return parsed;
}


CLI::Validator tilec::driver::nonEmpty() {
  return CLI::Validator(
      [](std::string &value) {
        return value.empty() ? std::string("the value must not be empty")
                             : std::string();
      },
      "", "NONEMPTY");
}

void tilec::driver::addOptLevelOption(CLI::App &app, int &optLevel,
                                      bool &given, const std::string &note) {
  app.add_option("-O", optLevel,
                 "optimisation level of code generation, 0 to 3 (default 2)" +
                     note)
      ->type_name("LEVEL")
      ->check(CLI::Range(0, 3))
      ->each([&given](const std::string &) { given = true; });
}

const char *tilec::driver::exitCodeHelp() {
  return "Exit codes: 0 success; 1 the program or an input file is wrong "
         "(diagnostics on stderr); 2 the command line is wrong; 3 a runtime, "
         "resource or I/O failure.";
}

void tilec::driver::addProgramOptions(CLI::App &app, ProgramOptions &options,
                                      bool fileRequired) {
  CLI::Option *file =
      app.add_option("FILE", options.inputPath,
                     "the .tile program; '-' reads it from stdin")
          ->type_name("");
  if (fileRequired)
    file->required();
  app.add_option("-D,--define", options.defines,
                 "bind a size, a constant parameter, or a bare parameter's "
                 "type and shape: -D N=64, -D Alpha=0.2, -D 'X=f16[2,3]'")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  app.add_option("--entry", options.entry,
                 "the entry function (default: main, else the last function)")
      ->type_name("NAME")
      ->check(nonEmpty());
  app.add_flag("-v,--verbose", options.verbose, "report each phase on stderr");
  app.add_option("--default-type", options.defaultType,
                 "element type of the entry's tensor inputs that declare "
                 "none and that no file or -D types: f16, bf16, f32 (the "
                 "default) or f64; e.g. a zoo model in bf16")
      ->type_name("T");
  app.add_flag("--allow-tf32", options.allowTF32,
               "ptx on compute capability 9.0: let sums of products of two "
               "f32 tensors run on tensor cores in TF32 (operands rounded to "
               "10 mantissa bits, products off by up to 2^-9 of themselves; "
               "the checks against the interpreter allow that); off by "
               "default");
  app.add_flag("--time-passes", options.timePasses,
               "when the command ends, print on stderr the wall time of each "
               "compile stage, with the MLIR passes nested under theirs");
}

void tilec::driver::addCompileOptions(CLI::App &app, CompileOptions &options) {
  addProgramOptions(app, options.program, /*fileRequired=*/false);
  app.add_option("-o,--output", options.output,
                 "where the result goes ('-' for stdout); --emit prints to "
                 "stdout by default")
      ->type_name("OUT")
      ->check(nonEmpty());
  app.add_option("--target", options.target, compileTargetHelp())
      ->type_name("T")
      ->check(nonEmpty());
  app.add_option("--emit", options.emit, emitKindHelp())
      ->type_name("K")
      ->check(nonEmpty());
  app.add_option("--schedule", options.schedule,
                 "schedule file from 'tilec autotune': kernels with an entry "
                 "for the device use it, the others the cost model (-v says "
                 "which); a file that cannot be used is a warning")
      ->type_name("S.json")
      ->check(nonEmpty());
  app.add_option("--device-id", options.deviceId,
                 "with --schedule: the device whose entries to use, as "
                 "'tilec devices' lists it (default: llvm-x86 the host CPU; "
                 "GPU targets (opencl, spirv, ptx, glsl) the file's only device for the target)")
      ->type_name("ID")
      ->check(nonEmpty());
  app.add_option("--device", options.device,
                 "GPU targets: specialise the kernels on this device, as "
                 "'tilec devices' lists it: its limits, its cost-model "
                 "profile and its --schedule entries (default: limits every "
                 "device meets)")
      ->type_name("D")
      ->check(nonEmpty());
  app.add_option("--devices-from", options.devicesFrom,
                 "GPU targets: take --device from this 'tilec devices "
                 "--json' or 'tilec-run --devices --json' dump, to compile "
                 "for a device on another machine")
      ->type_name("FILE")
      ->check(nonEmpty());
  addOptLevelOption(app, options.optLevel, options.optLevelGiven,
                    "; llvm-x86 code only (--emit=llvm|asm or the object "
                    "file): a warning elsewhere");
  app.add_option("--cpu", options.cpu,
                 "llvm-x86: the x86 CPU to generate code for, as LLVM names "
                 "it (e.g. skylake-avx512); default native, the host's CPU "
                 "and features")
      ->type_name("NAME")
      ->check(nonEmpty());
  app.add_flag("--mlir-print-debuginfo", options.printDebugInfo,
               "with an MLIR --emit kind (tile, loops, gpu): print each op's "
               "source location, file:line:col of the .tile file");
  app.add_option("--cache-dir", options.cacheDir,
                 "the compile cache's folder (default $TILEC_CACHE_DIR, else "
                 "$XDG_CACHE_HOME/tilec, else ~/.cache/tilec): a compile "
                 "without --emit (or llvm-x86 --emit=llvm|asm) that was done "
                 "before writes the stored outputs instead (docs/cache.md)")
      ->type_name("DIR")
      ->check(nonEmpty());
  app.add_flag("--no-cache", options.noCache,
               "neither read nor write the compile cache");
}

CLI::App *tilec::driver::addRunCommand(CLI::App &app, RunOptions &options) {
  CLI::App *run = app.add_subcommand(
      "run", "execute a program: inputs from .npy files or generated from "
             "--seed; prints a summary of each output");
  addProgramOptions(*run, options.program, /*fileRequired=*/true);
  run->add_option("--target", options.target, runTargetHelp())
      ->type_name("T")
      ->check(nonEmpty());
  run->add_option("--device", options.device,
                  "the device to run on, as 'tilec devices' "
                  "lists it (an id, a unique part of an id or name, or an "
                  "index); default the first GPU, else the first device")
      ->type_name("D")
      ->check(nonEmpty());
  run->add_option("--seed", options.seed,
                  "seed of the generated inputs (default 0)")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--input", options.inputs,
                  "take parameter NAME from a .npy file (repeatable)")
      ->type_name("NAME=FILE.npy")
      ->allow_extra_args(false);
  run->add_option("--output-dir", options.outputDir,
                  "write each output as NAME.npy into DIR (created if "
                  "missing); without it no files are written")
      ->type_name("DIR")
      ->check(nonEmpty());
  addOptLevelOption(*run, options.optLevel, options.optLevelGiven,
                    "; llvm-x86 only (the JIT): a warning elsewhere");
  run->add_option("--schedule", options.schedule,
                  "schedule file from 'tilec autotune': kernels with an entry "
                  "for the device run on use it, the others the cost model")
      ->type_name("S.json")
      ->check(nonEmpty());
  run->add_flag("--check", options.check,
                "compare the outputs with the reference interpreter and fail "
                "on a mismatch (with --target=interp they are the reference)");
  run->footer(std::string("Examples:\n"
                          "  tilec run model.tile --target=interp -D N=64 "
                          "--input A=a.npy --output-dir out\n"
                          "  tilec run model.tile --target=opencl "
                          "--device=0 --check\n\n") +
              exitCodeHelp());
  return run;
}

