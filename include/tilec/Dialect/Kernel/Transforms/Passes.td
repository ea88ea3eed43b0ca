//===- Passes.td - Loop-level transforms of tilec --------*- tablegen -*-===//
//
// The loop-level passes every back end runs. TableGen generates the pass
// classes, their create functions and registerTilecKernelTransformsPasses().
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_KERNEL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ShareTemporaryBuffersPass
    : Pass<"tilec-kernel-share-temporary-buffers", "::mlir::func::FuncOp"> {
  let summary = "Store temporaries whose lifetimes do not overlap together";
  let description = [{
    Plans the function's temporaries (top-level memref.alloc ops) with
    `tilec::planTemporaries` (TemporaryPlan.h): each gets a live interval
    over the top-level ops and a storage slot shared with temporaries that
    are never alive at the same time. Each slot becomes one 64-byte aligned
    `memref<Nxi8>` allocation, each temporary a `memref.view` of its slot,
    and the slots are deallocated before the return in place of the
    temporaries. Allocations that escape or are aliased at the top level
    are left as they are.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

#endif // TILEC_DIALECT_KERNEL_TRANSFORMS_PASSES_TD
