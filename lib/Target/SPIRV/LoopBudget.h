//===- LoopBudget.h - Loop iterations one invocation runs -------*- C++ -*-===//
//
// Some drivers stop an invocation's loops after a fixed number of
// iterations of all of them together (Mesa's llvmpipe: 65535) and carry on
// with partial results. tilec-spirv-check-device refuses a kernel that may
// run more on such a device, using this count.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_LOOPBUDGET_H
#define TILEC_LIB_TARGET_SPIRV_LOOPBUDGET_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <cstdint>
#include <optional>

namespace tilec::spirv {

/// An upper bound on the loop iterations one invocation of `func` runs,
/// every iteration of every scf.for counted (a loop inside another counts
/// once per iteration of the outer one), saturating at UINT64_MAX; nothing
/// when a loop's trip count has no constant bound that its bounds' ops show.
std::optional<uint64_t> loopIterationsPerInvocation(mlir::gpu::GPUFuncOp func);

} // namespace tilec::spirv

#endif // TILEC_LIB_TARGET_SPIRV_LOOPBUDGET_H
