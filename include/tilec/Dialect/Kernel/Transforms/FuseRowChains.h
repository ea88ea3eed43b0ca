//===- FuseRowChains.h - One row nest per chain of row kernels --*- C++ -*-===//
//
// A softmax or a layer norm is a chain of kernels over the same rows: row
// reductions, loops over the row's columns, work on the row's scalars.
// Fused, the row is read once from memory and its steps run while it is
// still in registers or cache. Used by tilec-gpu-fuse-rows (one work-group
// per row) and tilec-cpu-row-kernels (one thread's iteration per row).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_TRANSFORMS_FUSEROWCHAINS_H
#define TILEC_DIALECT_KERNEL_TRANSFORMS_FUSEROWCHAINS_H

#include "tilec/Dialect/Kernel/Analysis/RowNest.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilec {

/// Whether a back end can run a candidate row nest well.
using RowNestFilter = llvm::function_ref<bool(const RowNest &)>;

/// Replaces every chain of kernel nests in `function` that starts at a row
/// reduction of at least kMinRowColumns columns (RowNest.h) and goes on
/// over the same rows by one nest: the shared row loops with each kernel's
/// row body inside, in order, while the result is still a row nest that
/// `accept` (when given) takes. The nest is named FIRST..LAST and
/// fingerprinted afresh; a lone reduction becomes such a nest too. Nests
/// with a schedule are left alone. Returns the fused nests.
llvm::SmallVector<mlir::affine::AffineForOp>
fuseRowChains(mlir::func::FuncOp function, RowNestFilter accept = {});

} // namespace tilec

#endif // TILEC_DIALECT_KERNEL_TRANSFORMS_FUSEROWCHAINS_H
