//===- CompileToPTX.cpp - The driver's entry points -----------------------===//
//
// compileToPTX, printNVVM and printPTX: run buildGPUToNVVMPipeline on a
// clone of the gpu level, then print its gpu.module or assemble it
// (EmitPTX.h). The manifest is every GPU target's (buildManifest,
// lib/Target/GPU); its kernel names are the PTX entries.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX/PTXTarget.h"
#include "tilec/Target/PTX/Passes.h"
#include "tilec/Target/PipelineRun.h"

#include "EmitPTX.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Target/StageTiming.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

using namespace mlir;
using namespace tilec;

std::string tilec::ptxChip(const schedule::DeviceProfile &device) {
  int64_t capability = device.computeCapability > 0 ? device.computeCapability
                                                    : kDefaultComputeCapability;
  return "sm_" + std::to_string(capability);
}

void tilec::registerNVVMLevelDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect>();
  // convert-gpu-to-nvvm lowers the dialects whose interfaces are loaded.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

namespace {

/// A clone of `module` whose gpu.modules (one per kernel where they were
/// split, tilec-ptx-split-kernel-modules) are at the NVVM level.
struct Lowered {
  OwningOpRef<ModuleOp> module;
  SmallVector<gpu::GPUModuleOp> kernels;
};

FailureOr<Lowered> lowerClone(ModuleOp module) {
  Lowered lowered{OwningOpRef<ModuleOp>(module.clone()), {}};
  PassManager pm(module.getContext());
  buildGPUToNVVMPipeline(pm);
  TimedStage stage("NVVM level");
  stage.timePasses(pm);
  if (failed(tilec::runCompilePipeline(pm, *lowered.module)))
    return failure();
  lowered.kernels = llvm::to_vector(lowered.module->getOps<gpu::GPUModuleOp>());
  if (lowered.kernels.empty())
    return module.emitError("the gpu level holds no gpu.module");
  return lowered;
}

/// The chip to compile `module` for: the device's, with its
/// architecture-specific features ("sm_90a") where a kernel uses wgmma
/// (such PTX loads on that compute capability only, which the schedule's
/// check asked for).
std::string chipFor(ModuleOp module) {
  std::string chip = ptxChip(kernel::getGPUTarget(module));
  return usesWarpgroupMma(module) ? chip + "a" : chip;
}

FailureOr<std::string> loweredPTX(ModuleOp module) {
  FailureOr<Lowered> lowered = lowerClone(module);
  if (failed(lowered))
    return failure();
  return ptx::emitPTX(lowered->kernels, chipFor(module));
}

} // namespace

FailureOr<PTXArtefact> tilec::compileToPTX(ModuleOp module,
                                           const ManifestContext &context) {
  ManifestContext ptxContext = context;
  ptxContext.target = "ptx";
  FailureOr<rt::Manifest> manifest = buildManifest(module, ptxContext);
  if (failed(manifest))
    return failure();
  FailureOr<std::string> text = loweredPTX(module);
  if (failed(text))
    return failure();
  return PTXArtefact{std::move(*text), std::move(*manifest)};
}

LogicalResult tilec::printNVVM(ModuleOp module, llvm::raw_ostream &os) {
  FailureOr<Lowered> lowered = lowerClone(module);
  if (failed(lowered))
    return failure();
  for (gpu::GPUModuleOp kernels : lowered->kernels) {
    kernels->print(os);
    os << "\n";
  }
  return success();
}

LogicalResult tilec::printPTX(ModuleOp module, llvm::raw_ostream &os) {
  FailureOr<std::string> text = loweredPTX(module);
  if (failed(text))
    return failure();
  os << *text;
  return success();
}
