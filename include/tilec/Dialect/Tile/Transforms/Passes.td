//===- Passes.td - Passes on tile programs and kernels ---*- tablegen -*-===//
//
// The passes that prepare tile programs for lowering (bounds, fusion) and
// the ones that finish the loop level it produces (buffer planning, kernel
// fingerprints). One pass per .cpp file in lib/Dialect/Tile/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileComputeBoundsPass
    : Pass<"tile-compute-bounds", "::mlir::func::FuncOp"> {
  let summary = "Fold contraction constraints into the index variables' ranges";
  let description = [{
    Every `tile.contract` carries the exact range of each index variable in
    `lower_bounds`/`upper_bounds` (the hull of its values over the valid
    assignments). A constraint inequality that mentions a single variable
    (and no `mod`) is then implied by that range: its feasible set is an
    interval containing every valid value. This pass drops such inequalities
    from `cons`, so the loops' bounds carry them and the lowering emits no
    guard for them. Equalities (integrality) and inequalities over several
    variables are kept. A variable whose range is empty makes the whole
    contraction empty; nothing is changed then.

    Precondition: the ranges are exact, as MLIRGen emits them from the typed
    program. Postcondition: the contraction has the same valid assignments.
  }];
}

def TileFuseElementwisePass
    : Pass<"tile-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Group elementwise ops with the contraction that feeds them";
  let description = [{
    Marks a producer with the unit attribute `tilec.fused` when its result is
    better computed inside the loop nest of its single consumer than stored
    in a buffer of its own. `convert-tile-to-loops` honours the mark, so each
    group of marked ops and their consumer lowers to one loop nest.

    A producer is fused when its only use is by an elementwise op (or, for an
    elementwise producer, by a contraction operand) of a result with the
    same shape as the producer, and it is not a function result. A
    contraction is fused only when its output map is a permutation of
    distinct index variables covering every output dimension: then each
    output cell is one assignment of the output variables and its reduction
    can run in registers inside the consumer's loop over the cells.
  }];
}

def TilePlanBuffersPass
    : Pass<"tile-plan-buffers", "::mlir::func::FuncOp"> {
  let summary = "Reuse temporary buffers whose lifetimes do not overlap";
  let description = [{
    Runs on the loop level. Every top-level `memref.alloc` of the function
    (each temporary is allocated once, at the start) has a lifetime: the
    top-level ops between its first and last use. An allocation whose
    lifetime starts after an earlier allocation of the same type has ended
    takes over that buffer; its own `memref.alloc` and `memref.dealloc` go.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TileFingerprintKernelsPass
    : Pass<"tile-fingerprint-kernels", "::mlir::func::FuncOp"> {
  let summary = "Attach tilec.fingerprint to every kernel loop nest";
  let description = [{
    Runs on the loop level, after the last pass that changes a kernel. Each
    top-level op carrying `tilec.kernel` gets `tilec.fingerprint`: a 64-bit
    hash, in hex, of the kernel's canonical printed form with no locations,
    no names and no tilec attributes. It therefore depends only on shapes,
    element types, index maps, guards and the arithmetic (the aggregation
    included), so schedules keyed by it survive renames and source edits.
  }];
}

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
