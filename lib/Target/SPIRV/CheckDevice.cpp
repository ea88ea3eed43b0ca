//===- CheckDevice.cpp - tilec-spirv-check-device -------------------------===//
//
// Names the missing capability, the kernel and the Tile statement when a
// kernel needs something the device lacks (upstream's type converter would
// instead widen or drop narrow types without a word, or fail far from the
// source), and warns where a kernel's IEEE special values are left to a
// driver that does not promise to keep them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Target/GPU/Passes.h"

#include "LoopBudget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/StringSet.h"

namespace tilec {
#define GEN_PASS_DEF_TILECSPIRVCHECKDEVICEPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// A capability a type or op needs, and what in the kernel needs it.
struct Need {
  const char *capability;
  const char *reason;
};

/// Whether a memref lives in a storage buffer (kernel arguments), where
/// narrow types need the *BitAccess capabilities, rather than in workgroup
/// or private memory.
bool isStorageBuffer(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return true;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Global;
  return false;
}

/// Appends what a value of `type` needs on a device with `options`.
void collectNeeds(Type type, const tilec::schedule::DeviceProfile &options,
                  SmallVectorImpl<Need> &needs) {
  bool inBuffer = false;
  if (auto memref = dyn_cast<MemRefType>(type)) {
    inBuffer = isStorageBuffer(memref);
    type = memref.getElementType();
  }
  // Vulkan's Shader capability takes vectors of 2, 3 and 4 elements; 8 and
  // 16 need Vector16, which no Vulkan device offers.
  if (auto vector = dyn_cast<VectorType>(type);
      vector && vector.getNumElements() > 4)
    needs.push_back({"Vector16", "vectors of more than 4 elements, from a "
                                 "schedule with vector > 4"});
  type = getElementTypeOrSelf(type);
  if (!type.isIntOrFloat()) // index becomes i32; other types hold no numbers
    return;
  auto need = [&](bool has, const char *capability, const char *reason) {
    if (!has)
      needs.push_back({capability, reason});
  };
  unsigned width = type.getIntOrFloatBitWidth();
  if (type.isF16()) {
    need(options.fp16, "Float16", "f16 values");
    if (inBuffer)
      need(options.storage16Bit, "StorageBuffer16BitAccess", "f16 buffers");
  } else if (type.isBF16() || (type.isInteger() && width == 16)) {
    // bf16 is stored and carried as i16 (tilec-spirv-emulate-bf16).
    need(options.int16, "Int16", type.isBF16() ? "bf16 values (as i16)"
                                               : "16-bit integer values");
    if (inBuffer)
      need(options.storage16Bit, "StorageBuffer16BitAccess",
           type.isBF16() ? "bf16 buffers" : "16-bit integer buffers");
  } else if (type.isInteger() && width == 8) {
    need(options.int8, "Int8", "8-bit integer or bool values");
    if (inBuffer)
      need(options.storage8Bit, "StorageBuffer8BitAccess",
           "8-bit integer or bool buffers");
  } else if (type.isInteger() && width == 64) {
    need(options.int64, "Int64", "64-bit integer values");
  } else if (type.isF64()) {
    need(options.fp64, "Float64", "f64 values");
  }
}

/// The types an op makes or uses.
void collectNeeds(Operation *op, const tilec::schedule::DeviceProfile &options,
                  SmallVectorImpl<Need> &needs) {
  if (isa<gpu::SubgroupReduceOp, gpu::ShuffleOp, gpu::SubgroupIdOp,
          gpu::LaneIdOp, gpu::NumSubgroupsOp, gpu::SubgroupSizeOp>(op) &&
      !options.subgroups)
    needs.push_back({"GroupNonUniform", "subgroup operations"});
  if (tilec::f64math::isSoftwareF64MathOp(op) && !options.int64)
    needs.push_back({"Int64", "f64 math functions, which take the bits of "
                              "their argument apart as 64-bit integers"});
  for (Type type : op->getResultTypes())
    collectNeeds(type, options, needs);
  for (Type type : op->getOperandTypes())
    collectNeeds(type, options, needs);
}

/// Whether the device keeps infinities and NaNs of `type`'s float width
/// when asked (tilec-spirv-float-controls asks wherever it may).
bool keepsInfNan(Type type, const tilec::schedule::DeviceProfile &options) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return !floatType || tilec::devicePreservesFloats(options, /*infNan=*/true,
                                                    floatType.getWidth());
}

