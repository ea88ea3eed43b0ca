//===- Report.cpp - What tilec-run prints ---------------------------------===//
//
// Kernel times are the device's own profiling counters (start to end of
// each launch), so they exclude transfers and host overhead. The median is
// the figure to compare; the minimum shows the noise.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "tilec/Autotune/TuneFolder.h"
#include "tilec/Support/TensorSummary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

using namespace tilec;
using namespace tilec::run;
using json = nlohmann::json;

void tilec::run::summarizeTimings(
    const rt::Manifest &manifest,
    const std::vector<std::vector<rt::KernelTiming>> &runs, RunReport &report) {
  std::vector<double> totals;
  for (const std::vector<rt::KernelTiming> &run : runs) {
    double total = 0;
    for (const rt::KernelTiming &timing : run)
      total += timing.seconds;
    totals.push_back(total);
  }
  for (size_t k = 0; k < manifest.kernels.size(); ++k) {
    std::vector<double> times;
    for (const std::vector<rt::KernelTiming> &run : runs)
      if (k < run.size())
        times.push_back(run[k].seconds);
    KernelStats stats;
    stats.name = manifest.kernels[k].name;
    stats.flops = manifest.kernels[k].flops;
    stats.bytes = manifest.kernels[k].bytes;
    stats.medianSeconds = tune::medianOf(times);
    stats.minSeconds =
        times.empty() ? 0 : *std::min_element(times.begin(), times.end());
    report.kernels.push_back(stats);
  }
  report.totalMedianSeconds = tune::medianOf(totals);
  report.totalMinSeconds =
      totals.empty() ? 0 : *std::min_element(totals.begin(), totals.end());
}

/// "kernel add_C: median 0.012 ms, min 0.010 ms, 1.2 GFLOP/s, 3.4 GB/s".
static std::string timingLine(const std::string &label, double medianSeconds,
                              double minSeconds, uint64_t flops,
                              uint64_t bytes) {
  char text[256];
  std::snprintf(text, sizeof(text), "%s: median %.4f ms, min %.4f ms",
                label.c_str(), medianSeconds * 1e3, minSeconds * 1e3);
  std::string line = text;
  if (medianSeconds > 0 && (flops || bytes)) {
    std::snprintf(text, sizeof(text), ", %.3g GFLOP/s, %.3g GB/s",
                  double(flops) / medianSeconds * 1e-9,
                  double(bytes) / medianSeconds * 1e-9);
    line += text;
  }
  return line + "\n";
}

std::string tilec::run::formatReport(const RunReport &report) {
  std::string text;
  for (const std::string &name : report.outputOrder)
    text += summarizeTensor(name, report.outputs.at(name)) + "\n";
  text += "device " + report.device + ", " + std::to_string(report.repeat) +
          (report.repeat == 1 ? " run\n" : " runs\n");
  uint64_t flops = 0, bytes = 0;
  for (const KernelStats &kernel : report.kernels) {
    text += timingLine("kernel " + kernel.name, kernel.medianSeconds,
                       kernel.minSeconds, kernel.flops, kernel.bytes);
    flops += kernel.flops;
    bytes += kernel.bytes;
  }
  text += timingLine("total", report.totalMedianSeconds, report.totalMinSeconds,
                     flops, bytes);
  return text;
}

std::string tilec::run::formatReportJson(const RunReport &report) {
  json outputs = json::array(), kernels = json::array();
  for (const std::string &name : report.outputOrder) {
    const Tensor &tensor = report.outputs.at(name);
    double sum = 0;
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      sum += tensor.getDouble(i);
    json entry = {{"name", name},
                  {"dtype", dtypeName(tensor.type.dtype)},
                  {"shape", tensor.type.shape},
                  {"sum", sum},
                  {"summary", summarizeTensor(name, tensor)}};
    auto file = report.outputFiles.find(name);
    if (file != report.outputFiles.end())
      entry["file"] = file->second;
    outputs.push_back(entry);
  }
  for (const KernelStats &kernel : report.kernels)
    kernels.push_back({{"name", kernel.name},
                       {"median_s", kernel.medianSeconds},
                       {"min_s", kernel.minSeconds},
                       {"flops", kernel.flops},
                       {"bytes", kernel.bytes}});
  json root = {{"manifest", report.manifest},
               {"device", report.device},
               {"repeat", report.repeat},
               {"outputs", outputs},
               {"kernels", kernels},
               {"total",
                {{"median_s", report.totalMedianSeconds},
                 {"min_s", report.totalMinSeconds}}}};
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}
