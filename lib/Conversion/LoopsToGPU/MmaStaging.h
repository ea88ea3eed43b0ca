//===- MmaStaging.h - Staging 16-bit tiles for tensor cores -----*- C++ -*-===//
//
// What the two tensor-core bodies share (MmaBody.cpp: mma.sync;
// WgmmaBody.cpp: Hopper's wgmma): their operands' chunks copied into tiles
// of local memory (16-bit, or f32 for TF32), through registers or by
// cp.async, as vectors of `vector` elements along the tile's lines (the
// operand's rows along the reduction, or along its free loop where it is
// contiguous there); every element past the end of the reduction is zero,
// so that whole k steps can be computed. Where a slot of a line lies in its
// tile is the body's own (tileIndices). A `transposed` operand (TF32) is
// loaded as vectors along its free loop into registers when its chunk's
// copy starts and stored element by element into a tile read along the
// reduction when the step's computation has been issued (finishCopies).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_LOOPSTOGPU_MMASTAGING_H
#define TILEC_LIB_CONVERSION_LOOPSTOGPU_MMASTAGING_H

#include "ChunkedContraction.h"

namespace tilec {

class MmaStagingEmitter : public ChunkedContractionEmitter {
public:
  MmaStagingEmitter(KernelPlan &plan, mlir::OpBuilder &b,
                    mlir::IRMapping &mapping, mlir::ValueRange tiles);

protected:
  bool freeMajor(const Side &side) const {
    return tiling.freeMajor[side.sizes->operand];
  }
  bool transposed(const Side &side) const {
    return tiling.transposed[side.sizes->operand];
  }
  /// Whether `side` is loaded as vectors along its free loop (its tile is
  /// free-major, or it is transposed on the way).
  bool loadsAlongFree(const Side &side) const {
    return freeMajor(side) || transposed(side);
  }
  /// The lines the copies read: along k where they load along the free
  /// loop, else along the free loop; and their length.
  int64_t lines(const Side &side) const {
    return loadsAlongFree(side) ? tiling.chunk : side.sizes->block;
  }
  int64_t lineLength(const Side &side) const {
    return loadsAlongFree(side) ? side.sizes->block : tiling.chunk;
  }
  /// The indices into `side`'s tile of the vector at element `along` of
  /// line `line` of buffer `buffer`.
  virtual llvm::SmallVector<mlir::Value>
  tileIndices(const Side &side, mlir::Value buffer, mlir::Value line,
              mlir::Value along) {
    return {buffer, line, along};
  }

  ChunkValues loadChunk(const Side &side, mlir::Value chunkStart,
                        int64_t steps) override;
  void copyChunkAsync(const Side &side, mlir::Value chunkStart, int64_t steps,
                      mlir::Value buffer,
                      llvm::SmallVector<mlir::Value> &tokens) override;
  void storeChunk(const Side &side, const ChunkValues &values,
                  mlir::Value buffer) override;
  void finishCopies() override;

  mlir::Type element; ///< the operands' staged type (16-bit, or f32)

private:
  int64_t slots(const Side &side) const {
    return lines(side) * lineLength(side) / tiling.vector;
  }
  std::pair<int64_t, bool> rounds(const Side &side) const {
    return {(slots(side) + tiling.items - 1) / tiling.items,
            slots(side) % tiling.items != 0};
  }
  mlir::Value slotOf(int64_t round) { return add(item, round * tiling.items); }
  bool loadsVectors(const Side &side) const;
  mlir::VectorType slotType() {
    return mlir::VectorType::get({tiling.vector}, element);
  }

  struct SlotSource {
    llvm::SmallVector<mlir::Value> indices;
    mlir::Value inside; ///< null: always
  };
  SlotSource slotSource(const Side &side, mlir::Value chunkStart,
                        int64_t steps, mlir::Value line, mlir::Value along);
  mlir::Value memrefOf(const Side &side) {
    return mapping.lookupOrDefault(side.operand->load.getMemRef());
  }
  mlir::Value loadSlot(const Side &side, mlir::Value chunkStart,
                       int64_t steps, mlir::Value line, mlir::Value position);
  /// The line and the position in it (in vectors) of slot `slot`: where
  /// its copy reads, and where a store puts what it read.
  std::pair<mlir::Value, mlir::Value> slotPlace(const Side &side,
                                                mlir::Value slot);
  template <typename Body>
  void forEachSlot(const Side &side, Body body);
  /// `body(slot, round)` for each round of the work-item's slots, inside a
  /// guard that the slot is in the tile where the last round is partial.
  template <typename Body>
  void forEachStoredSlot(const Side &side, Body body);
  void storeTransposed(const Side &side, const ChunkValues &values,
                       mlir::Value buffer);

  /// The transposed chunks loaded and not yet stored.
  struct PendingCopy {
    const Side *side;
    ChunkValues values;
    mlir::Value buffer;
  };
  llvm::SmallVector<PendingCopy> pending;
};

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_LOOPSTOGPU_MMASTAGING_H
