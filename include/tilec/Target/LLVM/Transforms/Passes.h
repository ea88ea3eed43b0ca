//===- Passes.h - The CPU back end's loop-level passes ----------*- C++ -*-===//
//
// Declares the CPU back end's loop-level passes (tilec-cpu-outline-kernels,
// tilec-cpu-default-schedule, tilec-cpu-apply-schedule,
// tilec-cpu-parallelize-outer-loops) and their registration, generated from
// Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_LLVM_TRANSFORMS_PASSES_H
#define TILEC_TARGET_LLVM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

/// A unit attribute on an affine.for whose iterations are independent, set
/// by the pass that made the loop (tilec-cpu-apply-schedule, for the loops
/// of a kernel's parallel band) so that tilec-cpu-parallelize-outer-loops
/// need not prove it again.
inline constexpr llvm::StringLiteral kParallelLoopAttrName = "tilec.parallel";

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"

} // namespace tilec

#endif // TILEC_TARGET_LLVM_TRANSFORMS_PASSES_H
