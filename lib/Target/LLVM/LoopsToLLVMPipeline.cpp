//===- LoopsToLLVMPipeline.cpp - Loop-level MLIR to the LLVM dialect ------===//
//
// The pass order matters in two places. OpenMP first: convert-scf-to-openmp
// wraps each parallel loop body in memref.alloca_scope, whose lowering needs
// a single-block region, so memref ops are lowered before scf-to-cf turns the
// inner loops into blocks. Math next: ops with an LLVM intrinsic become the
// intrinsic (the vectoriser knows them); the rest become libm calls.
// Schedules come first of all: they rewrite the kernels' affine nests, and
// OpenMP must see the tiled nests to run their outermost (tile) loops on
// threads. Vector ops are lowered with the other memref users, before
// scf-to-cf.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/LoopsToLLVM.h"
#include "tilec/Transforms/Passes.h"

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
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
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
  if (options.schedule) {
    CPUDefaultSchedulePassOptions facts;
    if (options.cpu) {
      facts.vectorBytes = options.cpu->vectorBytes;
      facts.vectorRegisters = options.cpu->vectorRegisters;
      facts.l1Bytes = options.cpu->l1Bytes;
      facts.l2Bytes = options.cpu->l2Bytes;
    }
    pm.addNestedPass<func::FuncOp>(createCPUDefaultSchedulePass(facts));
    pm.addNestedPass<func::FuncOp>(createApplyCPUSchedulePass());
    // Only CSE here (the copies of uniform loads and constants the points
    // share): the canonicalizer at this level also merges float
    // conversion chains, which changes narrow-float rounding.
    pm.addPass(createCSEPass());
  }
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
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // Libm calls on vectors are made per lane (vector.extract and
  // vector.from_elements), which need lowering too.
  pm.addPass(createConvertVectorToLLVMPass());
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
  Option<bool> schedule{*this, "schedule",
                        llvm::cl::desc("tile, register-block and vectorise "
                                       "kernels by their (default) schedule"),
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
        llvmOptions.schedule = options.schedule;
        buildLoopsToLLVMPipeline(pm, llvmOptions);
      });
}
