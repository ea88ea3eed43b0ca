//===- OuterProductTiling.h - The outer-product tiling's rules --*- C++ -*-===//
//
// The GPU tiling of a contraction (ContractionNest.h) that reaches library
// speed (docs/architecture.md; the ingredients are those of the best SIMT
// SGEMMs): a work-group computes a block of rows (grid y) by columns (grid
// x); the reduction runs in chunks of block[r] iterations, each chunk of
// both operands staged in local memory as tiles of `vector`-wide vectors
// (one or two buffers); every work-item keeps thread[y] x thread[x] results
// in registers over the whole reduction, reading `vector`-wide fragments of
// its rows and columns from the tiles and combining them as outer
// products; the work-items of a subgroup together cover one warp tile.
//
// The rules here are on plain numbers (the grid, the schedule, the device,
// and the contraction's shape), so that the GPU mapping, which reports the
// first one broken, and the cost model's candidate search, which keeps
// only schedules the mapping accepts, apply the same ones.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_ANALYSIS_OUTERPRODUCTTILING_H
#define TILEC_DIALECT_KERNEL_ANALYSIS_OUTERPRODUCTTILING_H

#include "tilec/Dialect/Kernel/Analysis/ContractionNest.h"
#include "tilec/Dialect/Kernel/Analysis/GPUGrid.h"
#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Schedule/Schedule.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilec {

/// What tensor cores can take from a contraction: a float sum of products
/// of two operands both loaded as f16 (or both as bf16) and extended to f32,
/// which mma.sync multiplies exactly and sums in f32; or, where the module
/// allows TF32 (kernel::allowsTF32, `--allow-tf32`), of two f32 operands
/// loaded as they are, which wgmma rounds to TF32 (10 mantissa bits)
/// before multiplying.
enum class MmaInput { None, F16, BF16, TF32 };

/// Bytes of the elements tensor cores stage for `input`: TF32 keeps f32's
/// four, f16 and bf16 their two.
inline int64_t mmaElementBytes(MmaInput input) {
  return input == MmaInput::TF32 ? 4 : 2;
}

/// What the tiling needs to know of a contraction.
struct ContractionShape {
  /// The band positions of the free loops of operand 0 and operand 1
  /// (BandRole::Free0, Free1); -1 when an operand has no single one.
  int freeLoop[2] = {-1, -1};
  /// The iterations of the reduction (the loop numbered after the band).
  int64_t reduction = 0;
  /// Bytes of one element of each operand's staged tile.
  int64_t elementBytes[2] = {4, 4};
  /// Whether the reduction starts at its aggregation's identity (0 for a
  /// sum, -inf for a maximum), so that it can be computed in slices.
  bool startsAtIdentity = false;
  /// What tensor cores can take (a guarded nest only where its guard is
  /// the same for every ContractionOperand::kReductionRun neighbouring
  /// reduction iterations starting at a multiple of it, which a 16-byte
  /// copy of 16-bit elements along the reduction then copies or zero-fills
  /// whole).
  MmaInput mmaInput = MmaInput::None;
  /// Whether the nest's guard reads each operand's free loop.
  bool guardReadsFree[2] = {false, false};
  /// Whether each operand reads neighbouring elements along its free loop
  /// (ContractionOperand::contiguousAlongFree).
  bool contiguousAlongFree[2] = {false, false};
  /// Whether each operand's tensor-core tile rows (along the free loop
  /// where it is contiguous there, else along the reduction) are runs of
  /// 16 bytes at 16-byte-aligned addresses in memory: contiguous, aligned
  /// to 8 16-bit elements, their length a multiple of 8. cp.async copies
  /// them (`pipeline`).
  bool copiesBy16Bytes[2] = {false, false};
};

/// The shape of a matched nest.
ContractionShape contractionShapeOf(const ContractionNest &nest);

/// Whether `value` is `iv` or computed from it through pure ops.
bool dependsOn(mlir::Value value, mlir::Value iv);

/// Whether the guard of `nest` reads its band loop `loop`.
bool guardReads(const ContractionNest &nest, int loop);

/// What is wrong with computing the contraction's reduction as `split`
/// slices (KernelSchedule::split), if anything: the reduction must start
/// at its aggregation's identity and `split` divide its length.
std::optional<std::string> checkReductionSplit(const ContractionShape &shape,
                                               int64_t split);

/// One grid side of the tiling: the operand whose free loop is grid y
/// (rows) or grid x (columns), and the sizes the schedule gives it.
struct OuterProductSide {
  unsigned operand = 0; ///< 0 or 1, as the combination takes them
  int loop = -1;        ///< its free loop's band position
  int64_t block = 0;    ///< work-group tile
  int64_t warp = 0;     ///< subgroup tile
  int64_t thread = 0;   ///< registers per work-item
  int64_t lanes() const { return warp / thread; }
};