/// Without SignedZeroInfNanPreserve a driver may assume that no infinity
/// or NaN occurs: a division (by a zero) and the software f64 math (whose
/// special values are infinities and NaNs) then give what the driver
/// gives. A warning per kernel and width says so; the kernel still runs,
/// right wherever the results are finite.
void warnUnkeptSpecials(gpu::GPUFuncOp func,
                        const tilec::schedule::DeviceProfile &options) {
  llvm::StringSet<> warned;
  func.walk([&](Operation *op) {
    bool division = isa<arith::DivFOp>(op);
    if (!division && !tilec::f64math::isSoftwareF64MathOp(op))
      return;
    Type type = op->getResult(0).getType();
    if (keepsInfNan(type, options))
      return;
    std::string width =
        std::to_string(getElementTypeOrSelf(type).getIntOrFloatBitWidth());
    if (!warned.insert(width).second)
      return;
    op->emitWarning() << "kernel '" << func.getName() << "' "
                      << (division ? "divides" : "computes math functions of")
                      << " f" << width
                      << " values, but the target device does not keep f"
                      << width
                      << " infinities and NaNs (SignedZeroInfNanPreserve): "
                         "where the exact result is one, the kernel's is "
                         "the driver's";
  });
}

/// On a device that stops an invocation's loops after a budget of
/// iterations (DeviceInfo::maxLoopIterations), a kernel that may run more
/// would silently give partial results: an error naming the kernel, its
/// count and the budget.
bool fitsLoopBudget(gpu::GPUFuncOp func,
                    const tilec::schedule::DeviceProfile &options) {
  uint64_t budget = options.maxLoopIterations;
  if (budget == 0)
    return true;
  std::optional<uint64_t> iterations =
      tilec::spirv::loopIterationsPerInvocation(func);
  if (iterations && *iterations <= budget)
    return true;
  // At the kernel's location (its Tile statement), without the op: the
  // note MLIR attaches to an op's error would print the whole kernel.
  InFlightDiagnostic error = mlir::emitError(func.getLoc())
                             << "kernel '" << func.getName() << "' runs ";
  if (iterations)
    error << *iterations;
  else
    error << "an unbounded number of";
  error << " loop iterations in one invocation, but the target device stops "
           "an invocation after "
        << budget
        << " (Mesa's llvmpipe loop limiter) and would return partial "
           "results; run it on another device or target";
  return false;
}

struct CheckDevicePass
    : tilec::impl::TilecSPIRVCheckDevicePassBase<CheckDevicePass> {
  using TilecSPIRVCheckDevicePassBase::TilecSPIRVCheckDevicePassBase;

  void runOnOperation() override {
    tilec::schedule::DeviceProfile options =
        tilec::kernel::getGPUTarget(getOperation());
    bool ok = true;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      // One error per capability and kernel: the first op that needs it.
      llvm::StringSet<> reported;
      auto report = [&](Operation *op, ArrayRef<Need> needs) {
        for (const Need &need : needs) {
          if (!reported.insert(need.capability).second)
            continue;
          op->emitError() << "kernel '" << func.getName()
                          << "' needs the SPIR-V capability "
                          << need.capability << " (" << need.reason
                          << "), which the target device lacks";
          ok = false;
        }
      };
      SmallVector<Need> needs;
      for (Type type : func.getArgumentTypes())
        collectNeeds(type, options, needs);
      for (BlockArgument arg : func.getWorkgroupAttributions())
        collectNeeds(arg.getType(), options, needs);
      for (BlockArgument arg : func.getPrivateAttributions())
        collectNeeds(arg.getType(), options, needs);
      report(func, needs);
      func.walk([&](Operation *op) {
        if (op == func.getOperation())
          return;
        needs.clear();
        collectNeeds(op, options, needs);
        report(op, needs);
      });
      warnUnkeptSpecials(func, options);
      ok &= fitsLoopBudget(func, options);
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
