//===- Passes.h - Passes every GPU back end may use -------------*- C++ -*-===//
//
// The pass declarations generated from Passes.td. Public for lib/Pipelines,
// which puts them into the SPIR-V and PTX pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GPU_PASSES_H
#define TILEC_TARGET_GPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tilec/Target/GPU/Passes.h.inc"

namespace f64math {
/// Whether `op` is a math op on f64 (or a vector of f64) that
/// tilec-gpu-expand-software-math computes in software: a device without
/// Int64 cannot run it (the expansions work on the bits of doubles).
bool isSoftwareF64MathOp(mlir::Operation *op);
} // namespace f64math

} // namespace tilec

#endif // TILEC_TARGET_GPU_PASSES_H
