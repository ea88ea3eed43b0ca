//===- OuterProductCost.cpp - The outer-product tiling, costed ------------===//
//
// See OuterProductCost.h. The estimate follows a work-group through the
// compute units: the busiest one runs ceil(groups / units) work-groups in
// rounds of as many as its registers hold, each round as fast as its
// subgroups can keep the FMA units busy. Memory is rarely the limit of
// this tiling (each staged element feeds a whole row or column of the
// block), but its terms are counted so that thin blocks lose.
//
// Measured on the H200 (OpenCL, 4096^3, 128x128 blocks of 8x8): a kernel
// of 134 registers per work-item (one work-group of 8 subgroups per SM)
// ran at 35.4 TFLOP/s, the same at 128 registers (two work-groups) at 43.0:
// kHidingExponent makes 8 resident subgroups 0.81 of 16. At 1024^3, 64x128
// blocks of 4 subgroups (one per SM) ran at 0.65 of the 4096^3 rate: 4
// subgroups hide 0.66.
//
//===----------------------------------------------------------------------===//

#include "OuterProductCost.h"

#include "CostTerms.h"

#include <cmath>
#include <limits>

using namespace tilec;
using namespace tilec::schedule;

namespace {

/// 32-bit registers per compute unit (NVIDIA since Kepler, AMD's per SIMD
/// pair) and per work-item at most.
constexpr double kGPURegistersPerCU = 65536;
constexpr int64_t kGPUMaxRegistersPerItem = 255;
/// Registers a work-item needs beside its tile, fragments and prefetch:
/// addresses, indices, the loop (ptxas reported 128 for 64 + 16 + 8).
constexpr int64_t kRegisterOverhead = 40;
/// Resident subgroups per compute unit at which latency is hidden, and how
/// fast fewer hide it: (subgroups / kSubgroupsToHide) ^ kHidingExponent.
constexpr double kSubgroupsToHide = 16;
constexpr double kHidingExponent = 0.3;
/// Issue slots per step beside the FMAs: each fragment load costs
/// kFragmentLoadCost, and kStepOverhead more go to addresses, the staging
/// of the next chunk and the loop. Fitted on the H200 at 1024^3 (one round
/// of 128 work-groups or two of 64 x 64): 8 x 8 tiles of 128 x 128 blocks
/// split in 2 ran at 1.4x the speed of 4 x 4 tiles of 64 x 64 blocks,
/// which the occupancy terms alone rate equal.
constexpr double kFragmentLoadCost = 2;
constexpr double kStepOverhead = 16;
/// The shortest slice of a split reduction worth a work-group.
constexpr int64_t kMinSliceSteps = 64;

/// Work-items in a subgroup's tile per side: 8 lanes along the columns (a
/// 128-byte row of fragments), the rest along the rows.
std::pair<int64_t, int64_t> laneGrid(const DeviceProfile &device) {
  int64_t lanes = std::max<int64_t>(device.subgroupSize, 1);
  int64_t columns = std::min<int64_t>(lanes, 8);
  return {lanes / columns, columns};
}

/// mma.sync's rate over the SIMT FMAs': sm_80 and sm_90 run 16x as many
/// 16-bit products per clock on tensor cores as f32 FMAs, and mma.sync
/// kernels reach about two thirds of that (wgmma the rest).
constexpr double kMmaSpeedup = 10;

/// wgmma's rate over the SIMT FMAs': Hopper's warpgroup MMA reads both
/// operands from shared memory while the next chunk is copied; on the H200
/// its bf16 matmuls of 4096^3 and 8192^3 ran at 610-750 TFLOP/s, against
/// mma.sync's 350-385 (bench/README.md, "Tensor cores").
constexpr double kWgmmaSpeedup = 14;

/// The same for TF32, which the tensor cores run at half the 16-bit rate
/// (the H200: 495 dense TF32 TFLOP/s, 989 bf16, 67 f32 SIMT).
constexpr double kWgmmaTF32Speedup = 7;

/// The 32-bit registers a wgmma work-item holds besides its accumulators
/// (the copies' addresses, the descriptors): ptxas gave 204-212 registers
/// to 128 accumulators and 128 to 64.
constexpr int64_t kWgmmaRegisterOverhead = 84;

/// The FMAs per step of a work-item's register tile that, in as many
/// subgroups as kSubgroupsToHide, hide the latency of a step (8 x 8: the
/// SGEMM register tile).
constexpr double kFMAsHiddenPerItem = 64;

/// The independent mma.sync per k-step that hide latency as well as one
/// subgroup of FMAs does (see `hiding`).
constexpr double kMmaTilesPerSubgroup = 8;

/// The share of a tensor-core kernel's issue left when it stages its chunks
/// through registers rather than cp.async: on the H200, 128 x 128 blocks
/// with chunks of 32 ran at 270 and 290 TFLOP/s (4096^3, 8192^3) with two
/// register buffers and 298 and 303 with a cp.async pipeline.
constexpr double kMmaRegisterStagingIssue = 0.93;

/// 32-bit registers of a tensor-core work-item: four accumulators per
/// instruction tile, its A and B fragments (four and two registers), the
/// prefetched chunk (two 16-bit elements per register).
int64_t mmaRegistersPerItem(const OuterProductTiling &tiling) {
  int64_t tilesM = tiling.rows.warp / OuterProductTiling::kMmaM;
  int64_t tilesN = tiling.columns.warp / OuterProductTiling::kMmaN;
  int64_t staged = tiling.chunk * (tiling.rows.block + tiling.columns.block);
  // cp.async copies without registers.
  int64_t prefetch =
      tiling.buffers == 2 && !tiling.pipeline
          ? (staged + 2 * tiling.items - 1) / (2 * tiling.items)
          : 0;
  return 4 * tilesM * tilesN + 4 * tilesM + 2 * tilesN + prefetch +
         kRegisterOverhead;
}

/// 32-bit registers of a wgmma work-item: N / 2 f32 accumulators per
/// m64nNk16 of its warpgroup's tile, a transposed operand's chunk on its
/// way through registers, and the rest.
int64_t wgmmaRegistersPerItem(const OuterProductTiling &tiling) {
  int64_t transposing = 0;
  for (const OuterProductSide *side : {&tiling.rows, &tiling.columns})
    if (tiling.transposed[side->operand])
      transposing += (side->block * tiling.chunk + tiling.items - 1) /
                     tiling.items * tiling.elementBytes / 4;
  return tiling.rows.warp / OuterProductTiling::kWgmmaM *
             (tiling.columns.warp / 2) +
         transposing + kWgmmaRegisterOverhead;
}

int64_t registersPerItem(const OuterProductTiling &tiling) {
  if (tiling.wgmma)
    return wgmmaRegistersPerItem(tiling);
  if (tiling.mma)
    return mmaRegistersPerItem(tiling);
  int64_t staged = tiling.chunk * (tiling.rows.block + tiling.columns.block);
  int64_t prefetch =
      tiling.buffers == 2 ? (staged + tiling.items - 1) / tiling.items : 0;
  return tiling.rows.thread * tiling.columns.thread + tiling.rows.thread +
         tiling.columns.thread + prefetch + kRegisterOverhead;
}

/// The work-groups of the tiling one compute unit holds at once: its
/// registers, its work-items and, for tiles in opted-in shared memory
/// (above the device's local memory), that memory (a CUDA SM has about the
/// opt-in limit of one block).
double residentGroups(const OuterProductTiling &tiling,
                      const ContractionShape &shape,
                      const DeviceProfile &device) {
  double items = double(tiling.items);
  double byRegisters = std::floor(
      kGPURegistersPerCU / (items * double(registersPerItem(tiling))));
  double byItems = std::floor(kGPUMaxItemsPerCU / items);
  double resident = std::min(byRegisters, byItems);
  if (tiling.mma && device.sharedMemOptInBytes > device.localMemBytes)
    resident = std::min(resident,
                        std::floor(double(device.sharedMemOptInBytes) /
                                   double(tiling.localBytes(shape))));
  return std::max(1.0, resident);
}

/// The split variants of `schedule` worth ranking: where its work-groups
/// leave compute units idle, slices of the reduction that bring the count
/// up to about two per unit, each slice at least kMinSliceSteps long.
void addSplits(const KernelModel &kernel, const DeviceProfile &device,
               KernelSchedule schedule,
               llvm::function_ref<void(const KernelSchedule &)> add) {
  int64_t groups = computeGPUGrid(kernel.parallelExtents, schedule).groups();
  int64_t units = std::max<int64_t>(device.computeUnits, 1);
  int64_t reduction = kernel.contraction->reduction;
  for (int64_t split = 2; groups * split <= 4 * units; split *= 2) {
    if (reduction % split != 0 || reduction / split < kMinSliceSteps)
      break;
    schedule.split = split;
    if (schedule::legalOuterProductTiling(kernel, schedule, device))
      add(schedule);
  }
}

/// A schedule of the outer-product tiling over `n` band loops mapped in
/// `order`: warp tiles of `warp` (rows, columns) with register tiles of
/// `thread`, `warps` of them per block, `chunk` reduction steps staged in
/// two buffers.
KernelSchedule outerProductSchedule(unsigned n,
                                    const std::vector<int64_t> &order,
                                    std::pair<int64_t, int64_t> warp,
                                    std::pair<int64_t, int64_t> thread,
                                    std::pair<int64_t, int64_t> warps,
                                    int64_t chunk) {
  KernelSchedule schedule;
  schedule.order = order;
  schedule.block.assign(n, 1);
  schedule.thread.assign(n, 1);
  schedule.warp.assign(n, 1);
  // Grid y is the loop before x in the mapped order.
  unsigned x = order.empty() ? n - 1 : unsigned(order[n - 1]);
  unsigned y = order.empty() ? n - 2 : unsigned(order[n - 2]);
  schedule.warp[y] = warp.first;
  schedule.warp[x] = warp.second;
  schedule.thread[y] = thread.first;
  schedule.thread[x] = thread.second;
  schedule.block[y] = warp.first * warps.first;
  schedule.block[x] = warp.second * warps.second;
  schedule.block.push_back(chunk);
  schedule.buffers = 2;
  return schedule;
}

} // namespace

