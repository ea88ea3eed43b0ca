//===- ConvertGPUToSPIRV.cpp - tilec-convert-gpu-to-spirv -----------------===//
//
// Upstream convert-gpu-to-spirv converts only gpu, scf, arith, memref and
// func ops; the gpu level also holds math (exp, tanh, sqrt, ...), vector
// and index ops. This pass does the same conversion with those patterns
// added, for the Vulkan flavour only (tilec-spirv-attach-target always asks
// for Shader).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/TensorToSPIRV/TensorToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

namespace tilec {
#define GEN_PASS_DEF_TILECCONVERTGPUTOSPIRVPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// Upstream's gpu.func conversion drops workgroup attributions; a
/// memref.alloc in workgroup memory is what MemRefToSPIRV turns into a
/// Workgroup variable, so each attribution becomes one at the kernel entry.
void workgroupAttributionsToAllocs(gpu::GPUFuncOp func) {
  unsigned count = func.getNumWorkgroupAttributions();
  if (count == 0)
    return;
  Block &entry = func.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  unsigned first = func.getFirstWorkgroupAttributionIndex();
  for (unsigned i = 0; i < count; ++i) {
    BlockArgument arg = entry.getArgument(first + i);
    auto alloc = memref::AllocOp::create(builder, arg.getLoc(),
                                         cast<MemRefType>(arg.getType()));
    arg.replaceAllUsesWith(alloc);
  }
  entry.eraseArguments(first, count);
  func->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                builder.getI64IntegerAttr(0));
}

/// A memref memory space as a Vulkan storage class: the gpu dialect's
/// address spaces (workgroup attributions carry them), which upstream's map
/// leaves out, and otherwise upstream's numbering.
std::optional<spirv::StorageClass> vulkanStorageClass(Attribute space) {
  auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space);
  if (!gpuSpace)
    return spirv::mapMemorySpaceToVulkanStorageClass(space);
  switch (gpuSpace.getValue()) {
  case gpu::AddressSpace::Global:
    return spirv::StorageClass::StorageBuffer;
  case gpu::AddressSpace::Workgroup:
    return spirv::StorageClass::Workgroup;
  case gpu::AddressSpace::Private:
    return spirv::StorageClass::Function;
  }
  return std::nullopt;
}

/// Memref memory spaces -> Vulkan storage classes (default: StorageBuffer,
/// workgroup: Workgroup, private: Function).
void mapMemorySpaces(Operation *gpuModule) {
  spirv::MemorySpaceToStorageClassConverter converter(vulkanStorageClass);
  spirv::convertMemRefTypesAndAttrs(gpuModule, converter);
}

