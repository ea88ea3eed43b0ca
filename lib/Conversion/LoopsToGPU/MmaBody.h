//===- MmaBody.h - A contraction on tensor cores ----------------*- C++ -*-===//
//
// Emits the body of a kernel whose schedule puts its contraction on tensor
// cores (`mma`, OuterProductTiling.h): each warp computes its warp tile as
// a grid of mma.sync instructions, from 16-bit tiles of both operands
// staged chunk by chunk in local memory; the result's cells then run the
// nest's epilogue. The IR holds nvgpu ops, which only the PTX pipeline
// lowers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_LOOPSTOGPU_MMABODY_H
#define TILEC_LIB_CONVERSION_LOOPSTOGPU_MMABODY_H

#include "KernelPlan.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tilec {

/// Emits at `b` the whole work of one work-item of a tensor-core kernel,
/// with `tiles` its rows' and columns' local-memory tiles.
void emitMmaBody(KernelPlan &plan, mlir::OpBuilder &b,
                 mlir::IRMapping &mapping, mlir::ValueRange tiles);

/// The same with Hopper's warpgroup MMA (`mma` 2, WgmmaBody.cpp): each
/// warpgroup's tile as wgmma instructions reading swizzled tiles.
void emitWgmmaBody(KernelPlan &plan, mlir::OpBuilder &b,
                   mlir::IRMapping &mapping, mlir::ValueRange tiles);

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_LOOPSTOGPU_MMABODY_H
