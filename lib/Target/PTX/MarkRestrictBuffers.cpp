//===- MarkRestrictBuffers.cpp - tilec-ptx-mark-restrict-buffers ----------===//
//
// llvm.noalias (and llvm.readonly) on the kernel arguments that, like the
// OpenCL emitter's `restrict` ones, share their buffer with no other
// argument (Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX/Passes.h"

#include "tilec/Target/GPU/GPUProgram.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace tilec {
#define GEN_PASS_DEF_TILECPTXMARKRESTRICTBUFFERSPASS
#include "tilec/Target/PTX/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

constexpr int64_t kBufferAlignment = 16;

struct MarkRestrictBuffersPass
    : tilec::impl::TilecPTXMarkRestrictBuffersPassBase<
          MarkRestrictBuffersPass> {
  void runOnOperation() override {
    FailureOr<tilec::gpuprogram::GPUProgram> program =
        tilec::gpuprogram::analyzeGPUProgram(getOperation());
    if (failed(program))
      return signalPassFailure();
    Builder builder(&getContext());
    for (const tilec::gpuprogram::KernelLaunch &launch : program->launches)
      for (auto [index, arg] : llvm::enumerate(launch.args)) {
        if (arg.buffer < 0)
          continue;
        gpu::GPUFuncOp kernel = launch.kernel;
        // Every buffer is an allocation of its own (cuMemAlloc aligns to
        // 256 bytes), so adjacent loads may merge into vector loads.
        kernel.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                          builder.getI64IntegerAttr(kBufferAlignment));
        if (arg.aliased)
          continue;
        kernel.setArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName(),
                                 builder.getUnitAttr());
        if (arg.access == tilec::rt::Access::Read)
          kernel.setArgAttr(index,
                                   LLVM::LLVMDialect::getReadonlyAttrName(),
                                   builder.getUnitAttr());
      }
  }
};

} // namespace