/// GLSL.std.450 defines its transcendental functions (Exp, Pow, Sin, Acosh,
/// ...) on 16- and 32-bit floats only. tilec-gpu-expand-software-math computes
/// every one the language has in software; any other math op on f64 (none
/// that the front end emits) would have no SPIR-V form, so it is an error
/// naming the function, the kernel and (its location) the statement.
LogicalResult checkF64Math(Operation *gpuModule) {
  WalkResult result = gpuModule->walk([](Operation *op) {
    if (!isa<math::MathDialect>(op->getDialect()) ||
        isa<math::AbsFOp, math::CeilOp, math::CopySignOp, math::FloorOp,
            math::FmaOp, math::IsFiniteOp, math::IsInfOp, math::IsNaNOp,
            math::RoundEvenOp, math::RoundOp, math::RsqrtOp, math::SqrtOp,
            math::TruncOp>(op) ||
        llvm::none_of(op->getOperandTypes(), [](Type type) {
          return getElementTypeOrSelf(type).isF64();
        }))
      return WalkResult::advance();
    auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
    op->emitError() << "'" << op->getName() << "' on f64 is not supported by "
                    << "the SPIR-V target (GLSL.std.450 has no f64 version) "
                    << "in kernel '" << (kernel ? kernel.getName() : "?")
                    << "'";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Upstream lowers vector.load and vector.store by casting the element
/// pointer to a vector pointer, which Vulkan's logical addressing forbids
/// (spirv-val: "not a logical pointer"). Each becomes one scalar access per
/// element instead, the vector built or taken apart around them.
void scalarizeVectorAccesses(Operation *gpuModule) {
  SmallVector<Operation *> accesses;
  gpuModule->walk([&](Operation *op) {
    if (isa<vector::LoadOp, vector::StoreOp>(op))
      accesses.push_back(op);
  });
  IRRewriter rewriter(gpuModule->getContext());
  for (Operation *op : accesses) {
    auto load = dyn_cast<vector::LoadOp>(op);
    auto store = dyn_cast<vector::StoreOp>(op);
    VectorType type = load ? load.getVectorType() : store.getVectorType();
    Value base = load ? load.getBase() : store.getBase();
    SmallVector<Value> indices(load ? load.getIndices() : store.getIndices());
    if (type.getRank() != 1 || indices.empty())
      continue; // left to upstream's patterns, which report it
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    Value first = indices.back();
    SmallVector<Value> elements;
    for (int64_t i = 0; i < type.getNumElements(); ++i) {
      if (i > 0)
        indices.back() = arith::AddIOp::create(
            rewriter, loc, first, arith::ConstantIndexOp::create(rewriter, loc, i));
      if (load) {
        elements.push_back(memref::LoadOp::create(rewriter, loc, base, indices));
        continue;
      }
      Value element =
          vector::ExtractOp::create(rewriter, loc, store.getValueToStore(), i);
      memref::StoreOp::create(rewriter, loc, element, base, indices);
    }
    if (load)
      rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, elements);
    else
      rewriter.eraseOp(op);
  }
}

/// The kernels of `gpuModule` (a clone) -> one spirv.module in its place.
LogicalResult convertToSPIRV(Operation *gpuModule) {
  MLIRContext *context = gpuModule->getContext();
  spirv::TargetEnvAttr env = spirv::lookupTargetEnvOrDefault(gpuModule);
  std::unique_ptr<ConversionTarget> target = SPIRVConversionTarget::get(env);
  SPIRVTypeConverter typeConverter(env);

  RewritePatternSet patterns(context);
  ScfToSPIRVContext scfContext;
  populateGPUToSPIRVPatterns(typeConverter, patterns);
  populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
  arith::populateArithToSPIRVPatterns(typeConverter, patterns);
  populateMathToSPIRVPatterns(typeConverter, patterns);
  populateMemRefToSPIRVPatterns(typeConverter, patterns);
  populateVectorToSPIRVPatterns(typeConverter, patterns);
  index::populateIndexToSPIRVPatterns(typeConverter, patterns);
  populateFuncToSPIRVPatterns(typeConverter, patterns);
  // Constant tensors inlined into kernels (tilec-spirv-inline-constant-
  // tensors) become Function-storage arrays, whatever their size (the
  // threshold is in bytes and upstream multiplies it by 8).
  populateTensorToSPIRVPatterns(typeConverter,
                                std::numeric_limits<int64_t>::max() / 8,
                                patterns);
  return applyFullConversion(gpuModule, *target, std::move(patterns));
}

struct ConvertGPUToSPIRVPass
    : tilec::impl::TilecConvertGPUToSPIRVPassBase<ConvertGPUToSPIRVPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The launches still name the gpu.module, so convert a clone placed
    // before it.
    SmallVector<Operation *> clones;
    OpBuilder builder(&getContext());
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      builder.setInsertionPoint(gpuModule);
      clones.push_back(builder.clone(*gpuModule));
    }
    for (Operation *clone : clones) {
      clone->walk(workgroupAttributionsToAllocs);
      mapMemorySpaces(clone);
      if (failed(checkF64Math(clone)))
        return signalPassFailure();
      scalarizeVectorAccesses(clone);
      if (failed(convertToSPIRV(clone)))
        return signalPassFailure();
    }
  }
};

} // namespace