std::optional<OuterProductTiling>
schedule::legalOuterProductTiling(const KernelModel &kernel,
                                  const KernelSchedule &schedule,
                                  const DeviceProfile &device) {
  if (!kernel.contraction || !schedule.tilesOuterProduct() ||
      checkReductionSplit(*kernel.contraction, schedule.split))
    return std::nullopt;
  GPUGrid grid = computeGPUGrid(kernel.parallelExtents, schedule);
  if (checkGPUGrid(grid, schedule, device))
    return std::nullopt;
  // A split kernel tiles each slice of the reduction.
  ContractionShape slice = *kernel.contraction;
  slice.reduction /= schedule.split;
  OuterProductCheck check =
      checkOuterProductTiling(slice, grid, schedule, device);
  if (!check.tiling || registersPerItem(*check.tiling) > kGPUMaxRegistersPerItem)
    return std::nullopt;
  return check.tiling;
}

double schedule::estimateOuterProductSeconds(const KernelModel &kernel,
                                             const KernelSchedule &schedule,
                                             const DeviceProfile &device) {
  std::optional<OuterProductTiling> tiling =
      legalOuterProductTiling(kernel, schedule, device);
  if (!tiling)
    return std::numeric_limits<double>::infinity();
  GPUGrid grid = computeGPUGrid(kernel.parallelExtents, schedule);
  const ContractionShape &shape = *kernel.contraction;
  double units = double(std::max<int64_t>(device.computeUnits, 1));
  double clock = clockHz(device);
  // Each slice of a split reduction is a work-group of its own.
  double slices = double(schedule.split);
  double groups = double(grid.groups()) * slices;
  double lanes = double(std::max<int64_t>(device.subgroupSize, 1));
  double subgroups = std::ceil(double(tiling->items) / lanes);

  // The work the grid does, padding included.
  double padded = 1;
  for (const GridDim &dim : grid.dims)
    padded *= double(dim.groups() * dim.block) / double(dim.extent);
  double flops = kernel.totalFlops * padded;

  // The busiest compute unit's rounds of resident work-groups.
  double perUnit = std::ceil(groups / units);
  double resident = residentGroups(*tiling, shape, device);
  double rounds = std::ceil(perUnit / resident);
  double active = std::min(perUnit, resident);
  // A tensor-core warp issues one mma per instruction tile of its warp
  // tile per k-step, all independent: eight of them hide like a subgroup
  // of FMAs (on the H200 a 64 x 64 warp tile at two work-groups of four
  // warps per SM ran 1.2x faster than 32 x 64 at three).
  // A work-item's FMAs per step are independent: a register tile above
  // 8 x 8 hides latency with fewer subgroups.
  double independent =
      std::max(1.0, double(tiling->rows.thread * tiling->columns.thread) /
                        kFMAsHiddenPerItem);
  if (tiling->wgmma)
    // Asynchronous: a warpgroup's instructions of one chunk run while it
    // waits for the next.
    independent = kSubgroupsToHide;
  else if (tiling->mma)
    independent = double(tiling->rows.warp / OuterProductTiling::kMmaM *
                         tiling->columns.warp / OuterProductTiling::kMmaN) /
                  kMmaTilesPerSubgroup;
  double hiding = std::pow(
      std::min(1.0, active * subgroups * independent / kSubgroupsToHide),
      kHidingExponent);
  // Per step a work-item issues its FMAs, a fragment load per vector of
  // its rows and columns, and some overhead.
  double fmas = double(tiling->rows.thread * tiling->columns.thread);
  double fragments = double(tiling->rows.thread + tiling->columns.thread) /
                     double(tiling->vector);
  double issue =
      fmas / (fmas + kFragmentLoadCost * fragments + kStepOverhead);
  double peakFlops = estimatedPeakFlops(device);
  if (tiling->mma) {
    // A warp's fragments are a few ldmatrix per mma, issued beside them;
    // staging through registers costs each work-item loads and stores that
    // cp.async does not.
    issue = tiling->pipeline ? 1 : kMmaRegisterStagingIssue;
    peakFlops *= !tiling->wgmma                ? kMmaSpeedup
                 : tiling->elementBytes == 4 ? kWgmmaTF32Speedup
                                             : kWgmmaSpeedup;
  }
  double perGroup = flops / groups;
  double compute = rounds * active * perGroup * units /
                   (peakFlops * issue * hiding);

  // Local memory: the distinct elements a subgroup reads per step (its
  // lanes share fragments), against the compute units' bandwidth.
  double steps = double(shape.reduction) / slices;
  // (ldmatrix reads 16-bit elements two to a 32-bit access.)
  // (wgmma reads a warpgroup's tile once for its four warps.)
  double readers = tiling->wgmma ? subgroups / 4 : subgroups;
  double accesses = groups * readers * steps *
                    double(tiling->rows.warp + tiling->columns.warp) /
                    (tiling->mma ? 4 / tiling->elementBytes : 1);
  double local = accesses / (units * clock * kGPUAccessesPerCycle);
  // L2: each work-group reads its rows and columns of both operands once.
  auto stagedBytes = [&](const OuterProductSide &side) {
    return tiling->mma ? tiling->elementBytes
                       : shape.elementBytes[side.operand];
  };
  double l2Bytes = groups * steps *
                   double(tiling->rows.block * stagedBytes(tiling->rows) +
                          tiling->columns.block * stagedBytes(tiling->columns));
  double peakBytes = estimatedPeakBytes(device);
  double l2 = l2Bytes / (kGPUL2OverDRAM * peakBytes);
  double dram = kernel.uniqueBytes / peakBytes;

  double chunks = std::ceil(steps / double(tiling->chunk));
  double barriers = chunks *
                    double(tiling->buffers == 2 || tiling->pipeline ? 1 : 2) *
                    rounds * kGPUBarrierCycles / clock;
  double seconds =
      overlapped({compute, local, l2, dram}) + barriers + kLaunchSeconds;
  if (schedule.split > 1) {
    // The slices' results written and read back, and the result written,
    // by a second kernel.
    double cells = 1;
    for (int64_t extent : kernel.parallelExtents)
      cells *= double(extent);
    double resultBytes = double(std::max(shape.elementBytes[0],
                                         shape.elementBytes[1]));
    seconds += (2 * slices + 1) * cells * resultBytes / peakBytes +
               kLaunchSeconds;
  }
  return seconds;
}