/// The tiling `schedule` gives a contraction on `grid`.
struct OuterProductTiling {
  OuterProductSide rows, columns;
  int64_t vector = 1;     ///< fragment width
  int64_t chunk = 1;      ///< reduction iterations staged at a time
  int64_t buffers = 1;
  /// With `mma`: the tiles' buffers filled by cp.async, `pipeline` - 2
  /// chunks ahead of the one computed (0: through registers, `buffers`).
  int64_t pipeline = 0;
  int64_t items = 1;      ///< work-items per work-group
  /// Tensor cores (schedule `mma`): every warp tile is a grid of m16n8k16
  /// mma.sync instructions, lane l holding rows l / 4 (+ 8) and columns
  /// 2 (l % 4) (+ 1) of each, so thread[y] = warp[y] / 8 and thread[x] =
  /// warp[x] / 4; `chunk` is a multiple of k; `vector` is the width of
  /// the copies into the tiles.
  bool mma = false;
  static constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;
  /// Elements after each row of a tensor-core tile, so that the eight
  /// 16-byte rows one ldmatrix phase reads fall in distinct banks.
  static constexpr int64_t kMmaPad = 8;
  /// Hopper's warpgroup MMA (schedule `mma` 2, with `mma` also set): each
  /// warp tile is a warpgroup's (four warps, 128 work-items), computed as
  /// warp[y] / 64 wgmma m64nNk16 instructions per k step with N = warp[x],
  /// both operands read from shared memory. The tiles are rows of 64
  /// 16-bit elements (128 bytes) in the 128-byte swizzle (16-byte piece p
  /// of row r stored at piece p ^ (r % 8)): a tile read along the
  /// reduction is [block][chunk], one read along its free loop
  /// [block / 64 * chunk][64] (each 64 free elements' chunk together),
  /// both cp.async-filled (`pipeline`), so chunk = 64; thread[y] =
  /// warp[y] / 32 and thread[x] = warp[x] / 4 (a warpgroup's 32 x 4 lanes).
  /// With TF32 operands (4-byte elements) the rows are 32 f32, chunk = 32
  /// and k = 8; both tiles are read along the reduction (wgmma has no
  /// transpose for TF32), an operand contiguous along its free loop
  /// `transposed` on its way through registers.
  bool wgmma = false;
  static constexpr int64_t kWgmmaM = 64, kWgmmaMaxN = 256, kWgmmaRow = 64,
                           kWgmmaRowBytes = 128;
  /// Bytes of a staged tensor-core element: 2 (f16, bf16), 4 (TF32).
  int64_t elementBytes = 2;
  /// The elements of a wgmma tile's 128-byte row, and of its k step.
  int64_t wgmmaRowElements() const { return kWgmmaRowBytes / elementBytes; }
  int64_t wgmmaK() const { return 32 / elementBytes; }
  /// Per operand, with `mma`: whether its tile is laid out [chunk][free]
  /// (read with ldmatrix.trans), where the operand is contiguous along its
  /// free loop, else [free][chunk], both in the operand's 16-bit type.
  bool freeMajor[2] = {false, false};
  /// Per operand, with `wgmma` and TF32: whether it is loaded along its
  /// free loop (where it is contiguous) into registers and stored along
  /// the reduction, element by element, after the step's wgmmas are
  /// issued, rather than copied by cp.async.
  bool transposed[2] = {false, false};
  /// Local-memory bytes of the staged tiles.
  int64_t localBytes(const ContractionShape &shape) const;
};

/// The tiling, or what is wrong with it (the mapping's message after
/// "schedule of kernel 'k': "): the rows and columns the free loops of the
/// two operands, each grid y and x alone; `vector` 2 or 4, dividing both
/// register tiles; each register tile dividing its warp tile and each warp
/// tile its block; the chunk between one and the reduction's length; the
/// tiles within the device's local memory. With `mma`: a device with
/// tensor cores (compute capability 8.0+), f16 or bf16 inputs, warp tiles
/// of whole instructions with the lane counts above, a chunk of whole k
/// steps, and `vector` 1, 2, 4 or 8; with `pipeline`, `vector` 8 and both
/// operands copied by 16 bytes (ContractionShape::copiesBy16Bytes). With
/// `mma` 2 (wgmma): compute capability 9.0 exactly, a pipeline, a chunk of
/// one 128-byte row (64, TF32 32), warp[y] 64 or 128 and warp[x] a
/// multiple of 8 up to 256 (of 64 where the columns' tile is free-major),
/// with the lane counts above. TF32 takes wgmma alone. The
/// tensor-core tiles may use the shared memory a CUDA block opts in to
/// (DeviceProfile::sharedMemOptInBytes), the others the device's local
/// memory.
struct OuterProductCheck {
  std::optional<OuterProductTiling> tiling;
  std::string error;
};
OuterProductCheck checkOuterProductTiling(const ContractionShape &shape,
                                          const GPUGrid &grid,
                                          const schedule::KernelSchedule &schedule,
                                          const schedule::DeviceProfile &device);

} // namespace tilec

#endif // TILEC_DIALECT_KERNEL_ANALYSIS_OUTERPRODUCTTILING_H
