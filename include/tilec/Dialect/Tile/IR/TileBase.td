//===- TileBase.td - The tile dialect and its base classes -*- tablegen -*-===//
//
// The `tile` dialect holds a Tile program after binding: static-shaped
// builtin tensors, elementwise ops with NumPy broadcasting, and contractions
// carrying their index maps, constraints and exact index ranges.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEBASE_TD
#define TILEC_DIALECT_TILE_IR_TILEBASE_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilec::tile";
  let summary = "Tile tensor programs after binding";
  let description = [{
    The `tile` dialect is the first MLIR level of tilec. One function holds
    one bound Tile entry function: every value is a builtin ranked tensor of
    static shape (rank 0 allowed) whose element type is one of Tile's (i1 for
    bool, si8..si64, ui8..ui64, f16, bf16, f32, f64; signedness lives in the
    type at this level). Elementwise ops broadcast like NumPy; `tile.contract`
    carries a whole contraction.
  }];
  let hasConstantMaterializer = 1;
}

/// Base class of every tile op.
class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

/// The element types of Tile (docs/language.md 5.1).
def Tile_ElementType : AnyTypeOf<[I1, SI8, SI16, SI32, SI64, UI8, UI16, UI32,
                                  UI64, F16, BF16, F32, F64]>;
def Tile_IntegerElementType : AnyTypeOf<[SI8, SI16, SI32, SI64, UI8, UI16,
                                         UI32, UI64]>;
def Tile_FloatElementType : AnyTypeOf<[F16, BF16, F32, F64]>;

/// A static-shaped tensor of a Tile element type.
def Tile_Tensor : StaticShapeTensorOf<[Tile_ElementType]>;
def Tile_IntegerTensor : StaticShapeTensorOf<[Tile_IntegerElementType]>;
def Tile_FloatTensor : StaticShapeTensorOf<[Tile_FloatElementType]>;
def Tile_BoolTensor : StaticShapeTensorOf<[I1]>;
def Tile_IndexTensor : StaticShapeTensorOf<[SI32]>;
def Tile_F32Tensor : StaticShapeTensorOf<[F32]>;
def Tile_PrngStateTensor : StaticShapeTensorOf<[UI32]>;
/// Operands of bitwise ops: integers, or bools (logical).
def Tile_BitwiseTensor : StaticShapeTensorOf<[I1, SI8, SI16, SI32, SI64, UI8,
                                              UI16, UI32, UI64]>;
/// Operands of arithmetic ops: everything but bool.
def Tile_NumericTensor : StaticShapeTensorOf<[SI8, SI16, SI32, SI64, UI8,
                                              UI16, UI32, UI64, F16, BF16, F32,
                                              F64]>;

#endif // TILEC_DIALECT_TILE_IR_TILEBASE_TD
