//===- FloatControls.cpp - tilec-spirv-float-controls ---------------------===//
//
// The language defines IEEE results (1.0 / 0 is +inf, 0.0 / 0 is NaN, NaN
// propagates), but Vulkan lets a driver assume that no infinity or NaN
// occurs, and flush subnormals, unless an entry point asks otherwise with
// the SPV_KHR_float_controls execution modes SignedZeroInfNanPreserve and
// DenormPreserve (one per float width), and the device grants them
// (VkPhysicalDeviceFloatControlsProperties). This pass asks, for every
// entry point and every float width its function computes with, for what
// the device grants. spirv-update-vce then adds the capabilities and the
// extension that the modes need.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/SmallSet.h"

namespace tilec {
#define GEN_PASS_DEF_TILECSPIRVFLOATCONTROLSPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// The widths of the floats `func` loads, stores or computes with.
llvm::SmallSet<unsigned, 3> floatWidthsOf(spirv::FuncOp func) {
  llvm::SmallSet<unsigned, 3> widths;
  auto note = [&](Type type) {
    if (auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type)))
      widths.insert(floatType.getWidth());
  };
  func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      note(type);
    for (Type type : op->getOperandTypes())
      note(type);
  });
  return widths;
}

struct FloatControlsPass
    : tilec::impl::TilecSPIRVFloatControlsPassBase<FloatControlsPass> {
  using TilecSPIRVFloatControlsPassBase::TilecSPIRVFloatControlsPassBase;

  void runOnOperation() override {
    tilec::schedule::DeviceProfile options =
        tilec::kernel::getGPUTarget(getOperation());
    auto granted = [&](spirv::ExecutionMode mode, unsigned width) {
      return tilec::devicePreservesFloats(
          options, mode == spirv::ExecutionMode::SignedZeroInfNanPreserve,
          width);
    };
    spirv::ModuleOp module = getOperation();
    SmallVector<spirv::EntryPointOp> entries(
        module.getOps<spirv::EntryPointOp>());
    for (spirv::EntryPointOp entry : entries) {
      auto func = module.lookupSymbol<spirv::FuncOp>(entry.getFn());
      if (!func)
        continue;
      llvm::SmallSet<unsigned, 3> widths = floatWidthsOf(func);
      OpBuilder builder(module.getContext());
      builder.setInsertionPointAfter(entry);
      for (unsigned width : {16u, 32u, 64u}) {
        if (!widths.contains(width))
          continue;
        for (spirv::ExecutionMode mode :
             {spirv::ExecutionMode::SignedZeroInfNanPreserve,
              spirv::ExecutionMode::DenormPreserve})
          if (granted(mode, width))
            spirv::ExecutionModeOp::create(builder, entry.getLoc(), func, mode,
                                           {static_cast<int32_t>(width)});
      }
    }
  }
};

} // namespace
