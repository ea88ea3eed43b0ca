//===- TileEnums.td - Enumerations of the tile dialect -----*- tablegen -*-===//
//
// The aggregation and combination kinds of contractions (docs/language.md
// 7.4, 7.5) and the predicates of tile.cmp. Each is an integer attribute
// that prints as its bare keyword, like arith.cmpi's predicate.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEENUMS_TD
#define TILEC_DIALECT_TILE_IR_TILEENUMS_TD

include "tilec/Dialect/Tile/IR/TileBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_AggregationKindAttr : I32EnumAttr<"AggregationKind",
    "how a contraction aggregates the contributions to one cell", [
      I32EnumAttrCase<"sum", 0>,
      I32EnumAttrCase<"prod", 1>,
      I32EnumAttrCase<"max", 2>,
      I32EnumAttrCase<"min", 3>,
      I32EnumAttrCase<"assign", 4>
    ]> {
  let cppNamespace = "::tilec::tile";
}
def Tile_CombinationKindAttr : I32EnumAttr<"CombinationKind",
    "how a contraction combines its operands' elements", [
      I32EnumAttrCase<"none", 0>,
      I32EnumAttrCase<"mul", 1>,
      I32EnumAttrCase<"add", 2>,
      I32EnumAttrCase<"eq", 3>,
      I32EnumAttrCase<"cond", 4>
    ]> {
  let cppNamespace = "::tilec::tile";
}
def Tile_CmpPredicateAttr : I32EnumAttr<"CmpPredicate",
    "the comparison tile.cmp performs", [
      I32EnumAttrCase<"lt", 0>,
      I32EnumAttrCase<"gt", 1>,
      I32EnumAttrCase<"le", 2>,
      I32EnumAttrCase<"ge", 3>,
      I32EnumAttrCase<"eq", 4>,
      I32EnumAttrCase<"ne", 5>
    ]> {
  let cppNamespace = "::tilec::tile";
}
#endif // TILEC_DIALECT_TILE_IR_TILEENUMS_TD