/// The tensor-core schedules of a contraction that takes them: warp tiles
/// of 64 x 64, 32 x 64 and 64 x 32 (CUTLASS's sm_80 shapes) in blocks of
/// 2 x 2, 2 x 1, 1 x 2, 2 x 4 and 4 x 2 warps, chunks of 32 copied as
/// 16-byte vectors through registers into two buffers, and, where both
/// operands come in aligned 16-byte runs, chunks of 32 and 64 in cp.async
/// pipelines of 3 and 4 buffers (the best on the H200: 128 x 256 blocks,
/// chunks of 64, 3 buffers in 153 KiB of opted-in shared memory).
static void addMmaCandidates(const KernelModel &kernel,
                             const DeviceProfile &device,
                             const std::vector<std::vector<int64_t>> &orders,
                             llvm::function_ref<void(const KernelSchedule &)> add) {
  unsigned n = kernel.parallelExtents.size();
  const std::pair<int64_t, int64_t> warps[] = {{64, 64}, {32, 64}, {64, 32}};
  const std::pair<int64_t, int64_t> layouts[] = {{2, 2}, {2, 1}, {1, 2},
                                                 {2, 4}, {4, 2}};
  // (pipeline, chunk); pipeline 0: two register buffers.
  const std::pair<int64_t, int64_t> stagings[] = {
      {0, 32}, {3, 32}, {4, 32}, {3, 64}, {4, 64}};
  int64_t steps = (kernel.contraction->reduction + 15) / 16 * 16;
  for (const std::vector<int64_t> &order : orders)
    for (auto [warpRows, warpColumns] : warps)
      for (auto [rowWarps, columnWarps] : layouts)
        for (auto [pipeline, chunk] : stagings) {
          if (chunk > steps && chunk != 32)
            continue;
          KernelSchedule schedule = outerProductSchedule(
              n, order, {warpRows, warpColumns},
              {warpRows / 8, warpColumns / 4}, {rowWarps, columnWarps},
              std::min(chunk, steps));
          schedule.vector = 8;
          schedule.mma = 1;
          schedule.pipeline = pipeline;
          if (pipeline)
            schedule.buffers = 1;
          if (!legalOuterProductTiling(kernel, schedule, device))
            continue;
          add(schedule);
          addSplits(kernel, device, schedule, add);
        }
}

