//===- Candidates.cpp - The legal schedules of a kernel, ranked -----------===//
//
// Enumerates schedules the mapping accepts and ranks them by the cost
// model. The space is powers of two per grid dimension (work-items and
// register tiles) plus vectors, staging, unrolling and the x/y order on a
// GPU, and micro-kernel shapes, SIMD widths and the panel tile on a CPU.
// The hand-written defaults (GPUDefaultSchedule.h, CPUDefaultSchedule.h),
// measured on real machines, enter first, so that on a tie they win; ties
// keep the (fixed) enumeration order, so the ranking is deterministic.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/CostModel.h"

#include "GPUStaging.h"
#include "OuterProductCost.h"
#include "RowCost.h"

#include "tilec/Schedule/CPUDefaultSchedule.h"
#include "tilec/Schedule/GPUDefaultSchedule.h"

#include "llvm/ADT/bit.h"

#include <algorithm>
#include <functional>

using namespace tilec;
using namespace tilec::schedule;

namespace {

/// Register tiles (elements per work-item along a side) tried on a GPU.
/// 8 x 8 ran a 512^3 matmul slower than 4 x 4 and 2 x 2 on PoCL (0.23,
/// 0.31 and 0.25 GFLOP/s): its accumulators no longer fit registers.
constexpr int64_t kGPUThreadTiles[] = {1, 2, 4};
/// Work-items per work-group at most, whatever the device allows: the hand
/// rule's measured cap (GPUDefaultSchedule.h); on PoCL 1024-item groups
/// ran a 512^3 matmul slower than 256-item ones.
constexpr int64_t kGPUMaxGroupItems = 256;
/// Accumulators a GPU work-item may hold (CostModel.cpp spills above).
constexpr int64_t kGPUMaxAccumulators = 64;
/// Reduction steps staged at a time, when staging.
constexpr int64_t kStageBlocks[] = {16};
/// Unroll factors tried for a register reduction.
constexpr int64_t kUnrollFactors[] = {1, 4};
/// Rows and vectors of a CPU micro-kernel: the space the measured rules
/// (CPUDefaultSchedule.cpp) searched, and up to 8 rows where the registers
/// hold them: 7 rows cover the 7, 14, 28 and 56 pixel rows of ResNet's
/// images without a remainder (a 7x7x512 convolution took 3.97 ms with 6
/// rows and 2.07-2.12 with 7, one thread, when the pixel left over ran
/// alone; leftover rows now run as one tile, TiledKernel.cpp).
constexpr int64_t kCPUMaxRows = 8;
constexpr int64_t kCPUVectorCounts[] = {1, 2, 4};
/// How much better than the hand-written default the model must rank a
/// schedule to replace it: the model's resolution is coarser than the
/// measurements behind the default.
constexpr double kTrustMargin = 0.20;

int64_t pow2Ceil(int64_t n) {
  return int64_t(llvm::bit_ceil(uint64_t(std::max<int64_t>(n, 1))));
}

/// Collects the candidates its filter accepts, in order; only the seed can
/// recur (the enumerations produce each schedule once).
class CandidateList {
public:
  explicit CandidateList(CandidateFilter accept) : accept(accept) {}
  /// Whether add would keep `schedule` (checked before its legality, which
  /// costs more).
  bool accepts(const KernelSchedule &schedule) const {
    return !accept || accept(schedule);
  }
  void add(const KernelSchedule &schedule) {
    if (accepts(schedule) && (list.empty() || !(list.front() == schedule)))
      list.push_back(schedule);
  }
  std::vector<KernelSchedule> &schedules() { return list; }

private:
  CandidateFilter accept;
  std::vector<KernelSchedule> list;
};

//===----------------------------------------------------------------------===//
// GPU
//===----------------------------------------------------------------------===//

/// The widest vector the target's code may use: OpenCL C has 8- and
/// 16-wide vectors, SPIR-V for Vulkan at most 4 (and a profile without a
/// runtime may be either).
int64_t maxGPUVector(const DeviceProfile &device) {
  return llvm::StringRef(device.id).starts_with("opencl:") ? 16 : 4;
}

/// Whether `schedule` passes the mapping's checks (GPUGrid.h's and
/// StagingPlan.cpp's) and stays within the registers.
bool legalOnGPU(const KernelModel &kernel, const KernelSchedule &schedule,
                const DeviceProfile &device) {
  if (schedule.tilesOuterProduct())
    return legalOuterProductTiling(kernel, schedule, device).has_value();
  GPUGrid grid = computeGPUGrid(kernel.parallelExtents, schedule);
  if (checkGPUGrid(grid, schedule, device))
    return false;
  int64_t accumulators = 1;
  for (const GridDim &dim : grid.dims)
    accumulators *= dim.loops.size() == 1 ? dim.thread : 1;
  if (accumulators > kGPUMaxAccumulators)
    return false;
  for (auto [index, staged] : llvm::enumerate(schedule.stage))
    if (staged && (index >= kernel.operands.size() ||
                   !kernel.operands[index].stageable))
      return false;
  return stagedBytes(kernel, schedule, grid) <= device.localMemBytes;
}

/// Work-item counts along one grid dimension: powers of two up to the
/// device limit and the extent's (rounded up).
std::vector<int64_t> workItemChoices(int64_t extent, int64_t thread,
                                     int64_t limit) {
  std::vector<int64_t> choices;
  int64_t most = std::min(limit, pow2Ceil((extent + thread - 1) / thread));
  for (int64_t items = 1; items <= most; items *= 2)
    choices.push_back(items);
  return choices;
}

void addGPUCandidates(const KernelModel &kernel, const DeviceProfile &device,
                      CandidateList &out) {
  unsigned n = kernel.parallelExtents.size();
  bool reduces = !kernel.reductionExtents.empty();
  std::vector<std::vector<int64_t>> orders = {{}};
  if (n >= 2) {
    std::vector<int64_t> swapped;
    for (unsigned i = 0; i < n; ++i)
      swapped.push_back(i);
    std::swap(swapped[n - 1], swapped[n - 2]);
    orders.push_back(swapped);
  }
  // Stage subsets: none, then each stageable operand the reduction reads,
  // then all of them. A CPU device runs a work-group's items as a loop cut
  // at every barrier: staging ran a 512^3 matmul 2-5x slower on PoCL, so
  // it is no candidate there.
  std::vector<std::vector<bool>> stages = {{}};
  std::vector<bool> all(kernel.operands.size(), false);
  for (auto [index, operand] : llvm::enumerate(kernel.operands)) {
    if (!operand.stageable || device.isCPU)
      continue;
    std::vector<bool> one(index + 1, false);
    one[index] = true;
    stages.push_back(one);
    all[index] = true;
  }
  if (std::count(all.begin(), all.end(), true) > 1)
    stages.push_back(all);

  for (const std::vector<int64_t> &order : orders) {
    KernelSchedule base;
    base.order = order;
    base.block.assign(n, 0);
    base.thread.assign(n, 1);
    GPUGrid shape = computeGPUGrid(kernel.parallelExtents, base);
    // The dimensions with one tiled loop, x first.
    std::vector<unsigned> tiled;
    for (unsigned d = 0; d < 3; ++d)
      if (shape.dims[d].loops.size() == 1)
        tiled.push_back(d);
    // Flattened z loops run one point per work-item: block 1.
    for (unsigned loop = 0; loop < n; ++loop)
      if (shape.dims[shape.dimOf[loop]].loops.size() > 1)
        base.block[loop] = 1;

    // Depth-first over (thread, work-items) per tiled dimension.
    std::vector<std::pair<int64_t, int64_t>> pick(tiled.size());
    // Work-groups below one subgroup leave lanes idle on every device;
    // they are only worth trying where the whole grid is that small.
    int64_t gridItems = 1;
    for (unsigned d : tiled)
      gridItems *= shape.dims[d].extent;
    int64_t fewestItems = std::min<int64_t>(device.subgroupSize, gridItems);
    auto emit = [&] {
      int64_t groupItems = 1;
      for (auto [thread, count] : pick)
        groupItems *= count;
      if (groupItems < fewestItems)
        return;
      KernelSchedule schedule = base;
      for (size_t i = 0; i < tiled.size(); ++i) {
        unsigned loop = shape.dims[tiled[i]].loops.front();
        schedule.thread[loop] = pick[i].first;
        schedule.block[loop] = pick[i].first * pick[i].second;
      }
      unsigned x = shape.dims[0].loops.empty() ? 0
                                               : shape.dims[0].loops.front();
      // Scalar, or x's whole thread tile as one vector (the widest legal).
      std::vector<int64_t> vectors = {1};
      int64_t widest = std::min(schedule.thread[x], maxGPUVector(device));
      if (kernel.vectorizable && widest > 1)
        vectors.push_back(widest);
      for (int64_t vector : vectors) {
        schedule.vector = vector;
        for (const std::vector<bool> &stage : stages) {
          schedule.stage = stage;
          bool staged = std::count(stage.begin(), stage.end(), true) > 0;
          std::vector<int64_t> reductionBlocks = {0};
          if (staged) {
            reductionBlocks.clear();
            for (int64_t block : kStageBlocks)
              if (block < kernel.reductionExtents.front())
                reductionBlocks.push_back(block);
            reductionBlocks.push_back(0);
          }
          for (int64_t reductionBlock : reductionBlocks) {
            schedule.block.resize(n);
            if (reductionBlock > 0)
              schedule.block.push_back(reductionBlock);
            for (int64_t unroll : kUnrollFactors) {
              if (unroll > 1 && (!reduces || staged))
                break;
              schedule.unroll = unroll;
              if (out.accepts(schedule) && legalOnGPU(kernel, schedule, device))
                out.add(schedule);
            }
          }
        }
      }
    };
    std::function<void(size_t, int64_t)> walk = [&](size_t i,
                                                     int64_t items) {
      if (i == tiled.size())
        return emit();
      const GridDim &dim = shape.dims[tiled[i]];
      for (int64_t thread : kGPUThreadTiles) {
        // Register tiles pay off where each output costs many loads (a
        // reduction), or as the vector lanes of x.
        if (thread > 1 && !reduces && (i != 0 || !kernel.vectorizable))
          break;
        if (thread > 1 && thread > dim.extent)
          break;
        int64_t limit = std::min(
            device.maxWorkItemSizes[tiled[i]],
            std::min(device.maxWorkGroupSize, kGPUMaxGroupItems) / items);
        for (int64_t count : workItemChoices(dim.extent, thread, limit)) {
          pick[i] = {thread, count};
          walk(i + 1, items * count);
        }
      }
    };
    walk(0, 1);
  }
}

//===----------------------------------------------------------------------===//
// CPU
//===----------------------------------------------------------------------===//

void addCPUCandidates(const KernelModel &kernel, const DeviceProfile &device,
                      CandidateList &out) {
  unsigned n = kernel.parallelExtents.size();
  bool reduces = !kernel.reductionExtents.empty();
  int64_t laneExtent = kernel.parallelExtents.back();
  int64_t elementBytes = 4;
  for (const KernelModel::Operand &operand : kernel.operands)
    if (operand.written) {
      elementBytes = operand.elementBytes;
      break;
    }
  int64_t simd = std::max<int64_t>(device.vectorBytes / elementBytes, 1);
  // Four vectors need the 32 registers of AVX-512 (CPUDefaultSchedule.cpp).
  int64_t maxVectors = device.vectorRegisters >= 32 ? 4 : 2;
  std::vector<int64_t> widths;
  if (kernel.vectorizable)
    for (int64_t width = int64_t(llvm::bit_floor(uint64_t(
             std::min(simd, laneExtent))));
         width > 1; width /= 2)
      widths.push_back(width);
  widths.push_back(1);

  for (int64_t width : widths) {
    for (int64_t vectors : kCPUVectorCounts) {
      if (vectors > 1 && (!reduces || vectors > maxVectors))
        break;
      int64_t laneTile = vectors * width;
      if (vectors > 1 && laneTile > laneExtent)
        break;
      for (int64_t rows = 1; rows <= (reduces && n >= 2 ? kCPUMaxRows : 1);
           ++rows) {
        if (rows > 1 && rows > kernel.parallelExtents[n - 2])
          break;
        // Accumulators, the lane operand's vectors and one broadcast live
        // in registers.
        int64_t perVector = (width + simd - 1) / simd;
        if (reduces &&
            rows * vectors * perVector + vectors * perVector + 1 >
                device.vectorRegisters)
          break;
        KernelSchedule schedule;
        schedule.vector = width;
        schedule.block.assign(n, 0);
        schedule.thread.assign(n, 1);
        schedule.thread.back() = laneTile;
        if (n >= 2)
          schedule.thread[n - 2] = rows;
        out.add(schedule);
        // The panel tile: one lane tile per cache tile, its loop outermost.
        if (reduces && laneExtent > laneTile) {
          schedule.block.back() = laneTile;
          schedule.order.push_back(int64_t(n - 1));
          for (unsigned i = 0; i + 1 < n; ++i)
            schedule.order.push_back(int64_t(i));
          out.add(schedule);
        }
      }
    }
  }
}

/// Whether `kernel` slides a window over its rows (KernelShape::
/// slidingWindow): an operand read by broadcast follows the two loops
/// before the lanes and more than one reduction loop, and no operand read
/// along the lanes in the reduction follows either of those two loops;
/// `rowStride` is how far the window moves per image row (0: unknown).
bool slidesWindow(const KernelModel &kernel, int64_t &rowStride) {
  unsigned n = kernel.parallelExtents.size();
  if (n < 3 || kernel.reductionExtents.size() < 2)
    return false;
  bool window = false;
  rowStride = 0;
  for (const KernelModel::Operand &operand : kernel.operands) {
    const std::vector<bool> &on = operand.dependsOn;
    int64_t reductions = std::count(on.begin() + n, on.end(), true);
    // Only the operands of the reduction's steps count: a residual added
    // to the result is read once per point.
    if (operand.written || reductions == 0)
      continue;
    bool followsRows = on[n - 3] || on[n - 2];
    if (on[n - 1]) {
      if (followsRows)
        return false;
      continue;
    }
    if (!on[n - 3] || !on[n - 2] || reductions < 2)
      continue;
    // Where the coefficients are known, some index must move with the
    // image rows and a reduction loop at once (y + ky), not with the rows
    // alone (a batch of 1-D windows).
    bool rowsSlide = operand.coefficients.empty();
    for (const std::vector<int64_t> &index : operand.coefficients)
      rowsSlide |= index[n - 3] != 0 &&
                   std::any_of(index.begin() + n, index.end(),
                               [](int64_t c) { return c != 0; });
    if (!rowsSlide)
      continue;
    window = true;
    // The largest coefficient of the image rows' loop in any index (known
    // where the model could stage the operand).
    for (const std::vector<int64_t> &index : operand.coefficients)
      rowStride = std::max(rowStride, index[n - 3]);
  }
  return window;
}

/// The hand-written default the model must not rank below its rivals
/// without a measurement (CPUDefaultSchedule.h, GPUDefaultSchedule.h).
KernelSchedule handDefault(const KernelModel &kernel,
                           const DeviceProfile &device, ScheduleKind kind) {
  if (kind == ScheduleKind::GPU) {
    GPUKernelShape shape;
    shape.parallelExtents = kernel.parallelExtents;
    shape.reducesInRegisters = kernel.registerReduction;
    return defaultGPUSchedule(shape, device);
  }
  KernelShape shape;
  shape.extents = kernel.parallelExtents;
  shape.elementBytes = 4;
  for (const KernelModel::Operand &operand : kernel.operands)
    if (operand.written) {
      shape.elementBytes = operand.elementBytes;
      break;
    }
  shape.reductionExtent = 1;
  for (int64_t extent : kernel.reductionExtents)
    shape.reductionExtent *= extent;
  if (kernel.reductionExtents.empty())
    shape.reductionExtent = 0;
  shape.vectorizable = kernel.vectorizable;
  shape.slidingWindow = slidesWindow(kernel, shape.windowRowStride);
  CPUFacts facts;
  facts.vectorBytes = device.vectorBytes;
  facts.vectorRegisters = device.vectorRegisters;
  facts.l1Bytes = device.l1Bytes;
  facts.l2Bytes = device.l2Bytes;
  return defaultCPUSchedule(shape, facts);
}

} // namespace

