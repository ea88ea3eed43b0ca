//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
//
// Every op of the tile dialect: constants, elementwise ops with NumPy
// broadcasting, casts, index, contractions, reshape, gather, scatter and
// prng. All are Pure: values are tensors and nothing is written in place.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_TD
#define TILEC_DIALECT_TILE_IR_TILEOPS_TD

include "tilec/Dialect/Tile/IR/TileBase.td"
include "tilec/Dialect/Tile/IR/TileEnums.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Constants and index
//===----------------------------------------------------------------------===//

def Tile_ConstantOp : Tile_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "a tensor constant";
  let description = [{
    Holds a constant tensor. Scalars of Tile programs are rank-0 constants;
    like every operand they broadcast where they are used.

    ```mlir
    %c = tile.constant dense<2.500000e+00> : tensor<f32>
    %s = tile.constant dense<[2, 3]> : tensor<2xsi32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
}

def Tile_IndexOp : Tile_Op<"index", [Pure]> {
  let summary = "the coordinate of each element along one axis";
  let description = [{
    Gives an si32 tensor of the result's shape whose element is its own
    coordinate along `axis` (the `index(X, A)` builtin, docs/language.md 8.4).

    ```mlir
    %i = tile.index 1 : tensor<3x4xsi32>
    ```
  }];
  let arguments = (ins I64Attr:$axis);
  let results = (outs Tile_IndexTensor:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

/// An elementwise op of one operand: the result has the operand's type.
class Tile_UnaryOp<string mnemonic, Type type, string what>
    : Tile_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise " # what;
  let description = "Computes the " # what # " of every element of the "
    # "operand; the result has the operand's type.\n\n"
    # "```mlir\n%r = tile." # mnemonic # " %x : tensor<4xf32>\n```\n";
  let arguments = (ins type:$operand);
  let results = (outs type:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
      return foldElementwise(getOperation(), adaptor.getOperands());
    }
  }];
}

/// An elementwise op of two operands of one element type, broadcast with
/// NumPy's rule; the result has that element type and the broadcast shape.
class Tile_BinaryOp<string mnemonic, Type type, string what,
                    list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat([Pure], traits)> {
  let summary = "elementwise " # what # " with broadcasting";
  let description = "Computes the " # what # " of the operands' elements. "
    # "Both operands have the result's element type; their shapes broadcast "
    # "with NumPy's rule to the result's shape.\n\n"
    # "```mlir\n%r = tile." # mnemonic # " %a, %b : "
    # "(tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>\n```\n";
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return verifySameElementTypeBroadcast(getOperation());
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
      return foldElementwise(getOperation(), adaptor.getOperands());
    }
  }];
}

def Tile_NegOp : Tile_UnaryOp<"neg", Tile_Tensor, "negation">;
def Tile_BitNotOp : Tile_UnaryOp<"bit_not", Tile_BitwiseTensor,
                                 "bitwise not (logical not on i1)">;
def Tile_ExpOp : Tile_UnaryOp<"exp", Tile_FloatTensor, "exponential">;
def Tile_LogOp : Tile_UnaryOp<"log", Tile_FloatTensor, "natural logarithm">;
def Tile_SqrtOp : Tile_UnaryOp<"sqrt", Tile_FloatTensor, "square root">;
def Tile_SinOp : Tile_UnaryOp<"sin", Tile_FloatTensor, "sine">;
def Tile_CosOp : Tile_UnaryOp<"cos", Tile_FloatTensor, "cosine">;
def Tile_TanOp : Tile_UnaryOp<"tan", Tile_FloatTensor, "tangent">;
def Tile_AsinOp : Tile_UnaryOp<"asin", Tile_FloatTensor, "arc sine">;
def Tile_AcosOp : Tile_UnaryOp<"acos", Tile_FloatTensor, "arc cosine">;
def Tile_AtanOp : Tile_UnaryOp<"atan", Tile_FloatTensor, "arc tangent">;
def Tile_SinhOp : Tile_UnaryOp<"sinh", Tile_FloatTensor, "hyperbolic sine">;
def Tile_CoshOp : Tile_UnaryOp<"cosh", Tile_FloatTensor, "hyperbolic cosine">;
def Tile_TanhOp : Tile_UnaryOp<"tanh", Tile_FloatTensor, "hyperbolic tangent">;
def Tile_AsinhOp : Tile_UnaryOp<"asinh", Tile_FloatTensor,
                                "inverse hyperbolic sine">;
