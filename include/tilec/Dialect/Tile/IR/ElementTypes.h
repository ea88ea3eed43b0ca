//===- ElementTypes.h - Tile element types in MLIR's types -------*- C++ -*-===//
//
// Below the tile dialect, integers are signless (the loop and gpu levels, as
// arith wants them), so a memref's element type no longer says whether a
// Tile integer was signed. Where only the IR is at hand (a manifest built
// from a gpu-level file, a test tool running loop-level MLIR), integers are
// read as signed.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_ELEMENTTYPES_H
#define TILEC_DIALECT_TILE_IR_ELEMENTTYPES_H

#include "tilec/Support/DType.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace tilec {

/// The DType of a loop-level element type: f16, bf16, f32, f64, i1 as bool,
/// i8..i64 as signed; std::nullopt for any other type.
std::optional<DType> dtypeOfSignlessType(mlir::Type type);

} // namespace tilec

#endif // TILEC_DIALECT_TILE_IR_ELEMENTTYPES_H
