//===- TileOps.h - Operations of the tile dialect ---------------*- C++ -*-===//
//
// The generated op classes of the tile dialect (tilec::tile::ContractOp,
// AddOp, ...) and its enums (AggregationKind, CombinationKind,
// CmpPredicate).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_H
#define TILEC_DIALECT_TILE_IR_TILEOPS_H

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilec/Dialect/Tile/IR/TileEnums.h.inc"

namespace tilec::tile {
/// Checks an elementwise op whose operands and result share one element type
/// and whose result shape is the NumPy broadcast of the operand shapes.
llvm::LogicalResult verifySameElementTypeBroadcast(mlir::Operation *op);
/// IntegerSet::get over `numDims` dimensions. An empty list gives the set
/// `(0 == 0)`: MLIR has no empty constraint list, and parses `()` as that.
mlir::IntegerSet getConstraintSet(mlir::MLIRContext *context, unsigned numDims,
                                  llvm::ArrayRef<mlir::AffineExpr> constraints,
                                  llvm::ArrayRef<bool> isEquality);
/// Folds an elementwise op whose operands are all constants (`operands` are
/// the folder's constant operands, null where unknown); null if it cannot.
mlir::OpFoldResult foldElementwise(mlir::Operation *op,
                                   llvm::ArrayRef<mlir::Attribute> operands);
} // namespace tilec::tile

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.h.inc"

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_H
