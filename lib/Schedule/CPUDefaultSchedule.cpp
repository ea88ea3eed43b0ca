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
/// The share of L2 above which a sliding window's panel for the widest
/// lane tile makes it take 2 vectors and a block of rows (setWindowBlock),
/// with leftover rows run as one tile. Measured inside
/// ResNet-18 on a 2-core AVX-512 Xeon (2 MiB L2): the 3x3 convolutions of
/// 64 input channels (panels of 147 KiB) ran 1.07-1.3 times as fast with 6
/// x 64, those of 128 to 512 (295 KiB to 1.2 MiB) 1.1-1.6 times as fast
/// with 2 x 7 x 32; a 7x7 stem of 3 channels (37 KiB), 1.8 times as fast
/// with 6 x 64.
constexpr int64_t kWindowPanelShareOfL2 = 8;

/// Whitespace, and the NULs that pad a sysfs file read as a whole page
/// (the last character; StringLiteral refuses an embedded NUL).
constexpr char kPaddingChars[] = " \t\n\v\f\r\0";
const llvm::StringRef kPadding(kPaddingChars, sizeof(kPaddingChars) - 1);

/// A sysfs file's text, trimmed. Read as a stream: sysfs reports every
/// file as a page long, and getFile pads the short text to that size with
/// NULs (which trim() alone keeps: no cache size was ever read).
std::string readSysfsText(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFileAsStream(path);
  return buffer ? (*buffer)->getBuffer().trim(kPadding).str() : std::string();
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

/// The largest divisor of `extent` that is at most `most`.
int64_t largestDivisor(int64_t extent, int64_t most) {
  for (int64_t rows = std::min(most, extent); rows > 1; --rows)
    if (extent % rows == 0)
      return rows;
  return 1;
}

/// A block of at most `points` rows of a sliding window over the two loops
/// before the lanes (a convolution's image rows and pixels): half of them
/// along the pixels, as pickRows places them, and the rest over as many
/// image rows as divide the image. Neighbouring image rows read the same
/// input rows through the window's taps, and every point reuses each
/// filter vector. Measured alone on a 2-core AVX-512 Xeon, 3x3
/// convolutions of 56x56x64, 28x28x128 and 14x14x256 ran 1.06, 1.07 and
/// 1.38 times as fast in 2 x 7 pixels of 2 vectors as in 14 pixels in a
/// row (against 6 x 64, see kWindowPanelShareOfL2). An image row left over
/// (7x7x512 in blocks of 2 x 7) ran 0.85 times as fast as 1 x 7, hence
/// only divisors.
/// At a stride of 2 the image rows share one input row in three: 28x28 to
/// 14x14 pixels of 128 to 256 channels ran 1.4 times as fast in 1 x 7
/// pixels as in 2 x 7.
void setWindowBlock(KernelSchedule &schedule, const KernelShape &kernel,
                    int64_t points) {
  const std::vector<int64_t> &extents = kernel.extents;
  size_t n = extents.size();
  int64_t pixels = pickRows(extents[n - 2], std::max<int64_t>(points / 2, 1));
  schedule.thread[n - 2] = pixels;
  if (kernel.windowRowStride == 1)
    schedule.thread[n - 3] = largestDivisor(extents[n - 3], points / pixels);
}

} // namespace

int64_t tilec::schedule::parseCacheSize(llvm::StringRef text) {
  text = text.trim(kPadding);
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1024;
  else if (text.consume_back("M"))
    scale = 1024 * 1024;
  int64_t value = 0;
  if (text.empty() || text.getAsInteger(10, value) || value < 0)
    return 0;
  return value * scale;
}

CPUFacts tilec::schedule::hostCPUFacts() {
  CPUFacts facts;
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  setSIMDFacts(facts, features.lookup("avx512f"), features.lookup("avx"));
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string level = readSysfsText(dir + "/level");
    std::string type = readSysfsText(dir + "/type");
    int64_t size = parseCacheSize(readSysfsText(dir + "/size"));
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
  // Where the lane operand's panel for the widest lane tile takes more
  // than kWindowPanelShareOfL2 of L2, a window's rows take fewer vectors
  // and more points, so that each vector loaded from L2 feeds more FMAs.
  bool windowBlock =
      kernel.slidingWindow && n >= 3 && cpu.vectorRegisters >= 32 &&
      vectors >= 2 &&
      kernel.reductionExtent * vectors * width * kernel.elementBytes >
          cpu.l2Bytes / kWindowPanelShareOfL2;
  if (windowBlock)
    vectors = 2;
  int64_t laneTile = vectors * width;
  schedule.thread.back() = laneTile;
  // The points whose accumulators fit beside the operand vectors and one
  // broadcast.
  int64_t points = (cpu.vectorRegisters - vectors - 1) / vectors;
  if (windowBlock)
    setWindowBlock(schedule, kernel, points);
  else if (n >= 2)
    schedule.thread[n - 2] = pickRows(kernel.extents[n - 2],
                                      std::clamp<int64_t>(points, 1, kMaxRows));

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