/// The warpgroup-MMA schedules of a contraction that takes them on a
/// compute capability 9.0 device: warpgroup tiles of 128 x 128, 64 x 256,
/// 64 x 128, 128 x 64 and 64 x 64 in blocks of 2 x 1, 1 x 2 and 1 x 1
/// warpgroups whose registers fit a compute unit, chunks of a 128-byte row
/// (64 16-bit elements, 32 f32 for TF32) in the deepest pipeline of 6 down
/// to 3 buffers that fits. The best on the H200: 256 x 128 blocks of two
/// 128 x 128 warpgroup tiles, four buffers (bench/README.md, "Tensor
/// cores").
static void
addWgmmaCandidates(const KernelModel &kernel, const DeviceProfile &device,
                   const std::vector<std::vector<int64_t>> &orders,
                   llvm::function_ref<void(const KernelSchedule &)> add) {
  unsigned n = kernel.parallelExtents.size();
  const std::pair<int64_t, int64_t> tiles[] = {
      {128, 128}, {64, 256}, {64, 128}, {128, 64}, {64, 64}};
  const std::pair<int64_t, int64_t> layouts[] = {{2, 1}, {1, 2}, {1, 1}};
  int64_t elementBytes = mmaElementBytes(kernel.contraction->mmaInput);
  for (const std::vector<int64_t> &order : orders)
    for (auto [tileRows, tileColumns] : tiles)
      for (auto [rowGroups, columnGroups] : layouts)
        for (int64_t pipeline = 6; pipeline >= 3; --pipeline) {
          KernelSchedule schedule = outerProductSchedule(
              n, order, {tileRows, tileColumns},
              {tileRows / 32, tileColumns / 4}, {rowGroups, columnGroups},
              OuterProductTiling::kWgmmaRowBytes / elementBytes);
          schedule.vector = 16 / elementBytes;
          schedule.mma = 2;
          schedule.pipeline = pipeline;
          schedule.buffers = 1;
          std::optional<OuterProductTiling> tiling =
              legalOuterProductTiling(kernel, schedule, device);
          if (!tiling ||
              tiling->items * wgmmaRegistersPerItem(*tiling) >
                  int64_t(kGPURegistersPerCU) ||
              wgmmaRegistersPerItem(*tiling) > 255)
            continue;
          add(schedule);
          addSplits(kernel, device, schedule, add);
          break;
        }
}

