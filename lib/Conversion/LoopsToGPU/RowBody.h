//===- RowBody.h - A row nest as one work-group per row ---------*- C++ -*-===//
//
// Emits the body of a kernel whose schedule maps a row nest (the RowPlan of
// its KernelPlan).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_LOOPSTOGPU_ROWBODY_H
#define TILEC_LIB_CONVERSION_LOOPSTOGPU_ROWBODY_H

#include "KernelPlan.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tilec {

/// Emits at `b` one work-item's share of its work-group's row: the row from
/// the work-group's number, then each step of the row in order, over the
/// work-item's columns unrolled: a columns loop as its body per column (the
/// stores of a column past the row's end skipped), a reduction as the
/// work-item's partial result then a tree over the work-group in its
/// scratch row of `scratch` (barriers between levels), or, on a CUDA
/// device, shuffles within each warp and one barrier between warps (32-bit
/// values), row scalars as they are. Values of the kernel's private buffers are passed along in
/// registers; inputs loaded twice at one place are loaded once.
void emitRowBody(KernelPlan &plan, mlir::OpBuilder &b,
                 mlir::IRMapping &mapping, mlir::ValueRange scratch);

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_LOOPSTOGPU_ROWBODY_H
