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

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"

} // namespace tilec

#endif // TILEC_TARGET_LLVM_TRANSFORMS_PASSES_H
