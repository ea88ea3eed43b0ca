//===- CPUDefaultSchedule.cpp - The default CPU schedule ------------------===//
//
// The micro-kernel shape is the classic one of BLAS kernels: R vector
// registers hold rows x vectors accumulators plus the `vectors` operand
// loads and one broadcast, and each reduction step does rows x vectors FMAs
// for rows + vectors loads, so more of both (within registers) means fewer
// loads per FMA. Six rows is where the gain flattens out and the remainder
// grows.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/CPUDefaultSchedule.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <string>

using namespace tilec;
using namespace tilec::schedule;

namespace {

constexpr int64_t kMaxRows = 6;
/// The share of L2 a packed panel may take to stay there beside the rows
/// that stream past it.
constexpr int64_t kPanelShareOfL2 = 2;

/// A sysfs cache file's text ("48K\n") as bytes; 0 if unreadable.
int64_t readSysfsSize(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return 0;
  llvm::StringRef text = (*buffer)->getBuffer().trim();
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1024;
  else if (text.consume_back("M"))
    scale = 1024 * 1024;
  int64_t value = 0;
  if (text.getAsInteger(10, value))
    return 0;
  return value * scale;
}

std::string readSysfsText(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  return buffer ? (*buffer)->getBuffer().trim().str() : std::string();
}

/// Rows per micro-kernel out of `extent`: the most accumulators, counting
/// only rows that full tiles cover.
int64_t pickRows(int64_t extent, int64_t maxRows) {
  int64_t best = 1;
  double bestScore = 0;
  for (int64_t rows = 1; rows <= std::min(maxRows, extent); ++rows) {
    double covered = static_cast<double>(extent / rows * rows) / extent;
    double score = rows * covered;
    if (score > bestScore) {
      bestScore = score;
      best = rows;
    }
  }
  return best;
}

} // namespace

CPUFacts tilec::schedule::hostCPUFacts() {
  CPUFacts facts;
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  setSIMDFacts(facts, features.lookup("avx512f"), features.lookup("avx"));
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string level = readSysfsText(dir + "/level");
    std::string type = readSysfsText(dir + "/type");
    int64_t size = readSysfsSize(dir + "/size");
    if (level.empty() || size == 0)
      continue;
    if (level == "1" && type == "Data")
      facts.l1Bytes = size;
    else if (level == "2" && type != "Instruction")
      facts.l2Bytes = size;
  }
  return facts;
}

void tilec::schedule::setSIMDFacts(CPUFacts &facts, bool hasAVX512F,
                                   bool hasAVX) {
  CPUFacts sse;
  facts.vectorBytes = sse.vectorBytes;
  facts.vectorRegisters = sse.vectorRegisters;
  if (hasAVX512F) {
    facts.vectorBytes = 64;
    facts.vectorRegisters = 32;
  } else if (hasAVX) {
    facts.vectorBytes = 32;
  }
}

KernelSchedule
tilec::schedule::defaultCPUSchedule(const KernelShape &kernel,
                                    const CPUFacts &cpu) {
  KernelSchedule schedule;
  size_t n = kernel.extents.size();
  if (n == 0)
    return schedule;
  int64_t laneExtent = kernel.extents.back();
  int64_t width = 1;
  if (kernel.vectorizable) {
    int64_t simd = std::max<int64_t>(1, cpu.vectorBytes / kernel.elementBytes);
    width = static_cast<int64_t>(
        llvm::bit_floor(static_cast<uint64_t>(std::min(simd, laneExtent))));
    width = std::max<int64_t>(width, 1);
  }
  schedule.vector = width;
  schedule.thread.assign(n, 1);
  schedule.block.assign(n, 0);
  schedule.thread.back() = width;
  if (kernel.reductionExtent == 0)
    return schedule;

  int64_t maxVectors = cpu.vectorRegisters >= 32 ? 4 : 2;
  int64_t vectors =
      std::clamp<int64_t>(laneExtent / width, 1, maxVectors);
  int64_t laneTile = vectors * width;
  schedule.thread.back() = laneTile;
  int64_t rowTile = 1;
  if (n >= 2) {
    int64_t maxRows = std::clamp<int64_t>(
        (cpu.vectorRegisters - vectors - 1) / vectors, 1, kMaxRows);
    rowTile = pickRows(kernel.extents[n - 2], maxRows);
    schedule.thread[n - 2] = rowTile;
  }

  // The lane panel outermost: each panel of the operand read along the
  // lanes is packed (TiledKernel.cpp) and read by every row of the other
  // while it stays in L2. (Unpacked, its rows sat one operand row apart,
  // often a power of two bytes, on a fraction of L2's sets: a 256 KiB
  // panel outermost ran at a tenth of the emitted order's speed.)
  int64_t panelBytes = kernel.reductionExtent * laneTile * kernel.elementBytes;
  if (panelBytes <= cpu.l2Bytes / kPanelShareOfL2 && laneExtent > laneTile) {
    schedule.block.back() = laneTile;
    schedule.order.push_back(static_cast<int64_t>(n - 1));
    for (size_t i = 0; i + 1 < n; ++i)
      schedule.order.push_back(static_cast<int64_t>(i));
  }
  return schedule;
}

DeviceProfile tilec::schedule::profileFromCPUFacts(const CPUFacts &facts) {
  DeviceProfile profile;
  profile.isCPU = true;
  profile.computeUnits = 1;
  profile.vectorBytes = facts.vectorBytes;
  profile.vectorRegisters = facts.vectorRegisters;
  profile.l1Bytes = facts.l1Bytes;
  profile.l2Bytes = facts.l2Bytes;
  profile.preferredVectorWidth = std::max<int64_t>(facts.vectorBytes / 4, 1);
  return profile;
}

DeviceProfile tilec::schedule::hostCPUProfile() {
  DeviceProfile profile = profileFromCPUFacts(hostCPUFacts());
  Result<rt::TargetRuntime> host = rt::openTargetRuntime("cpu");
  if (host && !host->devices.empty()) {
    const rt::DeviceInfo &device = host->devices.front();
    profile.id = device.id;
    profile.computeUnits = std::max<int64_t>(device.computeUnits, 1);
    profile.clockMHz = device.clockMHz;
    if (device.cacheLineBytes)
      profile.cacheLineBytes = device.cacheLineBytes;
  }
  return profile;
}
