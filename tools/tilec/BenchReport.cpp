//===- BenchReport.cpp - What `tilec bench` measured, as text or JSON -----===//
//
// Part of the tilec driver; see BenchReport.h. A kernel's rates use its
// median time; the totals use the median of the per-run kernel sums.
//
//===----------------------------------------------------------------------===//

#include "BenchReport.h"

#include "tilec/Schedule/ScheduleFile.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace tilec;
using namespace tilec::driver;
using json = nlohmann::json;

TimeStats TimeStats::of(std::vector<double> seconds) {
  TimeStats stats;
  if (seconds.empty())
    return stats;
  std::sort(seconds.begin(), seconds.end());
  size_t n = seconds.size();
  stats.median = n % 2 ? seconds[n / 2]
                       : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
  stats.min = seconds.front();
  stats.max = seconds.back();
  return stats;
}

namespace {

/// `amount` per `seconds`; 0 when the time is 0 (too short to measure).
double rate(double amount, double seconds) {
  return seconds > 0 ? amount / seconds : 0;
}

double fraction(double achieved, double peak) {
  return peak > 0 ? achieved / peak : 0;
}

/// A fraction of the peak for the JSON report: null unless the peaks were
/// measured, since an estimated peak is not known to bound anything.
json fractionJson(double achieved, double peak, const BenchReport &report) {
  return report.peakMeasured ? json(fraction(achieved, peak)) : json(nullptr);
}

/// " (4.5% of peak)". A bandwidth above the measured one is not called a
/// share of the peak: the probe copies through DRAM, and a kernel goes
/// faster only when its operands sit in a cache.
std::string peakShareText(double achieved, double peak, bool bandwidth) {
  double share = fraction(achieved, peak);
  if (bandwidth && share > 1)
    return fmt::format(" ({:.1f}% of the measured copy rate: its operands "
                       "came from cache)",
                       100 * share);
  return fmt::format(" ({:.1f}% of peak)", 100 * share);
}

/// 0.00123 -> "1.230 ms".
std::string timeText(double seconds) {
  if (seconds >= 1)
    return fmt::format("{:.3f} s", seconds);
  if (seconds >= 1e-3)
    return fmt::format("{:.3f} ms", seconds * 1e3);
  return fmt::format("{:.1f} us", seconds * 1e6);
}

std::string bytesText(uint64_t bytes) {
  if (bytes >= (1u << 20))
    return fmt::format("{:.1f} MiB", double(bytes) / (1 << 20));
  if (bytes >= (1u << 10))
    return fmt::format("{:.1f} KiB", double(bytes) / (1 << 10));
  return fmt::format("{} B", bytes);
}

/// "12.3 GFLOP/s (4.5% of peak), 6.7 GB/s (8.9% of peak)" against measured
/// peaks; without them the rates alone, and how to get the peaks.
std::string ratesText(double flops, double bytes, double seconds,
                      const BenchReport &report) {
  double flopRate = rate(flops, seconds), byteRate = rate(bytes, seconds);
  if (!report.peakMeasured)
    return fmt::format("{:.2f} GFLOP/s, {:.2f} GB/s (peak not measured; run "
                       "tilec devices --probe)",
                       flopRate / 1e9, byteRate / 1e9);
  return fmt::format(
      "{:.2f} GFLOP/s{}, {:.2f} GB/s{}", flopRate / 1e9,
      peakShareText(flopRate, report.peakFlops, /*bandwidth=*/false),
      byteRate / 1e9,
      peakShareText(byteRate, report.peakBytes, /*bandwidth=*/true));
}

std::string statsText(const TimeStats &stats) {
  return fmt::format("median {} (min {}, max {})", timeText(stats.median),
                     timeText(stats.min), timeText(stats.max));
}

double totalOf(const BenchReport &report, double KernelReport::*field) {
  double total = 0;
  for (const KernelBench &kernel : report.kernels)
    total += kernel.kernel.*field;
  return total;
}

} // namespace