def Tile_AcoshOp : Tile_UnaryOp<"acosh", Tile_FloatTensor,
                                "inverse hyperbolic cosine">;
def Tile_AtanhOp : Tile_UnaryOp<"atanh", Tile_FloatTensor,
                                "inverse hyperbolic tangent">;
def Tile_FloorOp : Tile_UnaryOp<"floor", Tile_FloatTensor, "floor">;
def Tile_CeilOp : Tile_UnaryOp<"ceil", Tile_FloatTensor, "ceiling">;
def Tile_RoundOp : Tile_UnaryOp<"round", Tile_FloatTensor,
                                "rounding to nearest, halves away from zero">;

def Tile_AddOp : Tile_BinaryOp<"add", Tile_Tensor, "sum (wrapping on integers)",
                               [Commutative]>;
def Tile_SubOp : Tile_BinaryOp<"sub", Tile_Tensor,
                               "difference (wrapping on integers)">;
def Tile_MulOp : Tile_BinaryOp<"mul", Tile_Tensor,
                               "product (wrapping on integers)", [Commutative]>;
def Tile_DivOp : Tile_BinaryOp<"div", Tile_Tensor,
                               "quotient (truncating on integers)">;
def Tile_ShlOp : Tile_BinaryOp<"shl", Tile_IntegerTensor, "left shift">;
def Tile_ShrOp : Tile_BinaryOp<"shr", Tile_IntegerTensor,
    "right shift (arithmetic on signed, logical on unsigned types)">;
def Tile_BitAndOp : Tile_BinaryOp<"bit_and", Tile_BitwiseTensor,
                                  "bitwise and", [Commutative]>;
def Tile_BitXorOp : Tile_BinaryOp<"bit_xor", Tile_BitwiseTensor,
                                  "bitwise exclusive or", [Commutative]>;
def Tile_BitOrOp : Tile_BinaryOp<"bit_or", Tile_BitwiseTensor,
                                 "bitwise or", [Commutative]>;

