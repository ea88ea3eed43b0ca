//===- FuseRows.cpp - tilec-gpu-fuse-rows ---------------------------------===//
//
// Row chains (FuseRowChains.h) become one nest each, which the GPU mapping
// runs with one work-group per row. Only for a #tilec.gpu_target that names
// a device that is not a CPU, as tilec-gpu-flatten-contractions.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Kernel/Transforms/FuseRowChains.h"
#include "tilec/Schedule/DeviceProfile.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUFUSEROWSPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

namespace {

struct FuseRowsPass
    : tilec::impl::TilecGPUFuseRowsPassBase<FuseRowsPass> {
  void runOnOperation() override {
    if (tilec::schedule::isKnownGPU(
            tilec::kernel::getGPUTarget(getOperation())))
      tilec::fuseRowChains(getOperation());
  }
};

} // namespace
