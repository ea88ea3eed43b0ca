//===- CPUFuseRows.cpp - tilec-cpu-fuse-rows ------------------------------===//
//
// A softmax is four kernels at the loop level; run apart, each reads or
// writes the whole matrix, and its row reductions run as scalar chains
// (the CPU schedule vectorises along a parallel loop, and a row reduction
// has none that is contiguous). Fused into one row nest (FuseRowChains.h),
// a row is read from memory once and its later steps find it in L1.
//
// A chain is fused only while every step can be vectorised: a reduction
// along a strided dimension (a column sum) is left to the CPU schedule,
// which vectorises across its rows instead. The fused nests are marked
// `tilec.row_kernel`: no schedule is made for them; tilec-cpu-row-kernels
// vectorises them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/Transforms/Passes.h"

#include "ColumnVectorizer.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Kernel/Transforms/FuseRowChains.h"

namespace tilec {
#define GEN_PASS_DEF_CPUFUSEROWSPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {

struct CPUFuseRowsPass
    : public tilec::impl::CPUFuseRowsPassBase<CPUFuseRowsPass> {
  using CPUFuseRowsPassBase::CPUFuseRowsPassBase;

  void runOnOperation() override {
    int64_t bytes = transforms::vectorBytesOrHost(vectorBytes);
    auto vectorizes = [&](const RowNest &nest) {
      return transforms::rowNestVectorizes(nest, bytes);
    };
    for (affine::AffineForOp fused : fuseRowChains(getOperation(), vectorizes))
      fused->setAttr(tilec::kernel::RowKernel::getNameStr(),
                     UnitAttr::get(&getContext()));
  }
};

} // namespace
