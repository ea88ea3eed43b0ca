//===- CellSink.cpp - Output maps that name each cell once ----------------===//

#include "tilec/Dialect/Tile/Transforms/CellSink.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

std::optional<SmallVector<CellSinkDim>> tile::getCellSink(ContractOp op) {
  AffineMap sink = op.getSink();
  SmallVector<CellSinkDim> dims;
  llvm::SmallBitVector seen(sink.getNumDims());
  for (AffineExpr e : sink.getResults()) {
    CellSinkDim dim;
    // Affine expressions are kept simplified: a variable plus a constant is
    // `d + c` with the constant on the right.
    if (auto sum = dyn_cast<AffineBinaryOpExpr>(e);
        sum && sum.getKind() == AffineExprKind::Add) {
      auto c = dyn_cast<AffineConstantExpr>(sum.getRHS());
      if (!c)
        return std::nullopt;
      dim.offset = c.getValue();
      e = sum.getLHS();
    }
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      if (dim.offset != 0)
        return std::nullopt;
      dim.offset = c.getValue();
    } else if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (seen.test(d.getPosition()))
        return std::nullopt;
      seen.set(d.getPosition());
      dim.var = d.getPosition();
    } else {
      return std::nullopt;
    }
    dims.push_back(dim);
  }
  return dims;
}
