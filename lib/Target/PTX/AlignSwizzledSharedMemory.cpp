//===- AlignSwizzledSharedMemory.cpp - tilec-ptx-align-swizzled-shared-memory //
//
// 1024-byte shared memory for the modules whose kernels read it with wgmma
// (Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace tilec {
#define GEN_PASS_DEF_TILECPTXALIGNSWIZZLEDSHAREDMEMORYPASS
#include "tilec/Target/PTX/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// The period of the 128-byte swizzle.
constexpr uint64_t kSwizzleAtomBytes = 1024;

struct AlignSwizzledSharedMemory
    : tilec::impl::TilecPTXAlignSwizzledSharedMemoryPassBase<
          AlignSwizzledSharedMemory> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (!tilec::usesWarpgroupMma(module))
      return;
    module.walk([](LLVM::GlobalOp global) {
      if (global.getAddrSpace() == NVVM::NVVMMemorySpace::Shared)
        global.setAlignment(std::max<uint64_t>(
            global.getAlignment().value_or(1), kSwizzleAtomBytes));
    });
  }
};

} // namespace

bool tilec::usesWarpgroupMma(Operation *root) {
  return root
      ->walk([](NVVM::WgmmaMmaAsyncOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}
