//===- LoopsToLLVMPipeline.cpp - Loop-level MLIR to the LLVM dialect ------===//
//
// The pass order matters in two places. OpenMP first: convert-scf-to-openmp
// wraps each parallel loop body in memref.alloca_scope, whose lowering needs
// a single-block region, so memref ops are lowered before scf-to-cf turns the
// inner loops into blocks. Math next: ops with an LLVM intrinsic become the
// intrinsic (the vectoriser knows them); the rest become libm calls.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/LoopsToLLVM.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tilec::buildLoopsToLLVMPipeline(OpPassManager &pm,
                                     const LoopsToLLVMOptions &options) {
  if (options.parallel) {
    // Only the outermost parallel loop of each nest gets threads: inner
    // ones are left to the vectoriser, and nested teams would oversubscribe.
    affine::AffineParallelizeOptions parallelize;
    parallelize.maxNested = 1;
    pm.addNestedPass<func::FuncOp>(
        affine::createAffineParallelize(parallelize));
  }
  pm.addPass(createLowerAffinePass());
  if (options.parallel)
    pm.addPass(createConvertSCFToOpenMPPass());
  pm.addNestedPass<func::FuncOp>(arith::createArithExpandOpsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  if (options.parallel)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

namespace {
/// The options of the registered `tilec-loops-to-llvm` pipeline.
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<bool> parallel{*this, "parallel",
                        llvm::cl::desc("run outer parallel loops on OpenMP "
                                       "threads"),
                        llvm::cl::init(true)};
};
} // namespace

void tilec::registerLoopsToLLVMPipeline() {
  PassPipelineRegistration<PipelineOptions>(
      "tilec-loops-to-llvm",
      "Lower loop-level tilec MLIR to the LLVM dialect (CPU back end)",
      [](OpPassManager &pm, const PipelineOptions &options) {
        LoopsToLLVMOptions llvmOptions;
        llvmOptions.parallel = options.parallel;
        buildLoopsToLLVMPipeline(pm, llvmOptions);
      });
}
