//===- ParallelBand.h - The parallel loops of a kernel nest -----*- C++ -*-===//
//
// Which loops of a kernel nest may run in parallel on a GPU: the question
// both the default schedule and the mapping to work-items ask.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_LOOPSTOGPU_PARALLELBAND_H
#define TILEC_CONVERSION_LOOPSTOGPU_PARALLELBAND_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace tilec {

/// The kernel nests of `func` (its top-level affine.for ops that carry
/// `tilec.kernel`), in program order.
llvm::SmallVector<mlir::affine::AffineForOp> getKernelNests(mlir::func::FuncOp func);

/// The outer band of `kernel` whose iterations are independent: `kernel`
/// and the loops perfectly nested in it, outermost first, for as long as
/// each loop has constant bounds, carries no iter_args and carries no
/// memory dependence (two iterations that touch the same cell, one of them
/// writing). Affine accesses are checked with the affine dependence
/// analysis; a data-dependent `memref.load` is allowed only from a memref
/// the nest does not write, and any other side effect ends the band. Empty
/// when the outermost loop already fails: the nest then runs serially.
llvm::SmallVector<mlir::affine::AffineForOp>
getParallelBand(mlir::affine::AffineForOp kernel);

} // namespace tilec

#endif // TILEC_CONVERSION_LOOPSTOGPU_PARALLELBAND_H