void schedule::addOuterProductCandidates(
    const KernelModel &kernel, const DeviceProfile &device,
    llvm::function_ref<void(const KernelSchedule &)> add) {
  // Not on CPU devices (staging costs them barriers per work-item), nor
  // where the device is unknown (DefaultScheduleRule.h: no staging then).
  if (!kernel.contraction || !isKnownGPU(device))
    return;
  unsigned n = kernel.parallelExtents.size();
  if (n < 2)
    return;
  auto [laneRows, laneColumns] = laneGrid(device);
  int64_t maxItems = std::min<int64_t>(device.maxWorkGroupSize, 256);
  // Register tiles (rows x columns), and subgroups per work-group (rows x
  // columns of subgroup tiles). (8 x 16 in 128 x 256 blocks ran the H200's
  // FP32 matmul of 4096^3 at 0.92 of cuBLAS, 8 x 8 in 128 x 128 at 0.88,
  // but on grids of fewer than two such blocks per compute unit (a skinny
  // matmul, 1024^3, a large K) 8 x 8 ran faster, by up to 1.5x on GL: the
  // 8 x 16 tile is offered in those blocks alone, where they are that many.)
  const std::pair<int64_t, int64_t> threads[] = {
      {8, 16}, {8, 8}, {4, 8}, {4, 4}};
  constexpr int64_t kLargeTileGroupsPerUnit = 2;
  const std::pair<int64_t, int64_t> layouts[] = {{1, 1}, {2, 1}, {1, 2}, {2, 2},
                                                 {4, 2}, {2, 4}};
  const int64_t chunks[] = {8, 16};
  std::vector<std::vector<int64_t>> orders = {{}};
  std::vector<int64_t> swapped;
  for (unsigned i = 0; i < n; ++i)
    swapped.push_back(i);
  std::swap(swapped[n - 1], swapped[n - 2]);
  orders.push_back(swapped);
  MmaInput input = kernel.contraction->mmaInput;
  if (input != MmaInput::None && input != MmaInput::TF32 &&
      device.computeCapability >= 80)
    addMmaCandidates(kernel, device, orders, add);
  if (input != MmaInput::None && device.computeCapability == 90)
    addWgmmaCandidates(kernel, device, orders, add);
  for (const std::vector<int64_t> &order : orders)
    for (auto [rowThread, columnThread] : threads)
      for (auto [rowWarps, columnWarps] : layouts) {
        if (laneRows * laneColumns * rowWarps * columnWarps > maxItems)
          continue;
        for (int64_t chunk : chunks) {
          chunk = std::min(chunk, kernel.contraction->reduction);
          KernelSchedule schedule = outerProductSchedule(
              n, order,
              {rowThread * laneRows, columnThread * laneColumns},
              {rowThread, columnThread}, {rowWarps, columnWarps}, chunk);
          schedule.vector = 4;
          if (rowThread * columnThread > 64 &&
              (rowWarps != 4 || columnWarps != 2 ||
               computeGPUGrid(kernel.parallelExtents, schedule).groups() <
                   kLargeTileGroupsPerUnit * device.computeUnits))
            continue;
          if (!legalOuterProductTiling(kernel, schedule, device))
            continue;
          add(schedule);
          addSplits(kernel, device, schedule, add);
          if (chunk == kernel.contraction->reduction)
            break;
        }
      }
}
