//===- ParallelBand.h - The parallel loops of a kernel nest -----*- C++ -*-===//
//
// Which loops of a kernel nest may run in parallel: the one question the
// GPU default schedule and mapping, the cost model and the CPU's kernel-nest
// matcher (KernelNest.h) all ask, answered once so that they agree on the
// loops a schedule numbers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_ANALYSIS_PARALLELBAND_H
#define TILEC_DIALECT_KERNEL_ANALYSIS_PARALLELBAND_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace tilec {

/// The kernel nests of `func` (its top-level affine.for ops that carry
/// `tilec.kernel`), in program order.
llvm::SmallVector<mlir::affine::AffineForOp>
getKernelNests(mlir::func::FuncOp func);

/// What a caller needs of a band loop beyond independent iterations.
struct BandOptions {
  /// Only loops from 0 with unit step: the CPU tiles a band loop by its
  /// upper bound.
  bool zeroBasedUnitStep = false;
};

/// Whether `loop` may be a band loop: constant bounds, a constant trip
/// count of at least one, no iter_args, a 0-based unit step if `options`
/// asks, and no memory dependence carried between its iterations (two that
/// touch the same cell, one of them writing). Affine accesses are checked
/// with the affine dependence analysis, every ordered pair of them; a
/// data-dependent `memref.load` is allowed only from a memref the loop does
/// not write; a written buffer must be reached through one value (no view
/// of it); any other side effect fails.
bool isParallelBandLoop(mlir::affine::AffineForOp loop,
                        const BandOptions &options = {});

/// The outer band of `kernel` whose iterations are independent: `kernel`
/// and the loops perfectly nested in it, outermost first, for as long as
/// each is isParallelBandLoop. Empty when the outermost loop already fails:
/// the nest then runs serially.
llvm::SmallVector<mlir::affine::AffineForOp>
getParallelBand(mlir::affine::AffineForOp kernel,
                const BandOptions &options = {});

/// The trip counts of `band`'s loops (each at least one for a band from
/// getParallelBand), outermost first.
llvm::SmallVector<int64_t>
getBandExtents(llvm::ArrayRef<mlir::affine::AffineForOp> band);

/// The register reduction of a band's innermost loop: its one affine.for
/// with iter_args and constant bounds, preceded only by ops that write
/// nothing (every work-item runs them, out-of-range ones on clamped
/// indices); null when there is none. What staging operands needs: the cost
/// model proposes it, and the GPU mapping stages, only for such a loop.
mlir::affine::AffineForOp
getRegisterReduction(mlir::affine::AffineForOp innermostBandLoop);

} // namespace tilec

#endif // TILEC_DIALECT_KERNEL_ANALYSIS_PARALLELBAND_H
