//===- CompileCommand.cpp - tilec FILE [-o OUT] [--emit=K] ----------------===//
//
// The default command. Command-line choices are checked before the file is
// read, so a wrong flag is reported as such (exit code 2) however broken the
// program is. `--emit=ast` prints the bound program of phase 2
// (docs/language.md 1.3), `--emit=plaidml` the same in PlaidML's Tile,
// `--emit=tile` its tile dialect IR and `--emit=loops` the loop level that
// every back end starts from; the other forms and the artefact are the
// backend's, made by lib/Compiler's compileProgram. MLIR input is for
// tilec-opt (passes) and tilec-translate (emitters), not for tilec.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "DriverError.h"
#include "Output.h"
#include "Targets.h"

#include "tilec/Compiler/Compile.h"
#include "tilec/Compiler/CompileCache.h"
#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Compiler/ScheduleLoading.h"
#include "tilec/Frontend/PlaidMLPrinter.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

namespace {

/// Where the artefact of a compile without --emit goes: -o, else the
/// input's stem (`model` for stdin) with the backend's extension; "-" is
/// stdout.
std::string artefactPath(const TargetBackend &backend,
                         const CompileOptions &options) {
  if (!options.output.empty())
    return options.output;
  llvm::StringRef input = options.program.inputPath;
  return (input == "-" ? std::string("model")
                       : llvm::sys::path::stem(input).str()) +
         backend.artefactExtension().str();
}

/// The command line's own consistency, before anything is read.
void checkOptions(const CompileOptions &options, TargetChoice target,
                  const std::optional<std::string> &emit) {
  if (!options.deviceId.empty() && options.schedule.empty())
    failUsage("--device-id chooses the entries of a schedule file; it needs "
              "--schedule");
  if (emit)
    checkEmitKind(*emit, target);
  else
    requireCompileTarget(target);
  bool forDevice = !options.device.empty() || !options.devicesFrom.empty();
  if (!forDevice)
    return;
  bool gpu = !target.isInterpreter() &&
             target.getBackend().kind() == BackendKind::GPU;
  if (!gpu || (emit && !isBackendEmitKind(*emit))) {
    std::vector<std::string> targets, forms = {"gpu"};
    for (const TargetBackend *backend : targetBackends()) {
      if (backend->kind() != BackendKind::GPU || !backend->available())
        continue;
      targets.push_back(backend->name().str());
      for (const EmitStage &stage : backend->emitStages())
        forms.push_back(stage.name.str());
    }
    failUsage(fmt::format("--device and --devices-from specialise GPU "
                          "kernels: they need --target={} and no --emit, or "
                          "--emit={}",
                          fmt::join(targets, " or "), fmt::join(forms, "|")));
  }
  if (!options.deviceId.empty())
    failUsage("--device-id names a device for a compile without one; with "
              "--device, the schedule file's entries for that device apply");
}

/// --emit=tile and --emit=loops: the levels before any backend.
std::string printCommonLevel(const CompileOptions &options,
                             TargetChoice target, llvm::StringRef emit,
                             ProgramLoader &loader,
                             const typed::Program &program) {
  mlir::MLIRContext context;
  std::string text;
  llvm::raw_string_ostream os(text);
  auto flags = mlir::OpPrintingFlags().enableDebugInfo(options.printDebugInfo,
                                                       /*prettyForm=*/false);
  if (emit == "tile") {
    orFail(buildTileModule(context, loader, program))->print(os, flags);
    return text;
  }
  mlir::OwningOpRef<mlir::ModuleOp> module =
      orFail(buildLoopLevelModule(context, loader, program));
  bool keyedByHost = !target.isInterpreter() &&
                     target.getBackend().kind() == BackendKind::CPU;
  orFail(applyScheduleFileForCompile({target.name(), keyedByHost},
                                     options.schedule, options.deviceId,
                                     options.program.verbose, *module,
                                     driverReporter()));
  module->print(os, flags);
  return text;
}

/// The artefact of `program` for the backend, or its --emit form.
void compileForBackend(const CompileOptions &options,
                       const TargetBackend &backend,
                       const std::optional<std::string> &emit,
                       ProgramLoader &loader, const typed::Program &program) {
  CompileRequest request;
  request.backend = &backend;
  request.verbose = options.program.verbose;
  request.printDebugInfo = options.printDebugInfo;
  request.emit = emit.value_or("");
  std::optional<DeviceTarget> device;
  std::optional<schedule::ScheduleFile> file;
  if (!options.device.empty() || !options.devicesFrom.empty()) {
    // A device here or in a device list from another machine: its limits,
    // its cost-model profile and its schedule-file entries, as `tilec run`
    // and `tilec autotune` compile for it.
    device = orFail(
        openDeviceTarget(backend, options.device, options.devicesFrom));
    request.device = &*device;
    if (!options.schedule.empty() &&
        (file = loadScheduleFile(options.schedule, request.verbose,
                                 driverReporter())))
      request.schedules.file = &*file;
  } else {
    request.scheduleFile = options.schedule;
    request.scheduleDeviceId = options.deviceId;
  }
  std::string path = emit ? "" : artefactPath(backend, options);
  request.artefact.context =
      manifestContextFor(backend, options.program.inputPath, program);
  request.artefact.context.artefact =
      path == "-" ? "-" : llvm::sys::path::filename(path).str();
  request.artefact.outputPath = path;
  request.artefact.cpu = options.cpu;
  request.artefact.optLevel = static_cast<unsigned>(options.optLevel);

  CompileCache cache(cacheSettingsOf(options), driverReporter());
  CompiledProgram compiled =
      orFail(compileProgram(loader, program, request, &cache));
  if (emit)
    writeOutputFile(options.output.empty() ? "-" : options.output,
                    compiled.emitted);
  else
    writeArtefact(path, compiled.artefact);
}

} // namespace

void tilec::driver::runCompileCommand(const CompileOptions &options) {
  if (options.program.inputPath.empty())
    failUsage("no input file; usage: tilec FILE.tile [options], or "
              "'tilec --help'");
  if (llvm::sys::path::extension(options.program.inputPath) == ".mlir")
    failUsage(fmt::format(
        "'{}' is MLIR; tilec compiles .tile programs. Run passes on MLIR "
        "with tilec-opt and emitters with tilec-translate",
        options.program.inputPath));

  // The target is checked even when --emit makes it irrelevant, so that a
  // misspelt name never passes silently.
  TargetChoice target = parseTarget(options.target);
  std::optional<std::string> emit;
  if (!options.emit.empty())
    emit = options.emit;
  checkOptions(options, target, emit);
  warnIfOptLevelIgnored(options.optLevelGiven, options.optLevel, target, emit);

  ProgramLoader loader(options.program, driverReporter());
  orFail(loader.parse());
  typed::Program program = orFail(loader.bind());
  if (!emit || isBackendEmitKind(*emit)) {
    compileForBackend(options, target.getBackend(), emit, loader, program);
    return;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (*emit == "plaidml")
    typed::printPlaidML(program, os);
  else if (*emit == "ast")
    typed::printProgram(program, os);
  else
    text = printCommonLevel(options, target, *emit, loader, program);
  writeOutputFile(options.output.empty() ? "-" : options.output, text);
}
