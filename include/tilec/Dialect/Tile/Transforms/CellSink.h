//===- CellSink.h - Output maps that name each cell once --------*- C++ -*-===//
//
// The rule shared by tile-reindex-sink and convert-tile-to-loops: a
// contraction whose every output index is a constant or one index variable
// plus a constant, the variables distinct, is computed one output cell at a
// time (the cell fixes those variables; the others reduce inside). Any
// other output map is rewritten into this form by tile-reindex-sink.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_CELLSINK_H
#define TILEC_DIALECT_TILE_TRANSFORMS_CELLSINK_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace tilec::tile {
class ContractOp;

/// One output index of a contraction computed per cell: the constant
/// `offset`, plus index variable `var` when there is one.
struct CellSinkDim {
  std::optional<unsigned> var;
  int64_t offset = 0;
};

/// The output indices of `op` when each is a constant or one index variable
/// plus a constant, the variables all distinct (O[i, j], O[j, i, 0],
/// O[i + 1, j]): each cell then receives the contributions of exactly one
/// assignment of those variables, and is computed on its own. None for any
/// other output map (O[2 * i], O[i + j], O[i, i]).
std::optional<llvm::SmallVector<CellSinkDim>> getCellSink(ContractOp op);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_TRANSFORMS_CELLSINK_H
