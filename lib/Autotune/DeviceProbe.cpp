//===- DeviceProbe.cpp - Measuring a device's peak rates ------------------===//
//
// Part of lib/Autotune; see DeviceProbe.h. The programs are written to
// a temporary .tile file because the front end reads programs from files.
// Rates are counted from the programs' definitions (2 x 4 bytes per copied
// element, 2 flops per multiply-add), not from the compiler's counters, so
// they mean the same on every target; the best of a few runs is kept, as
// a peak is what the device can reach, not what it usually does.
//
//===----------------------------------------------------------------------===//

#include "tilec/Autotune/DeviceProbe.h"
#include "tilec/Autotune/Tuner.h"

#include "tilec/Compiler/LoadedProgram.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Target/CompileError.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>

using namespace tilec;
using namespace tilec::autotune;
using namespace tilec::compiler;

namespace {

/// Shape of the copy: 64 MiB each way, beyond the caches of today's
/// devices. Two dimensions, so that no grid dimension exceeds what Vulkan
/// devices allow (often 65535 work-groups).
constexpr int64_t kCopyRows = 4096, kCopyColumns = 4096;
/// Shape and work of the compute probe: about 2 x 64 x 1M = 128 MFLOP per
/// run on 8 MiB, 16 flops per byte moved, so arithmetic dominates.
constexpr int64_t kChainRows = 256, kChainColumns = 4096;
constexpr int kChainLength = 64; ///< multiply-adds per element, in all
constexpr int kChains = 8;        ///< independent chains of 8 each
constexpr unsigned kTimedRuns = 3;

std::string copyProgram() {
  return fmt::format("// tilec devices --probe: bandwidth\n"
                     "function main(A: f32[{}, {}]) -> (B) {{\n"
                     "    B = A + 1.0;\n"
                     "}}\n",
                     kCopyRows, kCopyColumns);
}

/// One fused kernel: every statement is element-wise, so the chains stay in
/// registers and only A and B touch memory. kChains independent chains
/// (different constants, so nothing merges them) give a core enough
/// multiply-adds in flight to hide their latency; a single chain would
/// measure the latency instead.
std::string chainProgram() {
  std::string text = fmt::format("// tilec devices --probe: compute\n"
                                 "function main(A: f32[{}, {}]) -> (B) {{\n",
                                 kChainRows, kChainColumns);
  std::string sum;
  for (int c = 0; c < kChains; ++c) {
    std::string scale = fmt::format("0.{}", 999 - c);
    std::string previous = "A";
    for (int i = 1; i <= kChainLength / kChains; ++i) {
      std::string name = fmt::format("C{}_{}", c, i);
      text += fmt::format("    {} = {} * {} + 0.001;\n", name, previous, scale);
      previous = name;
    }
    sum += (c ? " + " : "") + previous;
  }
  return text + "    B = " + sum + ";\n}\n";
}

/// The shortest time (summed over its kernels) of `source`'s program on
/// `device`, over a warm-up and kTimedRuns runs.
llvm::Expected<double> fastestRun(DeviceTarget &device, Reporter &reporter,
                                  const std::string &source, int64_t rows,
                                  int64_t columns) {
  llvm::SmallString<128> path;
  if (std::error_code error =
          llvm::sys::fs::createTemporaryFile("tilec-probe", "tile", path))
    return runtimeError("cannot create a temporary file for the probe: " +
                        error.message());
  llvm::FileRemover remover(path);
  {
    std::error_code error;
    llvm::raw_fd_ostream os(path, error);
    if (error)
      return runtimeError(path.str() + ": cannot write: " + error.message());
    os << source;
  }
  ProgramOptions options;
  options.inputPath = path.str().str();
  ProgramLoader loader(options, reporter);
  if (llvm::Expected<const ast::Function &> parsed = loader.parse(); !parsed)
    return parsed.takeError();
  llvm::Expected<typed::Program> program = loader.bind();
  if (!program)
    return program.takeError();
  llvm::Expected<std::unique_ptr<LoadedProgram>> loaded =
      compileAndLoad(device, loader, *program, ScheduleChoice(), false);
  if (!loaded)
    return loaded.takeError();
  std::vector<Tensor> inputs{
      Tensor(TensorType{DType::F32, {rows, columns}})};
  (*loaded)->bindInputs(inputs);
  if (llvm::Error error = (*loaded)->runBound(nullptr))
    return std::move(error);
  double best = 0;
  for (unsigned r = 0; r < kTimedRuns; ++r) {
    std::vector<double> seconds;
    if (llvm::Error error = (*loaded)->runBound(&seconds))
      return std::move(error);
    double total = 0;
    for (double kernel : seconds)
      total += kernel;
    if (total > 0 && (best == 0 || total < best))
      best = total;
  }
  if (best == 0)
    return runtimeError(fmt::format("the probe's kernels on {} took no "
                                    "measurable time",
                                    device.device.id));
  return best;
}

} // namespace

llvm::Expected<schedule::MeasuredPeaks>
tilec::autotune::probeDevice(DeviceTarget &device, Reporter &reporter) {
  schedule::MeasuredPeaks peaks;
  llvm::Expected<double> copySeconds =
      fastestRun(device, reporter, copyProgram(), kCopyRows, kCopyColumns);
  if (!copySeconds)
    return copySeconds.takeError();
  peaks.bytesPerSecond =
      double(kCopyRows * kCopyColumns) * 2 * 4 / *copySeconds;
  llvm::Expected<double> chainSeconds = fastestRun(
      device, reporter, chainProgram(), kChainRows, kChainColumns);
  if (!chainSeconds)
    return chainSeconds.takeError();
  // Two flops per multiply-add, and the additions that join the chains.
  peaks.flopsPerSecond = double(kChainRows * kChainColumns) *
                         (kChainLength * 2 + kChains - 1) / *chainSeconds;
  peaks.date = todayUTC();
  return peaks;
}
