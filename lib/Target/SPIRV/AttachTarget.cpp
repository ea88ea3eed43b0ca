//===- AttachTarget.cpp - tilec-spirv-attach-target -----------------------===//
//
// Tells the SPIR-V conversion what it may use (the device's target
// environment) and what each entry point is (its work-group size, from the
// schedule the gpu level baked into known_block_size).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"
#include "TargetEnv.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace tilec {
#define GEN_PASS_DEF_TILECSPIRVATTACHTARGETPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

struct AttachTargetPass
    : tilec::impl::TilecSPIRVAttachTargetPassBase<AttachTargetPass> {
  using TilecSPIRVAttachTargetPassBase::TilecSPIRVAttachTargetPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    tilec::schedule::DeviceProfile device = tilec::kernel::getGPUTarget(module);
    FailureOr<spirv::TargetEnvAttr> env =
        tilec::buildTargetEnv(&getContext(), device);
    if (failed(env)) {
      module.emitError() << "SPIR-V version 1." << device.spirvVersionMinor
                         << " is not one of 1.0 to 1.6";
      return signalPassFailure();
    }
    // On the top-level module too, so that the spirv.module the conversion
    // puts beside the gpu.module finds it (spirv-update-vce looks it up).
    module->setAttr(spirv::getTargetEnvAttrName(), *env);
    WalkResult result = module.walk([&](gpu::GPUModuleOp gpuModule) {
      gpuModule->setAttr(spirv::getTargetEnvAttrName(), *env);
      for (auto func : gpuModule.getOps<gpu::GPUFuncOp>()) {
        if (!func.isKernel())
          continue;
        std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
        if (!block || block->size() != 3) {
          func.emitError() << "kernel '" << func.getName()
                           << "' has no known_block_size: its work-group "
                              "size must be fixed for SPIR-V";
          return WalkResult::interrupt();
        }
        func->setAttr(spirv::getEntryPointABIAttrName(),
                      spirv::getEntryPointABIAttr(&getContext(),
                                                  *block));
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
