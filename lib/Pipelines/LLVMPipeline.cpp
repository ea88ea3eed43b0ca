//===- LLVMPipeline.cpp - Loop-level MLIR to the LLVM dialect -------------===//
//
// Kernels become functions of their own before anything else (one per
// distinct kernel: tilec-cpu-outline-kernels), so that the rest is done once
// per distinct kernel, function by function, on MLIR's threads.
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

#include "tilec/Pipelines/Pipelines.h"

#include "PipelineRegistration.h"

#include "tilec/Pipelines/Phase.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"
#include "tilec/Target/LLVM/Transforms/Passes.h"
#include "tilec/Dialect/Kernel/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
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
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// Adds `passes` as one pipeline nested on every func.func: MLIR runs it on
/// the functions (a model's kernels) in parallel.
template <typename... Passes>
static void addPerFunction(OpPassManager &pm, Passes... passes) {
  OpPassManager &nested = pm.nest<func::FuncOp>();
  (nested.addPass(std::move(passes)), ...);
}

void tilec::buildCPUKernelFormation(OpPassManager &pm,
                                    const LoopsToLLVMOptions &options) {
  if (!options.schedule)
    return;
  // Operands whose layout alone keeps a kernel scalar get a transposed
  // copy (a kernel of its own), before kernels are outlined.
  pm.addNestedPass<func::FuncOp>(createTransposeLaneOperandsPass());
  // Row chains become one kernel each, vectorised by
  // tilec-cpu-row-kernels rather than by a schedule.
  CPUFuseRowsPassOptions rows;
  if (options.cpu)
    rows.vectorBytes = options.cpu->vectorBytes;
  pm.addNestedPass<func::FuncOp>(createCPUFuseRowsPass(rows));
}

void tilec::buildLoopsToLLVMPipeline(OpPassManager &pm,
                                     const LoopsToLLVMOptions &options) {
  if (!options.kernelsFormed)
    buildCPUKernelFormation(pm, options);
  if (options.schedule) {
    // While the temporaries the row kernels alone use are still allocs of
    // the function, so that they can become a row each.
    RowKernelsPassOptions rows;
    if (options.cpu)
      rows.vectorBytes = options.cpu->vectorBytes;
    pm.addNestedPass<func::FuncOp>(createRowKernelsPass(rows));
  }
  // Kernels first become functions, once per distinct kernel, so that all
  // that follows (scheduling included) is done once per distinct kernel and
  // on several threads.
  pm.addPass(createOutlineKernelsPass());
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
  // Panels of the program's inputs packed once per binding; and the
  // flags that say when, which the C header declares, in every object.
  pm.addPass(createKeepPackedInputsPass());
  if (options.parallel) {
    // Only the outermost parallel loop of each nest gets threads (see the
    // pass); the others are left to the vectoriser.
    pm.addNestedPass<func::FuncOp>(createParallelizeOuterLoopsPass());
  }
  // Temporaries that are never alive together share storage; the kernels
  // are final by now, and only the buffers they are given change.
  pm.addNestedPass<func::FuncOp>(createShareTemporaryBuffersPass());
  // exp and tanh as vector arithmetic before math ops become intrinsics
  // and calls.
  pm.addNestedPass<func::FuncOp>(createInlineVectorMathPass());
  addPerFunction(pm, createLowerAffinePass());
  if (options.parallel)
    pm.addPass(createConvertSCFToOpenMPPass());
  addPerFunction(pm, arith::createArithExpandOpsPass(),
                 memref::createExpandStridedMetadataPass(),
                 createConvertMathToLLVMPass());
  // Libm calls on vectors are made per lane (vector.extract and
  // vector.from_elements), which the vector lowering below takes too.
  pm.addPass(createConvertMathToLibmPass());
  // One conversion for all dialects (those whose ConvertToLLVM interface
  // registerLoopsToLLVMDialects registers), rather than a pass per
  // dialect: each pass walks the whole module. It runs twice, around
  // scf-to-cf: memref ops first (see above), then what scf-to-cf makes.
  pm.addPass(createConvertToLLVMPass());
  addPerFunction(pm, createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  if (options.parallel)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addNestedPass<LLVM::LLVMFuncOp>(createCanonicalizerPass());
  pm.addPass(createKeepTemporarySlotsPass());
}

namespace {
/// The options of the registered `tilec-pipeline-llvm` pipeline.
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

void tilec::pipelines::registerLLVMPipeline() {
  PassPipelineRegistration<PipelineOptions>(
      pipelineName(Phase::LLVM),
      "Lower loop-level tilec MLIR to the LLVM dialect (CPU back end)",
      [](OpPassManager &pm, const PipelineOptions &options) {
        LoopsToLLVMOptions llvmOptions;
        llvmOptions.parallel = options.parallel;
        llvmOptions.schedule = options.schedule;
        buildLoopsToLLVMPipeline(pm, llvmOptions);
      });
}
