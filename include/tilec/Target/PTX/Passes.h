//===- Passes.h - The PTX back end's passes ---------------------*- C++ -*-===//
//
// The pass declarations generated from Passes.td. Public for lib/Pipelines,
// which puts them into tilec-pipeline-nvvm.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PTX_PASSES_H
#define TILEC_TARGET_PTX_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tilec/Target/PTX/Passes.h.inc"

/// Whether `root` holds a Hopper warpgroup MMA (`nvvm.wgmma.mma_async`):
/// tilec-ptx-align-swizzled-shared-memory aligns such modules' shared
/// memory, and their PTX is for the chip's architecture-specific variant
/// ("sm_90a"), the only one that has the instruction.
bool usesWarpgroupMma(mlir::Operation *root);

} // namespace tilec

#endif // TILEC_TARGET_PTX_PASSES_H
