//===- StagedReduction.h - A reduction reading local memory -----*- C++ -*-===//
//
// Emits the body of a kernel whose schedule stages operands (the
// StagingPlan of its KernelPlan).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_LOOPSTOGPU_STAGEDREDUCTION_H
#define TILEC_LIB_CONVERSION_LOOPSTOGPU_STAGEDREDUCTION_H

#include "KernelPlan.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tilec {

/// Where a work-item is, as the staged body needs it.
struct WorkItemPlace {
  /// Per grid dimension, the first iteration of the work-group (null for an
  /// unused or flattened dimension).
  mlir::Value blockStart[3];
  /// The work-item's number inside its work-group, x fastest.
  mlir::Value linearId;
  /// Whether the work-item's iteration lies inside the loops (null: always);
  /// the band's induction variables in `mapping` are clamped into the loops
  /// so that every work-item can run the reduction and its barriers.
  mlir::Value inBounds;
};

/// Emits at `b` the innermost band loop's body with its reduction cut into
/// blocks of `plan.staging->block` iterations: per block, the work-items
/// copy the staged operands' tiles into `tiles` together, meet at a
/// barrier, reduce from the tiles, and meet again before the next copy.
/// The reduction is unrolled by the schedule's `unroll`. The ops after the
/// reduction (the stores) run only `inBounds`.
void emitStagedBody(KernelPlan &plan, mlir::OpBuilder &b,
                    mlir::IRMapping &mapping, const WorkItemPlace &place,
                    mlir::ValueRange tiles);

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_LOOPSTOGPU_STAGEDREDUCTION_H
