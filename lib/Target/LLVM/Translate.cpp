//===- Translate.cpp - LLVM dialect to optimised LLVM IR ------------------===//
//
// Translation uses MLIR's LLVM IR export with the builtin, LLVM and OpenMP
// dialect translations (OpenMP lowers omp.wsloop to __kmpc_* calls through
// LLVM's OpenMPIRBuilder). Optimisation is LLVM's standard new-pass-manager
// pipeline for the level, with the target's cost model so the vectoriser
// picks the host's vector width.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/CodeGen.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

void tilec::registerLoopsToLLVMDialects(mlir::DialectRegistry &registry) {
  // Loop-level kernels carry #tilec.schedule and the kernel marks.
  registry.insert<mlir::LLVM::LLVMDialect, tilec::kernel::KernelDialect>();
  // The dialects the pipeline's convert-to-llvm lowers; func is not among
  // them, since the entry needs FuncToLLVM's bare-pointer convention.
  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
  mlir::index::registerConvertIndexToLLVMInterface(registry);
  mlir::registerConvertMathToLLVMInterface(registry);
  mlir::registerConvertMemRefToLLVMInterface(registry);
  mlir::vector::registerConvertVectorToLLVMInterface(registry);
  mlir::ub::registerConvertUBToLLVMInterface(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerOpenMPDialectTranslation(registry);
}

Expected<std::unique_ptr<Module>>
tilec::translateToLLVMIR(mlir::Operation *module, LLVMContext &context,
                         TargetMachine &machine) {
  std::unique_ptr<Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return createStringError(inconvertibleErrorCode(),
                             "cannot translate the module to LLVM IR");
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple());
  return std::move(llvmModule);
}

Error tilec::optimizeModule(Module &module, TargetMachine &machine,
                            unsigned optLevel) {
  LoopAnalysisManager loopAnalyses;
  FunctionAnalysisManager functionAnalyses;
  CGSCCAnalysisManager cgsccAnalyses;
  ModuleAnalysisManager moduleAnalyses;
  PipelineTuningOptions tuning;
  // LLVM 22's loop vectoriser can recurse exponentially
  // (vputils::isSingleScalar) on the min/max reduction loops we emit: a
  // plain `O[] = <(I[x, y, z])` never finishes at -O2. Until the reductions
  // are emitted in a form it handles, loop vectorisation stays off; SLP
  // vectorisation and unrolling stay on. Kernels that tilec-cpu-apply-schedule
  // understands arrive already vectorised (vector dialect), so they do not
  // need it.
  tuning.LoopVectorization = false;
  tuning.SLPVectorization = optLevel >= 2;
  tuning.LoopUnrolling = optLevel >= 2;
  PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses,
                               moduleAnalyses);

  OptimizationLevel level = optLevel == 0   ? OptimizationLevel::O0
                            : optLevel == 1 ? OptimizationLevel::O1
                            : optLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  ModulePassManager passes = level == OptimizationLevel::O0
                                 ? builder.buildO0DefaultPipeline(level)
                                 : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, moduleAnalyses);
  return Error::success();
}
