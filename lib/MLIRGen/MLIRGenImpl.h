//===- MLIRGenImpl.h - Shared state of MLIRGen ------------------*- C++ -*-===//
//
// The builder, value map and helpers that the statement and contraction
// parts of MLIRGen share. Private to lib/MLIRGen.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_MLIRGEN_MLIRGENIMPL_H
#define TILEC_LIB_MLIRGEN_MLIRGENIMPL_H

#include "tilec/Frontend/TypedAST.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/Support/SourceMgr.h"

#include <vector>

namespace tilec::mlirgen {

/// The state of lowering one typed program.
class Generator {
public:
  Generator(mlir::MLIRContext &context, const typed::Program &program,
            const llvm::SourceMgr &sourceMgr)
      : builder(&context), program(program), sourceMgr(sourceMgr),
        values(program.values.size()) {}

  /// The FileLineColLoc of `loc` (the function's location if invalid).
  mlir::Location locationOf(llvm::SMLoc loc);
  /// locationOf(loc) wrapped in a NameLoc naming the Tile value.
  mlir::Location namedLocation(llvm::SMLoc loc, llvm::StringRef name);

  mlir::Type elementType(DType dtype);
  mlir::RankedTensorType tensorType(const TensorType &type);

  /// Emits the body of the entry function; false after an error.
  bool genStatements();

  /// Lowers a contraction statement (ContractionGen.cpp); null after an
  /// error was emitted.
  mlir::Value genContraction(const typed::Statement &stmt);

  mlir::OpBuilder builder;
  const typed::Program &program;
  const llvm::SourceMgr &sourceMgr;
  /// The MLIR value of each typed value, once defined.
  std::vector<mlir::Value> values;
  mlir::Location functionLoc = builder.getUnknownLoc();

private:
  mlir::Value genStatement(const typed::Statement &stmt, mlir::Location loc);
  mlir::Value genExpr(const typed::Expr &expr);
  mlir::Value genScalarConstant(const typed::Scalar &scalar,
                                mlir::Location loc);
  mlir::Attribute scalarAttr(const typed::Scalar &scalar, mlir::Type type);
  /// `value` broadcast to `type`'s shape (NumPy rule) as a tile.contract
  /// that copies each element; `value` itself if the shapes agree.
  mlir::Value broadcastTo(mlir::Value value, mlir::RankedTensorType type,
                          mlir::Location loc);
};

} // namespace tilec::mlirgen

#endif // TILEC_LIB_MLIRGEN_MLIRGENIMPL_H
