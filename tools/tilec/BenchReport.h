//===- BenchReport.h - What `tilec bench` measured, as text or JSON -*- C++ -*-===//
//
// Part of the tilec driver: the measurements of `tilec bench` as plain
// data, and their two forms (people and scripts; docs/bench.md is the
// reference of the JSON). Rates are given as fractions of the device's
// peaks only when `tilec devices --probe` measured them: an estimate from
// the device's properties is not known to bound what a kernel reaches.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_BENCHREPORT_H
#define TILEC_TOOLS_TILEC_BENCHREPORT_H

#include "tilec/Compiler/Compile.h"
#include "tilec/Compiler/KernelSchedules.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec::driver {

using compiler::KernelReport;
using compiler::TemporaryMemory;

/// Median, fastest and slowest of a series of seconds.
struct TimeStats {
  double median = 0, min = 0, max = 0;
  /// The statistics of `seconds` (all zero when it is empty).
  static TimeStats of(std::vector<double> seconds);
};

struct KernelBench {
  KernelReport kernel;
  TimeStats time;
};

struct BenchReport {
  std::string program;
  std::string target;
  std::string deviceId, deviceName;
  unsigned repeat = 0, warmup = 0;
  double compileSeconds = 0;
  double peakFlops = 0, peakBytes = 0; ///< per second
  bool peakMeasured = false;           ///< false: estimated from properties
  std::vector<KernelBench> kernels;
  TimeStats kernelTotal; ///< the sum of the kernels' times of each run
  TimeStats wall;        ///< each run as the host saw it, copies included
  TemporaryMemory temporaries;
  bool checkOk = true;
  double maxAbsError = 0, maxRelError = 0;
  std::vector<std::string> checkLines; ///< one per output
};

/// The report for people.
std::string formatBenchText(const BenchReport &report);
/// The report for scripts (docs/bench.md), 2-space indented.
std::string formatBenchJson(const BenchReport &report);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_BENCHREPORT_H
