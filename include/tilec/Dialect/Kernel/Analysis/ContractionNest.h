//===- ContractionNest.h - A kernel nest read as a contraction --*- C++ -*-===//
//
// The index classification every tiler builds on (docs/architecture.md;
// the GPU's outer-product tiling, later the CPU's micro-kernel): a kernel
// nest whose band cells each run one register reduction
//
//   for band... { prologue; r = for k... iter_args(acc = init) {
//                   acc' = aggregate(acc, combine(f(load A), g(load B))) };
//                 epilogue(r); store }
//
// where the reduction may be a chain of loops (a convolution's window rows,
// columns and channels) and its step may be guarded by an affine.if whose
// else keeps the accumulator (the window's taps outside the image),
// is split, from its index maps alone (never from op names), into the two
// operands the reduction combines and the role of every loop: a band loop
// read by one operand only is that operand's free loop (an M or N index),
// one read by both is a batch index, one read by neither an outer one; the
// reduction loops are read by both. So matmul, batched matmul, dense layers
// and their transposes are recognised alike, and anything else is not a
// match rather than a wrong one.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_ANALYSIS_CONTRACTIONNEST_H
#define TILEC_DIALECT_KERNEL_ANALYSIS_CONTRACTIONNEST_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tilec {

/// What a band loop is to a contraction.
enum class BandRole {
  Free0, ///< read by operand 0 only (its rows: an M index)
  Free1, ///< read by operand 1 only (its columns: an N index)
  Batch, ///< read by both operands
  Outer, ///< read by neither (an output-only index)
};

/// One input of the combination: a load and the pure ops that make the
/// value combined from it (a cast, a scale).
struct ContractionOperand {
  mlir::affine::AffineLoadOp load;
  /// The ops between the load and the value, in program order.
  llvm::SmallVector<mlir::Operation *> slice;
  /// What the combination consumes.
  mlir::Value value;
  /// Whether neighbouring iterations of the operand's one free loop read
  /// neighbouring elements: the last memref dimension moves with it by
  /// one and no other dimension moves with it.
  bool contiguousAlongFree = false;
  /// For a contiguous operand: the largest power of two (up to 16) that
  /// divides the element offset of every iteration whose free index is a
  /// multiple of it, so that a vector load of that many neighbours there
  /// is aligned to its size; 1 when nothing is known.
  int64_t alignedElements = 1;
  /// The same two facts along the innermost reduction loop (the tensor
  /// cores' staging copies an operand along whichever it is contiguous in).
  bool contiguousAlongReduction = false;
  int64_t alignedAlongReduction = 1;
  /// Whether each run of kReductionRun reduction iterations that starts at
  /// a multiple of kReductionRun reads that many neighbouring elements from
  /// an element offset that is a multiple of kReductionRun, though the runs
  /// need not follow each other: a flattened convolution's image, whose
  /// window moves every CI input channels (CI a multiple of the run). True
  /// for a contiguous operand so aligned.
  bool alignedRunsAlongReduction = false;
  static constexpr int64_t kReductionRun = 8;
};

struct ContractionNest {
  llvm::SmallVector<mlir::affine::AffineForOp> band;
  llvm::SmallVector<BandRole> roles; ///< one per band loop
  /// The reduction: one loop with one iter_arg directly in the innermost
  /// band loop's body, whose result the epilogue uses and whose init is
  /// where it starts.
  mlir::affine::AffineForOp reduction;
  /// The loops of the reduction, outermost (`reduction`) first; each but
  /// the innermost holds only the next.
  llvm::SmallVector<mlir::affine::AffineForOp> reductionChain;
  /// The affine.if around the innermost loop's step, if it has one: its
  /// then-block holds the loads, the combination and the aggregation; its
  /// else yields the accumulator unchanged.
  mlir::affine::AffineIfOp guard;
  ContractionOperand operands[2];
  /// acc' = aggregate(acc, combined), combined = combine(operand 0, operand
  /// 1); both pure, with one result.
  mlir::Operation *combine = nullptr;
  mlir::Operation *aggregate = nullptr;
  /// The ops of the innermost band body around the reduction (constants,
  /// the epilogue that uses its result, the final store), in order.
  llvm::SmallVector<mlir::Operation *> prologue, epilogue;

  /// The band position of the one loop of `role`, or -1 when there is
  /// none or several.
  int loopOf(BandRole role) const;
  /// The innermost loop of the reduction, whose iter_arg the aggregation
  /// takes.
  mlir::affine::AffineForOp innermost() const {
    return reductionChain.back();
  }
};

/// Matches `kernel` with its parallel `band` (ParallelBand.h); std::nullopt
/// when the nest does not have the form above: the band's loops from 0 with
/// unit steps, each operand read by one affine load whose map moves with
/// a loop of the reduction, every reduction loop with constant bounds from
/// 0 and unit steps, the epilogue
/// free of loops and stores but the last op, one affine store of the
/// cell.
std::optional<ContractionNest>
matchContractionNest(mlir::affine::AffineForOp kernel,
                     llvm::ArrayRef<mlir::affine::AffineForOp> band);

/// With dimension `dim` written as run * q + r (r in [0, run)), the
/// coefficient c of r when `expr` is a function of q alone plus c * r; none
/// when it is not that simple. `dim floordiv m` (0) and `dim mod m` (1)
/// with m a multiple of `run` split so: a flattened window's tap and
/// channel, over runs of `run` channels; so do they of `dim` plus a
/// multiple of `run` (a split reduction's slice start).
std::optional<int64_t> coefficientOverRuns(mlir::AffineExpr expr,
                                           unsigned dim, int64_t run);

} // namespace tilec

#endif // TILEC_DIALECT_KERNEL_ANALYSIS_CONTRACTIONNEST_H
