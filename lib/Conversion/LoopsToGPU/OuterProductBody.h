//===- OuterProductBody.h - A contraction as outer products -----*- C++ -*-===//
//
// Emits the body of a kernel whose schedule tiles its contraction as outer
// products (the OuterProductPlan of its KernelPlan, OuterProductTiling.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_LOOPSTOGPU_OUTERPRODUCTBODY_H
#define TILEC_LIB_CONVERSION_LOOPSTOGPU_OUTERPRODUCTBODY_H

#include "KernelPlan.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tilec {

/// Emits at `b` the whole work of one work-item: its place in the
/// work-group and its subgroup's warp tile; the reduction in chunks, each
/// chunk of both operands loaded by all work-items together (vector loads
/// where the operand is contiguous along its free loop, else one element
/// per row or column gathered into a vector; rows and columns past the end
/// clamped), stored as vectors in `tiles` (rows' tile, then columns'), then
/// read back as `vector`-wide fragments and combined into the work-item's
/// register tile as outer products; with two buffers, the next chunk is
/// loaded while the current one is computed, one barrier per chunk. Last,
/// the nest's epilogue and store for each of the work-item's cells, the
/// cells past the end skipped.
void emitOuterProductBody(KernelPlan &plan, mlir::OpBuilder &b,
                          mlir::IRMapping &mapping, mlir::ValueRange tiles);

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_LOOPSTOGPU_OUTERPRODUCTBODY_H
