//===- OpenCLBackend.cpp - The opencl target in the driver ----------------===//
//
// Part of the tilec driver; see OpenCLBackend.h. Both files are built in
// memory before either is written, and a manifest that cannot be written
// takes the source with it, so a failed compile leaves no half of a pair.
//
//===----------------------------------------------------------------------===//

#include "OpenCLBackend.h"
#include "DriverError.h"
#include "ModuleStages.h"
#include "Output.h"

#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Target/OpenCL/ManifestBuilder.h"
#include "tilec/Target/OpenCL/OpenCLEmitter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;
using namespace tilec::driver;

/// A context that knows the dialects of the gpu level.
static void addGPULevelDialects(mlir::MLIRContext &context) {
  mlir::DialectRegistry registry;
  registerGPULevelDialects(registry);
  context.appendDialectRegistry(registry);
}

/// Prints the gpu level, its OpenCL C, or writes the source and manifest.
/// Errors are reported through `context`'s diagnostic handler.
static void finish(const CompileOptions &options, std::optional<EmitKind> emit,
                   mlir::ModuleOp module, ManifestContext manifestContext) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string stdoutOrOutput = options.output.empty() ? "-" : options.output;
  if (emit == EmitKind::GPU) {
    module->print(os, mlir::OpPrintingFlags().enableDebugInfo(
                          options.printDebugInfo, /*prettyForm=*/false));
    writeOutputFile(stdoutOrOutput, text);
    return;
  }
  if (mlir::failed(emitOpenCL(module, os)))
    failInput();
  if (emit || options.output == "-") {
    writeOutputFile(stdoutOrOutput, text);
    return;
  }
  std::string sourcePath = options.output;
  if (sourcePath.empty()) {
    llvm::StringRef input = options.program.inputPath;
    sourcePath = input == "-" ? "kernel.cl"
                              : (llvm::sys::path::stem(input) + ".cl").str();
  }
  manifestContext.artefact = llvm::sys::path::filename(sourcePath).str();
  auto manifest = buildManifest(module, manifestContext);
  if (mlir::failed(manifest))
    failInput();
  writeOutputFile(sourcePath, text);
  if (Status written = rt::writeManifest(sourcePath + ".json", *manifest);
      !written) {
    (void)llvm::sys::fs::remove(sourcePath);
    failRuntime(written.message());
  }
}

void tilec::driver::compileForOpenCL(const CompileOptions &options,
                                     std::optional<EmitKind> emit,
                                     ProgramLoader &loader,
                                     const typed::Program &program) {
  mlir::MLIRContext context;
  addGPULevelDialects(context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildLoopLevelModule(context, loader, program);
  mlir::SourceMgrDiagnosticHandler handler(loader.getSourceMgr(), &context);
  mlir::PassManager pm(&context);
  buildLoopsToGPUPipeline(pm, GPUTargetOptions());
  if (mlir::failed(pm.run(*module)))
    failInput();

  ManifestContext manifestContext;
  llvm::StringRef input = options.program.inputPath;
  manifestContext.program = input == "-" ? "<stdin>" : input.str();
  for (typed::ValueId id : program.inputs)
    manifestContext.inputDTypes.push_back(program.value(id).type.dtype);
  for (typed::ValueId id : program.outputs)
    manifestContext.outputDTypes.push_back(program.value(id).type.dtype);
  finish(options, emit, *module, std::move(manifestContext));
}

void tilec::driver::compileGPULevelFile(const CompileOptions &options,
                                        std::optional<EmitKind> emit) {
  mlir::MLIRContext context;
  addGPULevelDialects(context);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  auto file = mlir::openInputFile(options.program.inputPath, &error);
  if (!file)
    failRuntime(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    failInput();
  ManifestContext manifestContext;
  manifestContext.program = options.program.inputPath;
  finish(options, emit, *module, std::move(manifestContext));
}