std::vector<KernelSchedule>
tilec::schedule::rankCandidates(const KernelModel &kernel,
                                const DeviceProfile &device, ScheduleKind kind,
                                unsigned limit, CandidateFilter accept) {
  if (kernel.parallelExtents.empty())
    return {KernelSchedule()};
  CandidateList candidates(accept);
  KernelSchedule seed = handDefault(kernel, device, kind);
  if (kind == ScheduleKind::CPU || legalOnGPU(kernel, seed, device))
    candidates.add(seed);
  if (kind == ScheduleKind::GPU) {
    // A contraction that the outer-product tiling can take on a GPU takes
    // it: on the H200 every matmul shape measured ran at 0.74-1.0 of
    // cuBLAS with it and at 0.07-0.23 with the other mappings, whose
    // estimates (peak compute, L1 and L2 terms) do not see what the
    // register tile and the fragment reuse save.
    // Likewise a row nest takes one work-group per row: each row is read
    // once and its reductions are trees over the work-group, where the
    // other mappings give a row to a work-item, which reads it strided.
    CandidateList outer(accept), rows(accept);
    addOuterProductCandidates(
        kernel, device,
        [&](const KernelSchedule &schedule) { outer.add(schedule); });
    addRowCandidates(kernel, device, [&](const KernelSchedule &schedule) {
      rows.add(schedule);
    });
    if (!outer.schedules().empty())
      candidates = std::move(outer);
    else if (!rows.schedules().empty())
      candidates = std::move(rows);
    else
      addGPUCandidates(kernel, device, candidates);
  } else
    addCPUCandidates(kernel, device, candidates);

  std::vector<KernelSchedule> &list = candidates.schedules();
  if (list.empty())
    return {KernelSchedule()};
  std::vector<std::pair<double, size_t>> ranked;
  for (size_t i = 0; i < list.size(); ++i)
    ranked.push_back({estimateSeconds(kernel, list[i], device, kind), i});
  // Ties keep the enumeration order (the seed first).
  llvm::sort(ranked);
  // The seed (index 0) stays first unless clearly beaten.
  if (list.front() == seed) {
    auto at = llvm::find_if(ranked, [](auto &r) { return r.second == 0; });
    if (at->first <= ranked.front().first * (1 + kTrustMargin))
      std::rotate(ranked.begin(), at, at + 1);
  }
  std::vector<KernelSchedule> result;
  for (size_t i = 0; i < ranked.size() && i < std::max(limit, 1u); ++i)
    result.push_back(list[ranked[i].second]);
  return result;
}
