//===- ChunkedContraction.h - A contraction's reduction in chunks -*- C++ -*-===//
//
// What the two tilings of a contraction across a work-group share
// (OuterProductBody.cpp: SIMT outer products; MmaBody.cpp: tensor cores):
// the work-group's block of rows (grid y) by columns (grid x), the
// reduction cut into chunks that all work-items copy into local-memory
// tiles together (one buffer, or two with the next chunk loaded while the
// current one is computed, or, on tensor cores, `pipeline` buffers filled by
// cp.async ahead of the computation), a register tile carried over the
// chunks, and
// the nest's epilogue per cell. How a chunk is copied, how it is computed
// and where a work-item's cells are is each tiling's own.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_LOOPSTOGPU_CHUNKEDCONTRACTION_H
#define TILEC_LIB_CONVERSION_LOOPSTOGPU_CHUNKEDCONTRACTION_H

#include "KernelPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tilec {

class ChunkedContractionEmitter {
public:
  ChunkedContractionEmitter(KernelPlan &plan, mlir::OpBuilder &b,
                            mlir::IRMapping &mapping, mlir::ValueRange tiles);
  virtual ~ChunkedContractionEmitter() = default;

protected:
  /// The values one chunk of an operand is staged from, one per slot the
  /// work-item copies.
  using ChunkValues = llvm::SmallVector<mlir::Value>;

  /// One grid side.
  struct Side {
    const OuterProductSide *sizes = nullptr;
    ContractionOperand *operand = nullptr;
    mlir::Value tile;
    mlir::Value freeIV;       ///< the free loop's induction variable
    int64_t extent = 0;       ///< iterations of the free loop
    mlir::Value blockStart;   ///< the work-group's first iteration of it
  };

  //===--------------------------------------------------------------------===//
  // What each tiling provides
  //===--------------------------------------------------------------------===//

  /// The work-item's share of chunk `chunkStart` of `side` in registers;
  /// of a partial chunk, `steps` iterations.
  virtual ChunkValues loadChunk(const Side &side, mlir::Value chunkStart,
                                int64_t steps) = 0;
  /// Stores `values` (loadChunk's) into buffer `buffer` of `side`'s tile.
  virtual void storeChunk(const Side &side, const ChunkValues &values,
                          mlir::Value buffer) = 0;
  /// Starts the asynchronous copies of the work-item's share of chunk
  /// `chunkStart` of `side` (`steps` iterations of it) into buffer
  /// `buffer`, adding their tokens to `tokens` (tilings with pipeline only).
  virtual void copyChunkAsync(const Side &side, mlir::Value chunkStart,
                              int64_t steps, mlir::Value buffer,
                              llvm::SmallVector<mlir::Value> &tokens);
  /// The register tile `accs` after the first `steps` iterations of the
  /// chunk in buffer `buffer`.
  virtual llvm::SmallVector<mlir::Value>
  compute(mlir::ValueRange accs, mlir::Value buffer, int64_t steps) = 0;
  /// Whether `compute` leaves the last chunk's work running, reading its
  /// buffer, until the next step's compute has waited for it (wgmma). A
  /// pipeline then copies each chunk ahead after the step's barrier rather
  /// than before it, into the buffer that the step before last read.
  virtual bool computesAsynchronously() const { return false; }
  /// What makes the chunks a work-item has copied (and waited for) ready
  /// for `compute` once the barrier after it is passed (nothing unless it
  /// reads them other than by loads).
  virtual void afterCopiesLanded() {}
  /// Completes what copyChunkAsync left in registers (stores it), once the
  /// step's compute is issued or, for the chunks copied before the first
  /// step, at once.
  virtual void finishCopies() {}

  //===--------------------------------------------------------------------===//
  // Shared steps
  //===--------------------------------------------------------------------===//

