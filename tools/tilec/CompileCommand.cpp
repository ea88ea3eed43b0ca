//===- CompileCommand.cpp - tilec FILE [-o OUT] [--emit=K] ----------------===//
//
// The default command. Command-line choices are checked before the file is
// read, so a wrong flag is reported as such (exit code 2) however broken the
// program is. `--emit=ast` prints the bound program of phase 2
// (docs/language.md 1.3), `--emit=plaidml` the same in PlaidML's Tile,
// `--emit=tile` its tile dialect IR and
// `--emit=loops` the loop level that every back end starts from. MLIR input
// is for tilec-opt (passes) and tilec-translate (emitters), not for tilec.
//
//===----------------------------------------------------------------------===//

#include "CPUBackend.h"
#include "Commands.h"
#include "DriverError.h"
#include "GPUBackend.h"
#include "Output.h"
#include "Targets.h"

#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Compiler/ScheduleLoading.h"
#include "tilec/Frontend/PlaidMLPrinter.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <optional>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

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
  Target target = parseTarget(options.target);
  std::optional<EmitKind> emit;
  if (!options.emit.empty())
    emit = parseEmitKind(options.emit);
  if (!options.deviceId.empty() && options.schedule.empty())
    failUsage("--device-id chooses the entries of a schedule file; it needs "
              "--schedule");
  if (!emit)
    requireCompileTarget(target);
  bool machineCode = emit == EmitKind::LLVM || emit == EmitKind::Asm;
  if (machineCode && target != Target::LLVMX86)
    failUsage(fmt::format("--emit={} needs --target=llvm-x86",
                          emitKindName(*emit).str()));
  bool gpuTarget = target == Target::OpenCL || target == Target::SPIRV;
  if (emit == EmitKind::GPU && !gpuTarget)
    failUsage("--emit=gpu needs --target=opencl or --target=spirv");
  if (emit == EmitKind::CL && target != Target::OpenCL)
    failUsage("--emit=cl needs --target=opencl");
  if (emit == EmitKind::SPIRVAsm && target != Target::SPIRV)
    failUsage("--emit=spirv-asm needs --target=spirv");
  bool gpuForm = emit == EmitKind::GPU || emit == EmitKind::CL ||
                 emit == EmitKind::SPIRVAsm;
  bool forDevice = !options.device.empty() || !options.devicesFrom.empty();
  if (forDevice && (!gpuTarget || (emit && !gpuForm)))
    failUsage("--device and --devices-from specialise GPU kernels: they need "
              "--target=opencl or spirv and no --emit, or --emit=gpu|cl|"
              "spirv-asm");
  if (forDevice && !options.deviceId.empty())
    failUsage("--device-id names a device for a compile without one; with "
              "--device, the schedule file's entries for that device apply");
  warnIfOptLevelIgnored(options.optLevelGiven, options.optLevel, target, emit);

  ProgramLoader loader(options.program, driverReporter());
  orFail(loader.parse());
  typed::Program program = orFail(loader.bind());
  if (target == Target::LLVMX86 && (!emit || machineCode)) {
    compileForCPU(options, emit, loader, program);
    return;
  }
  if (gpuTarget && (!emit || gpuForm)) {
    compileForGPU(target, options, emit, loader, program);
    return;
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  auto printFlags = mlir::OpPrintingFlags().enableDebugInfo(
      options.printDebugInfo, /*prettyForm=*/false);
  if (emit == EmitKind::Tile) {
    mlir::MLIRContext context;
    orFail(buildTileModule(context, loader, program))->print(os, printFlags);
  } else if (emit == EmitKind::Loops) {
    mlir::MLIRContext context;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        orFail(buildLoopLevelModule(context, loader, program));
    orFail(applyScheduleOption(target, options, *module));
    module->print(os, printFlags);
  } else if (emit == EmitKind::PlaidML) {
    typed::printPlaidML(program, os);
  } else {
    // --emit=ast: the checks above sent every other kind elsewhere.
    typed::printProgram(program, os);
  }
  os.flush();
  writeOutputFile(options.output.empty() ? "-" : options.output, text);
}
