//===- DynamicSharedMemory.cpp - tilec-ptx-dynamic-shared-memory ----------===//
//
// Workgroup attributions above CUDA's static limit become views of one
// dynamic shared-memory buffer (Passes.td says why); the offsets are those
// of gpuprogram::workgroupBytes, so the manifest's byte count covers them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX/Passes.h"

#include "tilec/Target/GPU/GPUProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace tilec {
#define GEN_PASS_DEF_TILECPTXDYNAMICSHAREDMEMORYPASS
#include "tilec/Target/PTX/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

void moveToDynamicSharedMemory(gpu::GPUFuncOp kernel) {
  OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
  Location loc = kernel.getLoc();
  auto workgroup = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), workgroup);
  Value base = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  uint64_t offset = 0;
  for (BlockArgument attribution : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(attribution.getType());
    offset = llvm::alignTo(offset, 16);
    Value shift = arith::ConstantIndexOp::create(b, loc, int64_t(offset));
    Value view =
        memref::ViewOp::create(b, loc, type, base, shift, ValueRange{});
    attribution.replaceAllUsesWith(view);
    offset += uint64_t(type.getNumElements()) *
              tilec::gpuprogram::elementBytes(type.getElementType());
  }
  unsigned first = kernel.getFirstWorkgroupAttributionIndex();
  unsigned count = kernel.getNumWorkgroupAttributions();
  kernel.getBody().front().eraseArguments(first, count);
  kernel->setAttr(kernel.getNumWorkgroupAttributionsAttrName(),
                  b.getI64IntegerAttr(0));
}

struct DynamicSharedMemory
    : tilec::impl::TilecPTXDynamicSharedMemoryPassBase<DynamicSharedMemory> {
  void runOnOperation() override {
    getOperation().walk([](gpu::GPUFuncOp kernel) {
      if (tilec::gpuprogram::dynamicSharedBytes(kernel) > 0)
        moveToDynamicSharedMemory(kernel);
    });
  }
};

} // namespace