std::string tilec::driver::formatBenchText(const BenchReport &report) {
  std::string text = fmt::format("bench: {} on {} ({}), target {}\n",
                                 report.program, report.deviceId,
                                 report.deviceName, report.target);
  text += fmt::format("compile: {}\n", timeText(report.compileSeconds));
  if (report.peakMeasured)
    text += fmt::format("peak: {:.2f} GFLOP/s, {:.2f} GB/s (compute: the "
                        "higher of 'tilec devices --probe' and the "
                        "theoretical rate; bandwidth: measured by the probe)\n",
                        report.peakFlops / 1e9, report.peakBytes / 1e9);
  else
    text += fmt::format("peak: not measured ('tilec devices --probe' measures "
                        "it); the cost model assumes {:.2f} GFLOP/s, {:.2f} "
                        "GB/s\n",
                        report.peakFlops / 1e9, report.peakBytes / 1e9);
  text += fmt::format("runs: {} timed after {} warm-up\n", report.repeat,
                      report.warmup);
  for (const KernelBench &kernel : report.kernels) {
    const KernelReport &k = kernel.kernel;
    text += fmt::format("kernel {} ({}): {}\n", k.name, k.fingerprint,
                        statsText(kernel.time));
    text += fmt::format("  {}\n", ratesText(k.flops, k.bytes,
                                            kernel.time.median, report));
    if (k.scheduleSource == "row kernel")
      text += "  schedule: none (a row kernel: rows on threads, columns on "
              "vectors)\n";
    else if (k.scheduleSource == "none")
      text += "  schedule: none (the CPU schedules do not take this form)\n";
    else
      text += fmt::format("  schedule ({}): {}\n", k.scheduleSource,
                          k.schedule.str());
  }
  text += fmt::format("total: kernels {}; wall {}\n",
                      statsText(report.kernelTotal), statsText(report.wall));
  text += fmt::format("  {}\n",
                      ratesText(totalOf(report, &KernelReport::flops),
                                totalOf(report, &KernelReport::bytes),
                                report.kernelTotal.median, report));
  const TemporaryMemory &memory = report.temporaries;
  text += fmt::format("peak temporary memory: {} ({} temporaries in {} "
                      "buffers, {} without reuse)\n",
                      bytesText(memory.peakBytes), memory.temporaries,
                      memory.slots, bytesText(memory.unsharedBytes));
  for (const std::string &line : report.checkLines)
    text += line + "\n";
  text += fmt::format("check: {} against the interpreter\n",
                      report.checkOk ? "ok" : "MISMATCH");
  return text;
}

std::string tilec::driver::formatBenchJson(const BenchReport &report) {
  json kernels = json::array();
  for (const KernelBench &kernel : report.kernels) {
    const KernelReport &k = kernel.kernel;
    double flopRate = rate(k.flops, kernel.time.median);
    double byteRate = rate(k.bytes, kernel.time.median);
    kernels.push_back(
        {{"name", k.name},
         {"fingerprint", k.fingerprint},
         {"schedule_source", k.scheduleSource},
         {"schedule", json::parse(schedule::scheduleToJson(k.schedule))},
         {"median_seconds", kernel.time.median},
         {"min_seconds", kernel.time.min},
         {"max_seconds", kernel.time.max},
         {"flops", k.flops},
         {"bytes", k.bytes},
         {"gflops", flopRate / 1e9},
         {"gbps", byteRate / 1e9},
         {"fraction_of_peak_flops",
          fractionJson(flopRate, report.peakFlops, report)},
         {"fraction_of_peak_bandwidth",
          fractionJson(byteRate, report.peakBytes, report)}});
  }
  double totalSeconds = report.kernelTotal.median;
  json root = {
      {"program", report.program},
      {"target", report.target},
      {"device", report.deviceId},
      {"repeat", report.repeat},
      {"compile_seconds", report.compileSeconds},
      {"peak",
       {{"flops_per_second", report.peakFlops},
        {"bytes_per_second", report.peakBytes},
        {"measured", report.peakMeasured}}},
      {"kernels", kernels},
      {"total",
       {{"median_seconds", totalSeconds},
        {"min_seconds", report.kernelTotal.min},
        {"max_seconds", report.kernelTotal.max},
        {"wall_median_seconds", report.wall.median},
        {"gflops",
         rate(totalOf(report, &KernelReport::flops), totalSeconds) / 1e9},
        {"gbps",
         rate(totalOf(report, &KernelReport::bytes), totalSeconds) / 1e9}}},
      {"peak_temporary_bytes", report.temporaries.peakBytes},
      {"temporaries",
       {{"count", report.temporaries.temporaries},
        {"buffers", report.temporaries.slots},
        {"unshared_bytes", report.temporaries.unsharedBytes}}},
      {"check",
       {{"ok", report.checkOk},
        {"max_abs_error", report.maxAbsError},
        {"max_rel_error", report.maxRelError}}}};
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}
