//===- Passes.h - Loop-level transforms of tilec ----------------*- C++ -*-===//
//
// Declares the loop-level transform passes (tilec-cpu-default-schedule,
// tilec-apply-cpu-schedule, tilec-parallelize-outer-loops,
// tilec-share-temporary-buffers) and their registration, generated from
// Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TRANSFORMS_PASSES_H
#define TILEC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

/// A unit attribute on an affine.for whose iterations are independent, set
/// by the pass that made the loop (tilec-apply-cpu-schedule, for the loops
/// of a kernel's parallel band) so that tilec-parallelize-outer-loops need
/// not prove it again.
inline constexpr llvm::StringLiteral kParallelLoopAttrName = "tilec.parallel";

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tilec/Transforms/Passes.h.inc"

} // namespace tilec

#endif // TILEC_TRANSFORMS_PASSES_H
