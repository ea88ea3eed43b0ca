//===- Passes.td - Passes on tile programs and kernels ---*- tablegen -*-===//
//
// The passes that prepare tile programs for lowering (bounds, reindexing,
// fusion). One pass per .cpp file in lib/Dialect/Tile/Transforms.
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

def TileReindexSinkPass
    : Pass<"tile-reindex-sink", "::mlir::func::FuncOp"> {
  let summary = "Make the output coordinates of every contraction its loop "
                "variables";
  let description = [{
    A contraction whose output indices are not each a constant or one
    variable plus a constant, the variables distinct (`O[j + c]`,
    `O[2 * j]`, `O[i + j, i - j]`, `O[i, i]`), sends several assignments to
    one cell: lowered as it is, it accumulates into memory in one serial
    loop nest. This pass changes its variables so that each output
    coordinate is one of them; the per-cell lowering then computes every
    cell on its own, parallel over the cells, with the remaining variables
    reduced inside.

    The new variables are the output coordinates `o` (one per output index
    that is not a constant) followed by the old variables that remain free.
    Output row by row, `a * x_v + rest = o` is solved for one old variable
    `x_v` (the one that leaves the fewest iterations inside each cell):
    `x_v = o - rest` when `a` is 1 (a unimodular change of variables);
    when the row is `a * x_v + b * x_w` plus constants and coordinates with
    b = +-1 (a transposed convolution's `2 * y + ky - 1`), `x_w` steps
    through its residue class, `x_w = (b * (o - c)) mod a + a * t`, with t a
    new variable, and `x_v` is exact; else `x_v = (o - rest) floordiv a`
    with the lattice condition `(o - rest) mod a == 0`. A row with no free
    variable left, or with a variable under `floordiv`, becomes the
    equality `o == row`. The old variables' ranges become constraints,
    every map and constraint is rewritten through the substitution, and
    `q floordiv d` rows whose `q mod d == 0` is a constraint are solved as
    `q = d * o`.

    Precondition: every one-variable inequality (no `mod`) among the
    constraints holds on the variable's whole range, as MLIRGen and
    tile-compute-bounds leave it. Postcondition: the same, with each
    output coordinate's range narrowed to the cells its row can reach, and
    the contraction has the same contributions at every cell.
  }];
}

def TileFuseElementwisePass
    : Pass<"tile-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Group elementwise ops with the contraction that feeds them";
  let description = [{
    Marks a producer with the unit attribute `tilec.fused` when its result is
    better computed inside the loop nest of its consumers than stored in a
    buffer of its own. `convert-tile-to-loops` honours the mark, so each
    tree of marked ops and the op at its end lowers to one loop nest, where
    each marked value is computed once per cell however often it is read
    there.

    A producer is fused when all its users end up in one loop nest, and it
    is an elementwise op read by elementwise ops or contractions, or a
    contraction read only by elementwise ops of its shape. A contraction is
    fused only when its output map is a permutation of distinct index
    variables covering every output dimension: then each output cell is one
    assignment of the output variables and its reduction can run in
    registers inside the consumer's loop over the cells. A contraction's
    result, or an elementwise function of it, is not fused into a
    contraction that reads it: that would redo the work at every
    multiply-add, so it ends a loop nest of its own (an epilogue of the
    contraction that made it) instead.
  }];
}

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
