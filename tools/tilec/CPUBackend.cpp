//===- CPUBackend.cpp - The llvm-x86 target in the driver -----------------===//
//
// Part of the tilec driver; see CPUBackend.h. The entry symbol of an object
// is the output file's stem (cSymbolForOutput), since a Tile entry is often
// `main`, which C reserves.
//
//===----------------------------------------------------------------------===//

#include "CPUBackend.h"
#include "DriverError.h"
#include "Output.h"
#include "TestFaults.h"

#include "tilec/Compiler/CPUCompile.h"
#include "tilec/Compiler/CompileCacheKeys.h"
#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Compiler/ScheduleLoading.h"
#include "tilec/Compiler/StageTiming.h"
#include "tilec/Interp/Interpreter.h"
#include "tilec/Pipelines/CPUCodeGen.h"
#include "tilec/Support/Compare.h"
#include "tilec/Target/LLVM/CHeader.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

/// The loop level of `program`, in a context that can also translate the
/// LLVM dialect; a failure has been reported and ends the command.
static mlir::OwningOpRef<mlir::ModuleOp>
buildLoopModule(mlir::MLIRContext &context, ProgramLoader &loader,
                const typed::Program &program) {
  mlir::DialectRegistry registry;
  registerLoopsToLLVMDialects(registry);
  context.appendDialectRegistry(registry);
  return orFail(buildLoopLevelModule(context, loader, program));
}

/// The parameters of model.h, from the typed program (which knows the
/// signedness the loop level has dropped).
static std::vector<CHeaderParam> headerParams(const typed::Program &program) {
  std::vector<CHeaderParam> params;
  auto add = [&](typed::ValueId id, bool isOutput) {
    const typed::Value &value = program.value(id);
    params.push_back(
        {value.name, value.type.dtype, value.type.shape, isOutput});
  };
  for (typed::ValueId id : program.inputs)
    add(id, false);
  for (typed::ValueId id : program.outputs)
    add(id, true);
  return params;
}

void tilec::driver::compileForCPU(const CompileOptions &options,
                                  std::optional<EmitKind> emit,
                                  ProgramLoader &loader,
                                  const typed::Program &program) {
  CPUCodeGenOptions target;
  target.cpu = options.cpu;
  target.optLevel = options.optLevel;
  auto codegen = CPUCodeGen::create(target);
  if (!codegen)
    failUsage(llvm::toString(codegen.takeError()));

  std::string objectPath = options.output;
  if (objectPath.empty() && !emit) {
    llvm::StringRef input = options.program.inputPath;
    objectPath =
        input == "-" ? "model.o" : (llvm::sys::path::stem(input) + ".o").str();
  }
  if (llvm::sys::path::extension(objectPath) == ".h")
    failUsage(fmt::format("-o '{}' would be overwritten by the C header; "
                          "name the object file '.o'",
                          objectPath));
  std::string symbol = cSymbolForOutput(emit ? "" : objectPath);

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildLoopModule(context, loader, program);
  {
    TimedStage stage("schedules");
    orFail(applyScheduleOption(Target::LLVMX86, options, *module));
  }
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  std::string entry = findEntryFunction(*module);
  if (entry.empty() ||
      mlir::failed(prepareEntryFunction(*module, entry, symbol)))
    failInput("internal error: the loop level has no usable entry function");
  // The cache key is the module as it is now: scheduled, its entry named.
  CompileCache cache(cacheSettingsOf(options), driverReporter());
  CacheKey key =
      cpuCacheKey(targetName(Target::LLVMX86), *module, codegen->getMachine(),
                  options.optLevel,
                  emit ? emitKindName(*emit) : llvm::StringRef("object"));
  std::string code;
  if (auto hit = cache.lookup(key, {"code"})) {
    code = std::move(hit->front().bytes);
  } else {
    CPUOutput output = emit == EmitKind::LLVM ? CPUOutput::LLVMIR
                       : emit                 ? CPUOutput::Assembly
                                              : CPUOutput::Object;
    code = orFail(generateCPUCode(context, *module, *codegen, output));
    cache.store(key, {{"code", code}});
  }
  if (emit) {
    writeOutputFile(options.output.empty() ? "-" : options.output, code);
    return;
  }
  writeOutputFile(objectPath, code);
  if (objectPath == "-")
    return;
  llvm::SmallString<128> headerPath(objectPath);
  llvm::sys::path::replace_extension(headerPath, ".h");
  std::string header;
  llvm::raw_string_ostream headerStream(header);
  llvm::StringRef source = options.program.inputPath;
  writeCHeader(headerStream, symbol,
               source == "-" ? "<stdin>" : llvm::sys::path::filename(source),
               headerParams(program));
  writeOutputFile(headerPath, header);
}

std::vector<OutputCheck>
tilec::driver::compareWithInterpreter(const typed::Program &program,
                                      std::vector<Tensor> inputs,
                                      const std::vector<Tensor> &backEnd) {
  std::vector<Tensor> faulty;
  const std::vector<Tensor> &outputs = withTestFault(backEnd, faulty);
  llvm::Expected<ReferenceOutputs> reference =
      interpretWithBounds(program, std::move(inputs));
  if (!reference)
    failWith(ExitCode::RuntimeFailure, reference.takeError());
  std::vector<OutputCheck> checks;
  // Every output the program declares is checked: one the back end did not
  // return is a mismatch, never skipped.
  for (size_t i = 0; i < reference->outputs.size(); ++i) {
    OutputCheck check;
    check.comparison =
        i < outputs.size()
            ? compareTensors(outputs[i], reference->outputs[i],
                             &reference->bounds[i])
            : failedComparison("the back end returned no such output");
    check.line = formatComparison(program.value(program.outputs[i]).name,
                                  check.comparison);
    checks.push_back(std::move(check));
  }
  return checks;
}

bool tilec::driver::checkAgainstInterpreter(
    const typed::Program &program, std::vector<Tensor> inputs,
    const std::vector<Tensor> &outputs) {
  bool allMatch = true;
  for (const OutputCheck &check :
       compareWithInterpreter(program, std::move(inputs), outputs)) {
    llvm::outs() << check.line << "\n";
    allMatch = allMatch && check.comparison.match;
  }
  return allMatch;
}
