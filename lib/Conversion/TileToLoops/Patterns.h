//===- Patterns.h - Shared pieces of convert-tile-to-loops ------*- C++ -*-===//
//
// Private to lib/Conversion/TileToLoops. The lowering emits one loop nest per
// kernel; inside a nest every tensor value is read as a scalar at affine
// indices of the nest's induction variables, either loaded from its buffer
// or, for a value computed in place (a fused producer, a splat constant, an
// index), recomputed from its own operands. `KernelLowering` owns the
// buffers and that recursive read; the op families add the scalar
// arithmetic (Elementwise.cpp), contractions (Contraction.cpp) and data
// movement (DataMovement.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILETOLOOPS_PATTERNS_H
#define TILEC_LIB_CONVERSION_TILETOLOOPS_PATTERNS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace tilec::tile {
class ContractOp;
} // namespace tilec::tile

namespace tilec::loops {

/// A value in registers and its tile-level element type (i1 for bool, si32,
/// ui8, f16, ...). In registers bool is i1 and integers are signless.
struct Scalar {
  mlir::Value value;
  mlir::Type type;
};

/// Builds the body of a loop nest at the given induction variables.
using NestBody = llvm::function_ref<void(mlir::OpBuilder &, mlir::Location,
                                         mlir::ValueRange)>;

//===----------------------------------------------------------------------===//
// Element types and conversions (Elementwise.cpp)
//===----------------------------------------------------------------------===//

/// The type a tile element type has in memory: i8 for bool, iN for si/ui.
mlir::Type storageType(mlir::Type tileType);
/// The type a tile element type has in registers: i1 for bool, iN for si/ui.
mlir::Type registerType(mlir::Type tileType);
/// The memref a tensor of tile type lowers to.
mlir::MemRefType memrefTypeFor(mlir::RankedTensorType type);
/// Whether a tile element type is an unsigned integer or bool (compared and
/// extended as unsigned).
bool isUnsignedLike(mlir::Type tileType);

/// The type arithmetic of tile type `t` is done in: f32 for f16 and bf16
/// (rounded back once per operation, or per accumulated result), else `t`.
mlir::Type computeType(mlir::Type tileType);
/// `v` converted to tile type `to` with the rules of docs/language.md 5.4.
Scalar convertScalar(mlir::OpBuilder &b, mlir::Location loc, Scalar v,
                     mlir::Type to);
/// `x` (a float, or an integer that is unsigned when `isUnsigned`) rounded
/// once, to nearest even, into f16 or bf16, with the interpreter's bits
/// (NarrowFloat.cpp). Every conversion into them goes through here.
mlir::Value roundToNarrowFloat(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value x, bool isUnsigned,
                               mlir::FloatType to);
/// The zero of a tile element type, in registers.
Scalar zeroScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);
/// A register value made from memory (bool: i8 -> i1) and back.
Scalar fromStorage(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                   mlir::Type tileType);
mlir::Value toStorage(mlir::OpBuilder &b, mlir::Location loc, Scalar v);
/// The truth of `v` (non-zero; NaN is true) as i1.
mlir::Value truthOf(mlir::OpBuilder &b, mlir::Location loc, Scalar v);

/// The scalar result of elementwise `op` for operand scalars `args`.
mlir::FailureOr<Scalar> emitElementwiseScalar(mlir::OpBuilder &b,
                                              mlir::Operation *op,
                                              llvm::ArrayRef<Scalar> args);
/// The indices at which operand `operandType` of an elementwise op is read
/// when the result (of rank `resultRank`) is read at `resultIndices`.
mlir::AffineMap broadcastMap(mlir::AffineMap resultIndices,
                             mlir::RankedTensorType operandType);

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// The lowering of one function: buffers of its values and the scalar read
/// of any value inside a nest.
class KernelLowering {
public:
  KernelLowering(mlir::ModuleOp module, mlir::OpBuilder &topBuilder)
      : module(module), top(topBuilder) {}

  /// The memref that holds `v`, or null when `v` is computed where it is read.
  mlir::Value bufferOf(mlir::Value v) const { return buffers.lookup(v); }
  void setBuffer(mlir::Value v, mlir::Value memref) { buffers[v] = memref; }
  /// Whether `v` is computed where it is read (no buffer of its own).
  bool isInlined(mlir::Value v) const { return inlined.contains(v); }
  void setInlined(mlir::Value v) { inlined.insert(v); }

