//===- Passes.h - Loop-level transforms of tilec ----------------*- C++ -*-===//
//
// Declares the loop-level passes every back end runs
// (tilec-kernel-fingerprint-kernels, tilec-kernel-reuse-temporary-buffers,
// tilec-kernel-share-temporary-buffers, tilec-kernel-set-gpu-target) and
// their registration, generated from Passes.td. The CPU-only passes are in
// tilec/Target/LLVM/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_TRANSFORMS_PASSES_H
#define TILEC_DIALECT_KERNEL_TRANSFORMS_PASSES_H

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tilec/Dialect/Kernel/Transforms/Passes.h.inc"

/// The fingerprint tilec-kernel-fingerprint-kernels gives kernel nest `op`
/// (16 hexadecimal digits), for passes that make new kernels.
std::string fingerprintKernel(mlir::Operation *op);

} // namespace tilec

#endif // TILEC_DIALECT_KERNEL_TRANSFORMS_PASSES_H