def Tile_PowOp : Tile_Op<"pow", [Pure]> {
  let summary = "elementwise power with broadcasting";
  let description = [{
    Raises each element of `base` to the power of the matching element of
    `exponent`. The base has the result's element type; the exponent may have
    any numeric type and is not converted (docs/language.md 5.4).

    ```mlir
    %r = tile.pow %x, %e : (tensor<4xf32>, tensor<si32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$base, Tile_Tensor:$exponent);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat =
      "$base `,` $exponent attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tile_CmpOp : Tile_Op<"cmp", [Pure]> {
  let summary = "elementwise comparison with broadcasting";
  let description = [{
    Compares the operands' elements, which share one element type, and gives
    an i1 tensor of the broadcast shape. Comparisons with NaN are false
    except `ne`.

    ```mlir
    %r = tile.cmp lt, %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Tile_CmpPredicateAttr:$predicate, Tile_Tensor:$lhs,
                       Tile_Tensor:$rhs);
  let results = (outs Tile_BoolTensor:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_SelectOp : Tile_Op<"select", [Pure]> {
  let summary = "elementwise choice with broadcasting";
  let description = [{
    Gives `true_value` where `cond` is non-zero (NaN counts as true) and
    `false_value` elsewhere. The condition may have any element type; the
    branches have the result's element type. All three broadcast.

    ```mlir
    %r = tile.select %c, %a, %b
        : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$cond, Tile_Tensor:$true_value,
                       Tile_Tensor:$false_value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$cond `,` $true_value `,` $false_value attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_CastOp : Tile_Op<"cast", [Pure]> {
  let summary = "elementwise conversion to another element type";
  let description = [{
    Converts every element to the result's element type with the rules of
    docs/language.md 5.4: integers keep their low bits after sign or zero
    extension, conversions to float round to nearest, float to integer
    truncates toward zero, anything to i1 is "!= 0". The shape is unchanged.

    ```mlir
    %r = tile.cast %x : tensor<4xsi32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$operand);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def Tile_ContractOp : Tile_Op<"contract", [Pure, AttrSizedOperandSegments]> {
  let summary = "a Tile contraction";
  let description = [{
    `O[sink(x)] = agg over valid x of combo(inputs[k][srcs[k](x)])`, where x
    ranges over the integer points with `lower_bounds <= x <= upper_bounds`
    that satisfy `cons` and put every access and the sink inside its tensor
    (those bounds are implicit from the shapes). The dimensions of every map
    and of `cons` are the index variables, named by `var_names`.

    A rational index polynomial q/d appears in a map as `q floordiv d`; this
    is exact because `cons` holds the equality `q mod d == 0`. Constraints
    `0 <= c < b` appear in `cons` as two inequalities. MLIR has no empty
    constraint list: a contraction without constraints holds the trivially
    true `(0 == 0)` (what `()` parses to; see getConstraintSet).

    `combo` is `none` with one input, `mul`, `add` or `eq` with two, and
    `cond` (`A == B ? C`) with three; `combine_type` is the element type the
    pair is combined in. A cell that receives no contribution holds 0, or the
    element of `init` (the `default`) converted to the result type.

    ```mlir
    %c = tile.contract sum, mul (%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>)
        -> tensor<2x4xf32> {combine_type = f32,
        sink = affine_map<(d0, d1, d2) -> (d0, d1)>,
        srcs = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                affine_map<(d0, d1, d2) -> (d2, d1)>],
        cons = affine_set<(d0, d1, d2) : ()>,
        lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 3, 2>,
        var_names = ["i", "j", "k"]}
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$inputs,
                       Optional<Tile_Tensor>:$init,
                       Tile_AggregationKindAttr:$agg,
                       Tile_CombinationKindAttr:$combo,
                       TypeAttrOf<Tile_ElementType>:$combine_type,
                       AffineMapAttr:$sink,
                       AffineMapArrayAttr:$srcs,
                       IntegerSetAttr:$cons,
                       DenseI64ArrayAttr:$lower_bounds,
                       DenseI64ArrayAttr:$upper_bounds,
                       StrArrayAttr:$var_names);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $agg `,` $combo ` ` `(` $inputs `)` (`init` `(` $init^ `)`)? `:`
    functional-type(operands, results) attr-dict
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The number of index variables (the dimensions of every map).
    unsigned getNumVars() { return getSink().getNumDims(); }
  }];
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "the same elements in row-major order, another shape";
  let description = [{
    Gives the operand's elements, read in row-major order, with the result's
    shape. Element type and element count are preserved.

    ```mlir
    %r = tile.reshape %x : tensor<2x6xf32> -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$operand);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [Pure]> {
  let summary = "rows of a tensor picked by an index tensor";
  let description = [{
    `result[i..., r...] = values[clamp(indices[i...], 0, d0 - 1), r...]`
    where d0 is the first size of `values` (docs/language.md 8.5). The result
    has shape `indices.shape ++ values.shape[1:]` and the type of `values`.

    ```mlir
    %r = tile.gather %v, %i
        : (tensor<5x3xf32>, tensor<2xsi32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$values, Tile_IntegerTensor:$indices);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$values `,` $indices attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tile_ScatterOp : Tile_Op<"scatter", [Pure]> {
  let summary = "sums of updates written at rows picked by an index tensor";
  let description = [{
    Starts from zeros and, for every `j..., r...`, adds `updates[j..., r...]`
    to `result[clamp(indices[j...], 0, d0 - 1), r...]`, where d0 is the first
    size of `values`; only that size of `values` is used (docs/language.md
    8.5). The result has shape `[d0] ++ updates.shape[rank(indices):]` and
    the type of `updates`.

    ```mlir
    %r = tile.scatter %e, %i, %v
        : (tensor<4x3xf32>, tensor<4xsi32>, tensor<6xf32>) -> tensor<6x3xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$updates, Tile_IntegerTensor:$indices,
                       Tile_Tensor:$values);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$updates `,` $indices `,` $values attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tile_PrngOp : Tile_Op<"prng", [Pure]> {
  let summary = "one draw of uniform random numbers and the next state";
  let description = [{
    Draws f32 values uniform in [0, 1) of the first result's shape from the
    ui32 [3, 2048] taus88 state and gives the state after the draw, as
    docs/language.md 8.6 fixes bit for bit.

    ```mlir
    %v, %s = tile.prng %state
        : (tensor<3x2048xui32>) -> (tensor<4x5xf32>, tensor<3x2048xui32>)
    ```
  }];
  let arguments = (ins Tile_PrngStateTensor:$state);
  let results = (outs Tile_F32Tensor:$result, Tile_PrngStateTensor:$new_state);
  let assemblyFormat =
      "$state attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_TD