  /// The work-item's number (`item`), its block's first row and column,
  /// and the band loops on grid z; then the nest's prologue. Returns the
  /// reduction's initial value.
  mlir::Value enterBlock();
  /// Every chunk of the reduction into `accs`, with the schedule's buffers.
  llvm::SmallVector<mlir::Value> reduce(llvm::SmallVector<mlir::Value> accs);
  /// The nest's epilogue and store for the cell (`row`, `column`) whose
  /// reduction result is `value`, skipped past the ends of the free loops.
  void emitCell(mlir::Value row, mlir::Value column, mlir::Value value);
  /// The operand's value at free iteration `free` and reduction iteration
  /// `k`: its load (`raw`), or its load and slice, cloned there; taps the
  /// nest's guard excludes read the plan's fill value.
  mlir::Value operandAt(const Side &side, mlir::Value free, mlir::Value k,
                        bool raw = false);
  /// Whether the nest's guard predicates `side`'s operand (the plan's
  /// guarded operand; none without a guard).
  bool isGuarded(const Side &side) const {
    return outer.guardedOperand == int(side.sizes->operand);
  }
  /// Whether the nest's guard takes the tap of `side`'s operand, which it
  /// guards (isGuarded), at free iteration `free` and reduction iteration
  /// `k`.
  mlir::Value guardHolds(const Side &side, mlir::Value free, mlir::Value k);
  /// The indices of the operand's load at free iteration `free` and
  /// reduction iteration `k`.
  llvm::SmallVector<mlir::Value> loadIndices(const Side &side,
                                             mlir::Value free, mlir::Value k);
  /// Whether the work-groups of the last row or column of blocks reach past
  /// the end of `side`'s free loop (and their loads must be kept inside).
  static bool overhangs(const Side &side) {
    return side.extent % side.sizes->block != 0;
  }
  void barrier();

  //===--------------------------------------------------------------------===//
  // Small builders
  //===--------------------------------------------------------------------===//

  mlir::Value constant(int64_t value);
  mlir::Value add(mlir::Value lhs, mlir::Value rhs);
  mlir::Value add(mlir::Value lhs, int64_t rhs);
  mlir::Value mul(mlir::Value lhs, int64_t rhs);
  mlir::Value div(mlir::Value lhs, int64_t rhs);
  mlir::Value rem(mlir::Value lhs, int64_t rhs);
  mlir::Value min(mlir::Value lhs, int64_t rhs);
  mlir::Value less(mlir::Value lhs, int64_t rhs);
  static int64_t elementBytes(mlir::Type type) {
    return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
  }

  KernelPlan &plan;
  OuterProductPlan &outer;
  const OuterProductTiling &tiling;
  ContractionNest &nest;
  mlir::OpBuilder &b;
  mlir::IRMapping &mapping;
  mlir::Location loc;
  Side rows, columns;
  mlir::Value item; ///< the work-item's number in its work-group

private:
  Side sideOf(const OuterProductSide &sizes, mlir::Value tile);
  mlir::Value cloneOperand(const Side &side, mlir::IRMapping &at, bool raw);
  mlir::IRMapping mappingAt(const Side &side, mlir::Value free, mlir::Value k);
  llvm::SmallVector<mlir::Value> stageAndCompute(mlir::Value start,
                                                 mlir::ValueRange accs,
                                                 int64_t steps);
  void stage(mlir::Value start, mlir::Value buffer, int64_t steps);
  llvm::SmallVector<mlir::Value>
  reduceInStages(llvm::SmallVector<mlir::Value> accs);
  /// Whether a pipeline's copies include cp.async (operands all transposed
  /// through registers, MmaStaging.h's, leave nothing to wait for).
  bool anyCpAsync() const {
    return !tiling.transposed[0] || !tiling.transposed[1];
  }
  /// One step of reduceInStages: the chunk `pipeline` - 2 ahead of `start`
  /// copied (`aheadSteps` of it; none: nothing), all but the `pending`
  /// latest groups of copies waited for, a barrier, and the chunk at
  /// `start` (`steps` of it) computed.
  llvm::SmallVector<mlir::Value> stagedStep(mlir::Value start,
                                            mlir::ValueRange accs,
                                            int64_t steps, int64_t aheadSteps,
                                            int64_t pending);
  template <typename Body>
  llvm::SmallVector<mlir::Value> overChunks(int64_t first, int64_t last,
                                            mlir::ValueRange accs, Body body);
};

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_LOOPSTOGPU_CHUNKEDCONTRACTION_H
