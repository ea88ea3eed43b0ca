//===- MLIRGen.h - The typed program as tile dialect IR ---------*- C++ -*-===//
//
// Lowers a bound, typed Tile program (TypedAST.h) to one func.func of tile
// ops, one op per typed-AST node, with the source location of each node.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_MLIRGEN_MLIRGEN_H
#define TILEC_MLIRGEN_MLIRGEN_H

#include "tilec/Frontend/TypedAST.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

/// Builds a module holding `func.func @<entry or "main">` whose arguments
/// are the program's inputs and whose results are its outputs, both in
/// header order, with `tilec.input_names` / `tilec.output_names` attributes.
/// Every op carries a FileLineColLoc resolved through `sourceMgr` (wrapped
/// in a NameLoc with the Tile value's name). Loads the tile and func
/// dialects into `context`. Returns null after emitting an error on the
/// context when an index polynomial does not fit in 64-bit coefficients.
mlir::OwningOpRef<mlir::ModuleOp> genModule(mlir::MLIRContext &context,
                                            const typed::Program &program,
                                            const llvm::SourceMgr &sourceMgr);

} // namespace tilec

#endif // TILEC_MLIRGEN_MLIRGEN_H
