//===- Schedule.h - How one kernel is tiled, as plain data --------*- C++ -*-===//
//
// A schedule says how the loop nest of one fused kernel is tiled and mapped
// (docs/architecture.md, "Schedules and autotuning"). It is data: a default one
// comes from the cost model, a tuned one from a schedule file, and the
// passes that apply it read it from the #tilec.schedule attribute on the
// kernel's outermost loop (include/tilec/Dialect/Kernel/IR/KernelAttrs.td,
// whose ScheduleAttr::get and getSchedule are the one conversion); no pass
// reads a file. This header is plain data, without MLIR.
//
// The loops of a kernel are numbered outermost first, as the loop level
// emits them: the parallel (output) loops, then the reduction loops. For
// loop i:
//   block[i]    elements of loop i per block: the cache tile on the CPU, the
//               work-group tile on a GPU. 0 = the whole loop (no tiling).
//   thread[i]   elements of loop i per thread inside a block: the register
//               tile (micro-kernel) on the CPU, the elements one work-item
//               computes on a GPU. 1 = one. For a reduction loop, block[i]
//               is the reduction step staged at a time and thread[i] is
//               ignored.
// A GPU work-group therefore has block[i] / thread[i] work-items along each
// mapped parallel loop.
//   vector      SIMD width along the innermost parallel loop (1 = scalar).
//               GPU: along the x loop (the last of `order`); each work-item
//               computes its thread[x] iterations as thread[x] / vector
//               vectors of `vector` neighbouring ones. Needs vector in
//               {1, 2, 4, 8, 16} (SPIR-V: at most 4) dividing thread[x] and
//               the x loop's trip count, and no staged operand.
//   unroll      unroll factor of the innermost reduction loop (1 = none).
//   stage[j]    GPU: copy operand j's tile (the j-th memref the kernel reads)
//               into local memory per reduction block.
//   order       permutation of the block loops, outermost first; empty = as
//               emitted. GPU: a permutation of the parallel band; its last
//               loop maps to grid x, the one before to y, the rest to z.
//   warp[i]     GPU: elements of loop i per subgroup (warp) tile; non-empty
//               selects the outer-product tiling of a contraction
//               (ContractionNest.h) with both operands staged as tiles of
//               `vector`-wide vectors: each work-item keeps its thread[x] x
//               thread[y] results in registers over the whole reduction,
//               reading vectors of its rows and columns from the staged
//               tiles, and the work-items of a subgroup cover one warp tile
//               (warp[i] / thread[i] of them along loop i).
//   buffers     GPU, staged operands: 1 = copy a reduction block, wait,
//               compute, wait; 2 = two tiles, the next block loaded into
//               registers while the current one is computed, one barrier
//               per block.
//   split       GPU, a contraction (ContractionNest.h): computes the
//               reduction as `split` equal slices, each a work-group's
//               partial result in a temporary, then a second kernel
//               aggregates the slices and runs the epilogue; for outputs
//               too small to fill the device. Needs the reduction to start
//               at its aggregation's identity and split to divide it.
//   mma         GPU with tensor cores (PTX, compute capability 8.0+), with
//               `warp`: 1 computes each warp tile with mma.sync m16n8k16
//               instead of outer products (OuterProductTiling.h): f16 or
//               bf16 operands summed in f32, thread[y] = warp[y] / 8 and
//               thread[x] = warp[x] / 4 (the instruction's 8 x 4 lanes);
//               2 computes each warp tile, then a warpgroup's (four warps')
//               tile, with Hopper's wgmma m64nNk16 from 128-byte-swizzled
//               shared memory (compute capability 9.0, with `pipeline`):
//               thread[y] = warp[y] / 32 and thread[x] = warp[x] / 4;
//               0 = none.
//   pipeline    with mma: the chunks are copied into `pipeline` (3 to 6)
//               buffers by cp.async, pipeline - 2 chunks ahead of the one
//               computed, instead of through registers (`buffers`, which
//               must be left at 1); 0 = none.
//   row         GPU, a row nest (RowNest.h; tilec-gpu-fuse-rows makes them):
//               the work-items of the one work-group per row, which deal
//               out its columns (column c to work-item c mod row) and
//               reduce together; 0 = not mapped as rows.
// Every list may be shorter than the loop count: missing entries take the
// defaults (0, 1, false, identity). Targets ignore what does not apply.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SCHEDULE_SCHEDULE_H
#define TILEC_SCHEDULE_SCHEDULE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec::schedule {

struct KernelSchedule {
  std::vector<int64_t> block;
  std::vector<int64_t> thread;
  int64_t vector = 1;
  int64_t unroll = 1;
  std::vector<bool> stage;
  std::vector<int64_t> order;
  std::vector<int64_t> warp;
  int64_t buffers = 1;
  int64_t split = 1;
  int64_t row = 0;
  int64_t mma = 0;
  int64_t pipeline = 0;

  int64_t blockOf(unsigned loop) const {
    return loop < block.size() ? block[loop] : 0;
  }
  int64_t threadOf(unsigned loop) const {
    return loop < thread.size() ? thread[loop] : 1;
  }
  bool stages(unsigned operand) const {
    return operand < stage.size() && stage[operand];
  }
  int64_t warpOf(unsigned loop) const {
    return loop < warp.size() ? warp[loop] : 0;
  }
  /// Whether the schedule asks for the outer-product tiling (`warp`).
  bool tilesOuterProduct() const { return !warp.empty(); }
  bool operator==(const KernelSchedule &o) const {
    return block == o.block && thread == o.thread && vector == o.vector &&
           unroll == o.unroll && stage == o.stage && order == o.order &&
           warp == o.warp && buffers == o.buffers && split == o.split &&
           row == o.row && mma == o.mma && pipeline == o.pipeline;
  }
  /// "block=[64,64,0] thread=[4,8] vector=8 unroll=1 stage=[] order=[]",
  /// then " warp=[..]", " buffers=N", " split=N", " row=N", " mma=1" and
  /// " pipeline=N" where they are not the defaults.
  std::string str() const;
};

/// Checks the rules every schedule obeys, whatever it was read from (the
/// #tilec.schedule verifier or a schedule file): block sizes >= 0; thread sizes, vector and
/// unroll >= 1; order a permutation of 0..N-1; mma 0, 1 or 2, and not 0
/// only with warp; pipeline 0 or 3 to 6, not 0 only with mma and buffers 1,
/// and not 0 with mma 2. On
/// failure, says what is
/// wrong in `error` ("'thread' holds 0, below 1").
bool validateSchedule(const KernelSchedule &schedule, std::string &error);

} // namespace tilec::schedule

#endif // TILEC_SCHEDULE_SCHEDULE_H
