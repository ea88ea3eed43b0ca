//===- CPUCompile.cpp - The loop level as CPU code ------------------------===//
//
// See CPUCompile.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/CPUCompile.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/PipelineRun.h"
#include "tilec/Target/StageTiming.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace tilec;

llvm::Expected<std::string> tilec::generateCPUCode(
    mlir::MLIRContext &context, mlir::ModuleOp module,
    const CPUCodeGen &codegen, CPUOutput output) {
  {
    TimedStage stage("LLVM dialect");
    mlir::PassManager pm(&context);
    stage.timePasses(pm);
    codegen.buildPipeline(pm);
    if (mlir::failed(tilec::runCompilePipeline(pm, module)))
      return inputError();
  }

  llvm::LLVMContext llvmContext;
  std::optional<TimedStage> stage;
  stage.emplace("LLVM IR translation");
  auto llvmModule = codegen.translate(module, llvmContext);
  if (!llvmModule)
    return withKind(ErrorKind::Runtime, llvmModule.takeError());
  stage.reset();
  stage.emplace("LLVM optimisation");
  if (llvm::Error error = codegen.optimize(**llvmModule))
    return withKind(ErrorKind::Runtime, std::move(error));
  stage.reset();

  llvm::SmallString<0> code;
  llvm::raw_svector_ostream os(code);
  stage.emplace("machine code");
  if (output == CPUOutput::LLVMIR) {
    (*llvmModule)->print(os, nullptr);
  } else {
    MachineCodeKind kind = output == CPUOutput::Assembly
                               ? MachineCodeKind::Assembly
                               : MachineCodeKind::Object;
    if (llvm::Error error = codegen.emit(**llvmModule, kind, os))
      return withKind(ErrorKind::Runtime, std::move(error));
  }
  stage.reset();
  return code.str().str();
}
