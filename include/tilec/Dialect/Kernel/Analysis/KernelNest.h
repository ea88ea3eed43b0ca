//===- KernelNest.h - The kernel form the CPU schedule applies to -*- C++ -*-===//
//
// What tilec-cpu-apply-schedule and tilec-cpu-default-schedule know about a
// kernel: its band of parallel loops and whether its body can run several
// lanes of the innermost band loop at once.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_ANALYSIS_KERNELNEST_H
#define TILEC_DIALECT_KERNEL_ANALYSIS_KERNELNEST_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tilec::transforms {

/// A kernel whose outer loops form a band of perfectly nested parallel loops
/// `for i0 = 0 to E0 { ... for in = 0 to En { body } }` (its parallel band,
/// ParallelBand.h, of 0-based unit-step loops). The body holds only
/// pure scalar ops, affine.load, affine.apply, affine.store (at its top
/// level only) and affine.for / affine.if whose regions hold the same minus
/// stores: the shape of a contraction (reduction loops with iter_args,
/// guards) or of an elementwise kernel.
struct KernelNest {
  llvm::SmallVector<mlir::affine::AffineForOp> band;
  llvm::SmallVector<int64_t> extents;
  /// The depth of the first chain of loops below the band (the reduction
  /// loops); schedule entries may name them.
  unsigned reductionDepth = 0;
  /// Values of the body that differ between lanes of the innermost band
  /// loop; set by analyzeLanes.
  llvm::DenseSet<mlir::Value> varying;
  /// Whether the body can compute lanes of the innermost band loop as
  /// vectors (every access along it is uniform or unit-stride).
  bool vectorizable = false;

  mlir::Block *body() const { return innermost().getBody(); }
  mlir::Value laneIV() const { return innermost().getInductionVar(); }
  mlir::affine::AffineForOp innermost() const { return band.back(); }
  unsigned loopCount() const { return band.size() + reductionDepth; }
  /// The element type of the first memref the body stores to.
  mlir::Type storedElementType() const;
};

/// The operands of `guard` its condition reads (the loop level passes
/// every enclosing IV, used or not).
llvm::SmallVector<mlir::Value> usedGuardOperands(mlir::affine::AffineIfOp guard);

/// The operands of an affine map application that `map` reads (the loop
/// level passes every enclosing IV, used or not).
llvm::SmallVector<mlir::Value> usedMapOperands(mlir::AffineMap map,
                                               mlir::ValueRange operands);

/// How far each result of an access through `map` moves when `lane` grows
/// by one; std::nullopt when `lane` is a symbol or a move is not constant.
std::optional<llvm::SmallVector<int64_t>>
laneStrides(mlir::AffineMap map, mlir::ValueRange operands, mlir::Value lane);

/// Matches `kernel` (the outermost loop of a kernel); std::nullopt when it
/// does not have the form above. Runs the lane analysis too.
std::optional<KernelNest> matchKernelNest(mlir::affine::AffineForOp kernel);

} // namespace tilec::transforms

#endif // TILEC_DIALECT_KERNEL_ANALYSIS_KERNELNEST_H
