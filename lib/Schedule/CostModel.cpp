//===- CostModel.cpp - Estimated seconds of a schedule --------------------===//
//
// An analytic model in the roofline tradition: a schedule's time is the
// slowest of what it asks of the arithmetic units and of each level of the
// memory hierarchy, stretched by what keeps the device from being full
// (idle compute units, partial subgroups, padding). It is meant to rank
// schedules of one kernel on one device, not to predict absolute times;
// docs/cost-model.md says what each term counts and where its constants
// come from.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/CostModel.h"

#include "CostTerms.h"
#include "GPUStaging.h"
#include "OuterProductCost.h"
#include "RowCost.h"

#include <algorithm>
#include <cmath>

using namespace tilec;
using namespace tilec::schedule;

namespace {

//===----------------------------------------------------------------------===//
// Constants (docs/cost-model.md)
//===----------------------------------------------------------------------===//

/// GPU: subgroups resident per compute unit needed to hide memory latency.
constexpr double kGPUSubgroupsToHideLatency = 8;
/// GPU: the share of re-reads of an unstaged operand, shared between the
/// work-items of a group, that miss L1 and go to L2 again.
constexpr double kGPUUnstagedMissShare = 0.25;
/// Cycles of one work-group barrier per work-item on a CPU device, which
/// runs the work-items of a group in a loop (a GPU's: CostTerms.h).
constexpr double kCPUBarrierCyclesPerItem = 4;
/// GPU: accumulators (registers) a work-item may hold before it spills.
constexpr int64_t kGPUMaxAccumulators = 64;
/// CPU: FMA and load pipes per core (Haswell and later), and L2 bytes per
/// cycle and core.
constexpr double kCPUFMAPipes = 2;
constexpr double kCPULoadPipes = 2;
constexpr double kCPUL2BytesPerCycle = 32;
/// CPU: the share of L1 a working set may take and still stay there.
/// Traffic beyond L2 is not counted above the unique bytes: the large last
/// level cache and the prefetchers stream it. Measured on a 16-core Xeon
/// (bench/cpu's 1024^3 matmul, one thread): panel tiles of 8 to 32 lanes,
/// which cut that traffic, ran at 20-44 GFLOP/s against 63 for the wide
/// 6 x 64 micro-kernel without them.
constexpr double kCPUL1Share = 0.5;
/// CPU: the same for L2, and the bytes per cycle a core draws from beyond
/// it (L3): what a tile order that rereads an operand larger than L2 pays
/// (the 256 x 4096 x 256 matmul ran 2.1x faster with its 1 MiB packed lane
/// panel outermost, rows streaming past it, than rows outermost).
constexpr double kCPUL2Share = 0.75;
constexpr double kCPUL3BytesPerCycle = 16;
/// CPU: cycles from one FMA to the next on the same accumulator; a step of
/// the micro-kernel cannot be shorter (six accumulators of 16 lanes ran at
/// half the speed of 24).
constexpr double kCPUFMALatency = 4;
/// The slowdown of a micro-kernel or work-item that spills its
/// accumulators.
constexpr double kSpillPenalty = 3;
/// CPU: remainder regions are counted per loop up to this band depth (2^n
/// regions); deeper bands count full tiles only.
constexpr unsigned kMaxRemainderLoops = 8;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The elements of `operand` one tile touches when each loop covers
/// `range[loop]` iterations (the loops it does not follow cover one).
double tileElements(const KernelModel::Operand &operand,
                    const std::vector<double> &range) {
  double elements = 1;
  for (size_t loop = 0; loop < operand.dependsOn.size(); ++loop)
    if (operand.dependsOn[loop])
      elements *= range[loop];
  return elements;
}

/// The element size of the first memref the kernel writes (4 without one).
int64_t outputElementBytes(const KernelModel &kernel) {
  for (const KernelModel::Operand &operand : kernel.operands)
    if (operand.written)
      return operand.elementBytes;
  return 4;
}

/// The extent of loop `loop` (band, then reductions).
int64_t loopExtent(const KernelModel &kernel, unsigned loop) {
  size_t parallel = kernel.parallelExtents.size();
  if (loop < parallel)
    return kernel.parallelExtents[loop];
  loop -= parallel;
  return loop < kernel.reductionExtents.size() ? kernel.reductionExtents[loop]
                                               : 1;
}

//===----------------------------------------------------------------------===//
// GPU
//===----------------------------------------------------------------------===//

double estimateGPU(const KernelModel &kernel, const KernelSchedule &schedule,
                   const DeviceProfile &device) {
  if (schedule.tilesOuterProduct())
    return estimateOuterProductSeconds(kernel, schedule, device);
  if (schedule.row > 0)
    return estimateRowSeconds(kernel, schedule, device);
  GPUGrid grid = computeGPUGrid(kernel.parallelExtents, schedule);
  double clock = clockHz(device);
  double units = double(std::max<int64_t>(device.computeUnits, 1));
  double groups = grid.groups();
  double items = double(grid.workItems());
  unsigned n = kernel.parallelExtents.size();
  unsigned loops = n + kernel.reductionExtents.size();

  // Padding: the iterations the grid runs beyond the band's extents.
  double padded = 1;
  for (const GridDim &dim : grid.dims)
    padded *= double(dim.groups() * dim.block) / double(dim.extent);

  // Lanes: work-items fill subgroups (a CPU device: SIMD lanes along x).
  double lanes = device.isCPU
                     ? double(std::max<int64_t>(device.vectorBytes / 4, 1))
                     : double(std::max<int64_t>(device.subgroupSize, 1));
  double laneItems = device.isCPU ? double(grid.dims[0].workItems()) : items;
  double laneUse = laneItems / (std::ceil(laneItems / lanes) * lanes);

  // Occupancy: every compute unit busy, and (GPU) enough resident
  // subgroups to hide latency.
  int64_t staged = stagedBytes(kernel, schedule, grid);
  double resident = std::max(1.0, std::floor(kGPUMaxItemsPerCU / items));
  if (staged > 0)
    resident = std::min(resident, std::floor(double(device.localMemBytes) /
                                             double(staged)));
  resident = std::max(resident, 1.0);
  double perUnit = groups / units;
  double fill = perUnit / std::ceil(perUnit);
  double hiding = 1;
  if (!device.isCPU) {
    double subgroups = std::min(resident, std::ceil(perUnit)) *
                       std::ceil(items / lanes);
    hiding = std::min(1.0, subgroups / kGPUSubgroupsToHideLatency);
  }

  // Per work-item: each loop covers its thread tile (parallel) or its
  // whole extent (reductions run inside the work-item).
  std::vector<double> itemRange(loops, 1), groupRange(loops, 1);
  for (unsigned loop = 0; loop < loops; ++loop) {
    if (loop >= n) {
      itemRange[loop] = groupRange[loop] = double(loopExtent(kernel, loop));
      continue;
    }
    const GridDim &dim = grid.dims[grid.dimOf[loop]];
    bool tiled = dim.loops.size() == 1;
    itemRange[loop] = tiled ? double(dim.thread) : 1;
    groupRange[loop] = tiled ? double(dim.block) : 1;
  }
  int x = grid.xLoop();
  double accesses = 0, l2Bytes = 0;
  double accumulators = 1;
  for (unsigned loop = 0; loop < n; ++loop)
    accumulators *= itemRange[loop];
  for (auto [index, operand] : llvm::enumerate(kernel.operands)) {
    double perItem = tileElements(operand, itemRange);
    if (schedule.vector > 1 && x >= 0 && operand.dependsOn[x] &&
        operand.contiguousInner)
      perItem /= double(schedule.vector);
    double inGroup = perItem * items;
    double footprint = tileElements(operand, groupRange);
    accesses += inGroup * groups;
    double bytes = double(operand.elementBytes);
    if (schedule.stages(index)) {
      l2Bytes += footprint * groups * bytes;
      accesses += footprint * groups; // the cooperative copy
    } else {
      double rereads = std::max(0.0, inGroup - footprint);
      l2Bytes += (footprint + kGPUUnstagedMissShare * rereads) * groups * bytes;
    }
  }
  double dramBytes = kernel.uniqueBytes <= double(device.l2Bytes)
                         ? kernel.uniqueBytes
                         : std::max(kernel.uniqueBytes, 0.5 * l2Bytes);

  double peakFlops = estimatedPeakFlops(device);
  double peakBytes = estimatedPeakBytes(device);
  double compute = kernel.totalFlops * padded / (peakFlops * laneUse);
  double l1 = accesses / (units * clock * kGPUAccessesPerCycle * laneUse);
  double l2 = l2Bytes / (kGPUL2OverDRAM * peakBytes);
  double dram = dramBytes / peakBytes;
  double seconds = overlapped({compute, l1, l2, dram}) / (fill * hiding);
  if (accumulators > double(kGPUMaxAccumulators))
    seconds *= kSpillPenalty;

  if (staged > 0 && !kernel.reductionExtents.empty()) {
    int64_t reduction = kernel.reductionExtents.front();
    int64_t block = schedule.blockOf(n);
    if (block <= 0 || block > reduction)
      block = reduction;
    double barriers = 2 * double(ceilDiv(reduction, block)) * groups;
    double cycles = device.isCPU ? kCPUBarrierCyclesPerItem * items
                                 : kGPUBarrierCycles;
    seconds += barriers * cycles / (clock * std::min(units, groups));
  }
  return seconds + kLaunchSeconds;
}

//===----------------------------------------------------------------------===//
// CPU
//===----------------------------------------------------------------------===//

/// One loop of the tiled CPU nest, outermost first.
struct ExecLoop {
  unsigned loop;   ///< band position, or n + reduction index
  double trips;    ///< iterations
  double coverage; ///< iterations of `loop` one full run covers
};

/// The loops ApplyCPUSchedule builds: the cache-tile loops in `order`, the
/// thread-tile loops in band order, then the reduction loops.
std::vector<ExecLoop> cpuLoops(const KernelModel &kernel,
                               const KernelSchedule &schedule,
                               std::vector<double> &microRange) {
  unsigned n = kernel.parallelExtents.size();
  unsigned loops = n + kernel.reductionExtents.size();
  std::vector<ExecLoop> nest;
  for (unsigned i = 0; i < n; ++i) {
    unsigned loop = schedule.order.size() == n ? unsigned(schedule.order[i])
                                               : i;
    int64_t extent = kernel.parallelExtents[loop];
    int64_t block = schedule.blockOf(loop);
    if (block > 0 && block < extent)
      nest.push_back({loop, double(ceilDiv(extent, block)), double(extent)});
  }
  for (unsigned loop = 0; loop < n; ++loop) {
    int64_t extent = kernel.parallelExtents[loop];
    int64_t block = schedule.blockOf(loop);
    int64_t cover = block > 0 && block < extent ? block : extent;
    int64_t thread = std::max<int64_t>(schedule.threadOf(loop), 1);
    if (loop + 1 == n)
      thread = std::max(thread, schedule.vector);
    nest.push_back({loop, double(ceilDiv(cover, thread)), double(cover)});
  }
  microRange.assign(loops, 1);
  for (unsigned loop = 0; loop < n; ++loop)
    microRange[loop] = double(std::min<int64_t>(
        std::max<int64_t>(schedule.threadOf(loop), 1),
        kernel.parallelExtents[loop]));
  for (unsigned r = 0; r < kernel.reductionExtents.size(); ++r)
    nest.push_back({n + r, double(kernel.reductionExtents[r]),
                    double(kernel.reductionExtents[r])});
  return nest;
}

/// Bytes moved into a cache of `capacity` bytes: the outermost loop whose
/// one iteration's working set fits decides; operands it does not follow
/// are reused across its iterations, the rest reload every iteration.
double cpuTraffic(const KernelModel &kernel, const std::vector<ExecLoop> &nest,
                  const std::vector<double> &microRange, double capacity) {
  unsigned loops = microRange.size();
  auto rangeInside = [&](size_t depth) {
    std::vector<double> range(microRange);
    std::vector<bool> set(loops, false);
    for (size_t i = depth; i < nest.size(); ++i)
      if (!set[nest[i].loop]) {
        set[nest[i].loop] = true;
        range[nest[i].loop] = nest[i].coverage;
      }
    return range;
  };
  auto footprint = [&](const std::vector<double> &range) {
    double bytes = 0;
    for (const KernelModel::Operand &operand : kernel.operands)
      bytes += tileElements(operand, range) * operand.elementBytes;
    return bytes;
  };
  if (footprint(rangeInside(0)) <= capacity)
    return kernel.uniqueBytes;
  // `depth` is the first loop whose single iteration fits.
  size_t depth = 0;
  double outer = 1;
  while (depth + 1 < nest.size() &&
         footprint(rangeInside(depth + 1)) > capacity)
    outer *= nest[depth++].trips;
  if (depth + 1 == nest.size() &&
      footprint(rangeInside(depth + 1)) > capacity)
    outer *= nest[depth++].trips;
  std::vector<double> range = rangeInside(depth + 1);
  double bytes = 0;
  for (const KernelModel::Operand &operand : kernel.operands) {
    double reloads = outer;
    if (depth < nest.size() && operand.dependsOn[nest[depth].loop])
      reloads *= nest[depth].trips;
    bytes += tileElements(operand, range) * operand.elementBytes * reloads;
  }
  // Every element moves at least once.
  return std::max(bytes, kernel.uniqueBytes);
}

double pointsOf(const std::vector<int64_t> &tile) {
  double points = 1;
  for (int64_t size : tile)
    points *= double(size);
  return points;
}

/// Cycles of one step of a micro-kernel with thread tile `tile` and
/// `lanes`-wide vectors: every point of the tile advanced by one reduction
/// iteration (or computed, without reductions). Each needs its vector
/// arithmetic (a multiply and an add fuse) and loads; the FMA and load
/// pipes work in parallel.
double stepCycles(const KernelModel &kernel, const std::vector<int64_t> &tile,
                  int64_t lanes, int64_t simd, const DeviceProfile &device) {
  unsigned n = tile.size();
  double perVector = double(ceilDiv(lanes, simd)); // instructions
  double vectors = pointsOf(tile) / double(lanes) * perVector;
  bool reduces = !kernel.reductionExtents.empty();
  double fused = reduces && kernel.flopsPerIteration >= 2 ? 0.5 : 1;
  double arithmetic = vectors * double(kernel.flopsPerIteration) * fused;
  double loads = 0;
  for (const KernelModel::Operand &operand : kernel.operands) {
    bool inner = std::any_of(operand.dependsOn.begin() + n,
                             operand.dependsOn.end(), [](bool d) { return d; });
    if (reduces && !inner)
      continue; // loaded or stored once per tile, not per step
    double count = 1;
    for (unsigned loop = 0; loop < n; ++loop) {
      if (!operand.dependsOn[loop])
        continue;
      bool vectorLoads = loop + 1 == n && operand.contiguousInner;
      count *= vectorLoads ? double(tile[loop]) / double(lanes) * perVector
                           : double(tile[loop]);
    }
    loads += count;
  }
  // Each accumulator takes one FMA per flop pair and step, one latency
  // apart.
  double chain = reduces ? kCPUFMALatency * double(kernel.flopsPerIteration) *
                               fused
                         : 0;
  double cycles = std::max({arithmetic / kCPUFMAPipes, loads / kCPULoadPipes,
                            chain});
  // Accumulators, the lane operand's vectors and one broadcast must fit
  // the registers.
  double live = vectors + double(tile[n - 1]) / double(lanes) * perVector + 1;
  if (reduces && live > double(device.vectorRegisters))
    cycles *= kSpillPenalty;
  return cycles;
}

double estimateCPU(const KernelModel &kernel, const KernelSchedule &schedule,
                   const DeviceProfile &device) {
  unsigned n = kernel.parallelExtents.size();
  double clock = clockHz(device);
  double peakBytes = estimatedPeakBytes(device);
  if (n == 0)
    return kernel.totalFlops / (clock * kCPUFMAPipes) +
           kernel.uniqueBytes / peakBytes + kLaunchSeconds;

  int64_t elementBytes = outputElementBytes(kernel);
  int64_t simd = std::max<int64_t>(device.vectorBytes / elementBytes, 1);
  int64_t vector = kernel.vectorizable ? std::max<int64_t>(schedule.vector, 1)
                                       : 1;
  std::vector<int64_t> tile(n);
  for (unsigned loop = 0; loop < n; ++loop)
    tile[loop] = std::min<int64_t>(std::max<int64_t>(schedule.threadOf(loop), 1),
                                   kernel.parallelExtents[loop]);
  tile[n - 1] = std::max(tile[n - 1], std::min<int64_t>(
                                          schedule.vector,
                                          kernel.parallelExtents[n - 1]));

  // Full tiles run the micro-kernel; along each loop the iterations left
  // over run as one smaller tile (one lane at a time on the lanes).
  double steps = 1;
  for (int64_t extent : kernel.reductionExtents)
    steps *= double(extent);
  double cycles = 0;
  unsigned regions = n <= kMaxRemainderLoops ? 1u << n : 1;
  for (unsigned mask = 0; mask < regions; ++mask) {
    std::vector<int64_t> regionTile(tile);
    double count = 1;
    for (unsigned loop = 0; loop < n; ++loop) {
      int64_t extent = kernel.parallelExtents[loop];
      bool rest = mask & (1u << loop);
      regionTile[loop] = !rest ? tile[loop]
                         : loop + 1 == n ? 1
                                         : extent % tile[loop];
      count *= double(rest ? extent % tile[loop]
                           : extent / tile[loop] * tile[loop]);
    }
    if (count == 0)
      continue;
    int64_t lanes = regionTile[n - 1] % vector == 0 ? vector : 1;
    cycles += count * steps *
              stepCycles(kernel, regionTile, lanes, simd, device) /
              pointsOf(regionTile);
  }
  // The outermost loop runs on the cores in parallel.
  std::vector<double> microRange;
  std::vector<ExecLoop> nest = cpuLoops(kernel, schedule, microRange);
  double cores = double(std::max<int64_t>(device.computeUnits, 1));
  double trips = nest.empty() ? 1 : nest.front().trips;
  // Cores in use on average: the last round of iterations may leave some
  // idle.
  double parallel = trips / std::ceil(trips / cores);
  double compute = cycles / clock / parallel;

  double l1Traffic = cpuTraffic(kernel, nest, microRange,
                                kCPUL1Share * double(device.l1Bytes));
  double l2 = l1Traffic / (kCPUL2BytesPerCycle * clock * parallel);
  double l2Traffic = cpuTraffic(kernel, nest, microRange,
                                kCPUL2Share * double(device.l2Bytes));
  double l3 = l2Traffic / (kCPUL3BytesPerCycle * clock * parallel);
  double dram = kernel.uniqueBytes / peakBytes;
  return overlapped({compute, l2, l3, dram}) + kLaunchSeconds;
}

} // namespace

double tilec::schedule::estimateSeconds(const KernelModel &kernel,
                                        const KernelSchedule &schedule,
                                        const DeviceProfile &device,
                                        ScheduleKind kind) {
  return kind == ScheduleKind::GPU ? estimateGPU(kernel, schedule, device)
                                   : estimateCPU(kernel, schedule, device);
}
