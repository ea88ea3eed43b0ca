//===- Passes.h - Loop-level transforms of tilec ----------------*- C++ -*-===//
//
// Declares the loop-level transform passes (tilec-cpu-default-schedule,
// tilec-apply-cpu-schedule) and their registration, generated from
// Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TRANSFORMS_PASSES_H
#define TILEC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tilec/Transforms/Passes.h.inc"

} // namespace tilec

#endif // TILEC_TRANSFORMS_PASSES_H
