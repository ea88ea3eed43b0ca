//===- Passes.td - Conversion passes of tilec -----------*- tablegen -*-===//
//
// Every dialect conversion of tilec, in one file as in upstream MLIR and
// CIRCT. TableGen generates the pass classes, their create functions and
// registerTilecConversionPasses().
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_PASSES_TD
#define TILEC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToLoopsPass
    : Pass<"convert-tile-to-loops", "::mlir::ModuleOp"> {
  let summary = "Lower the tile dialect to affine loop nests on memrefs";
  let description = [{
    Rewrites every function whose body holds tile ops into the loop level
    that the CPU and GPU back ends share.

    Preconditions: the function takes and returns static-shaped tensors and
    its body holds only tile ops and `func.return`.

    Postconditions: the function takes memrefs, the inputs in header order
    and then the outputs in header order (written by the function), and
    returns nothing; it carries the unit attribute `tilec.entry`. Element
    types are signless: `iN` for si/ui types and `i8` for bool storage.
    Each kernel is a top-level loop nest (affine.for / affine.if /
    affine.load / affine.store, with memref.load/store where an index is
    data-dependent) annotated with `tilec.kernel`; temporaries are
    `memref.alloc`ed at the start and `memref.dealloc`ed at the end.

    A contraction whose output map is a permutation of distinct variables
    becomes one nest over the output cells with the reduction in registers;
    any other contraction becomes an initialisation nest, an accumulation
    nest and, when it must tell untouched cells apart (max, min, prod or a
    `default`), a flag buffer and a final nest. Producers marked with
    `tilec.fused` (see `tile-fuse-elementwise`) are computed inside the nest
    of their single consumer instead of in a buffer of their own.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // TILEC_CONVERSION_PASSES_TD