  /// The element of tensor `v` at indices `map(dims)`: a load from its buffer
  /// or, for an inlined value, its computation there.
  mlir::FailureOr<Scalar> readValue(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value v, mlir::AffineMap map,
                                    mlir::ValueRange dims);
  /// Whether reading `v` computes a contraction's reduction there (`v` or
  /// an inlined value it is computed from is a contraction without a
  /// buffer).
  bool readReduces(mlir::Value v) const;
  /// The element of the result of `op` at `map(dims)`, computed from its
  /// operands (never from its own buffer).
  mlir::FailureOr<Scalar> computeAt(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Operation *op, mlir::AffineMap map,
                                    mlir::ValueRange dims);

  /// A top-level loop nest over `shape` (one iteration for rank 0) at the
  /// top builder's insertion point, named `name`; returns the outer loop.
  mlir::Operation *buildNest(mlir::Location loc, llvm::ArrayRef<int64_t> shape,
                             llvm::StringRef name, NestBody body);
  /// The kernel name for `op`: "<op>_<n>" plus the value's source name.
  std::string kernelName(mlir::Operation *op);

  /// A private constant global holding `attr` (already in storage form);
  /// returns its memref.get_global at the top builder.
  mlir::Value globalFor(mlir::Location loc, mlir::DenseElementsAttr attr);
  /// The global holding non-splat constant `v`, made before any kernel.
  mlir::Value constantGlobal(mlir::Value v) const { return globals.lookup(v); }
  void setConstantGlobal(mlir::Value v, mlir::Value g) { globals[v] = g; }

  /// Allocates a temporary buffer at the top builder (freed at the end).
  mlir::Value allocTemporary(mlir::Location loc, mlir::MemRefType type);
  /// The temporaries to free when the function ends.
  llvm::ArrayRef<mlir::Value> temporaries() const { return temps; }

  /// The builder at the current top-level position of the function.
  mlir::OpBuilder &topBuilder() { return top; }

private:
  /// A cell of a value: the value, the map and the dims it is read at.
  struct CellKey {
    void *value;
    const void *map;
    std::vector<void *> dims;
    bool operator<(const CellKey &other) const {
      return std::tie(value, map, dims) <
             std::tie(other.value, other.map, other.dims);
    }
  };
  /// Whether `value` may be used at `b`'s insertion point: it is defined
  /// earlier in the same block (cells are reused only there).
  static bool isVisibleAt(mlir::Value value, mlir::OpBuilder &b);

  mlir::ModuleOp module;
  mlir::OpBuilder &top;
  /// The inlined cells computed so far, for readValue to reuse.
  std::map<CellKey, Scalar> computedCells;
  llvm::DenseMap<mlir::Value, mlir::Value> buffers;
  llvm::DenseMap<mlir::Value, mlir::Value> globals;
  llvm::DenseSet<mlir::Value> inlined;
  llvm::SmallVector<mlir::Value> temps;
  unsigned kernelCount = 0;
  unsigned globalCount = 0;
};

//===----------------------------------------------------------------------===//
// Op families
//===----------------------------------------------------------------------===//

/// The element of contraction `op`'s result at `map(dims)`, reduced in
/// registers: 0 or the default where no assignment writes it. Needs
/// tile::getCellSink(op) (CellSink.h).
mlir::FailureOr<Scalar>
emitContractionCell(KernelLowering &k, mlir::OpBuilder &b, mlir::Location loc,
                    tile::ContractOp op, mlir::AffineMap map,
                    mlir::ValueRange dims);
/// Lowers a contraction into its buffer: one nest over the cells when
/// tile::getCellSink(op), else initialisation, accumulation and (when needed)
/// finalisation nests.
mlir::LogicalResult lowerContraction(KernelLowering &k, tile::ContractOp op);

/// Lowers gather, scatter and prng into their buffers (DataMovement.cpp).
mlir::LogicalResult lowerDataMovement(KernelLowering &k, mlir::Operation *op);
/// The element of a reshape or constant at `map(dims)` (DataMovement.cpp).
mlir::FailureOr<Scalar> emitReshapeAt(KernelLowering &k, mlir::OpBuilder &b,
                                      mlir::Location loc, mlir::Operation *op,
                                      mlir::AffineMap map,
                                      mlir::ValueRange dims);
mlir::FailureOr<Scalar> emitConstantAt(KernelLowering &k, mlir::OpBuilder &b,
                                       mlir::Location loc, mlir::Operation *op,
                                       mlir::AffineMap map,
                                       mlir::ValueRange dims);

} // namespace tilec::loops

#endif // TILEC_LIB_CONVERSION_TILETOLOOPS_PATTERNS_H
