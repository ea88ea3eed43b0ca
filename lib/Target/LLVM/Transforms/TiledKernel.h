//===- TiledKernel.h - A kernel rebuilt from tiles --------------*- C++ -*-===//
//
// The loop structure tilec-cpu-apply-schedule gives a matched kernel: full
// register tiles (cache-tiled, tile loops permuted), then the remainders.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TRANSFORMS_TILEDKERNEL_H
#define TILEC_LIB_TRANSFORMS_TILEDKERNEL_H

#include "tilec/Dialect/Kernel/Analysis/KernelNest.h"

namespace tilec::transforms {

/// A schedule resolved against one KernelNest: one entry per band loop.
struct BandTiling {
  /// Elements of each band loop one micro-kernel computes (for the
  /// innermost, a multiple of `vector`).
  llvm::SmallVector<int64_t> thread;
  /// Elements of each band loop per cache tile; 0 = not tiled.
  llvm::SmallVector<int64_t> block;
  /// The band loops' tile loops, outermost first.
  llvm::SmallVector<unsigned> order;
  /// Lanes of the innermost band loop per vector (1 = scalar).
  int64_t vector = 1;
  /// Unroll factor of the innermost reduction loops.
  int64_t unroll = 1;
  /// The least size of a kept operand whose panels the first pass
  /// prefetches (TiledKernel.cpp, kPrefetchRows).
  int64_t prefetchMinBytes = 0;
};

/// Replaces the kernel of `nest` by its tiled form and returns success, or
/// leaves it untouched and fails.
mlir::LogicalResult tileKernel(const KernelNest &nest,
                               const BandTiling &tiling);

} // namespace tilec::transforms

#endif // TILEC_LIB_TRANSFORMS_TILEDKERNEL_H
