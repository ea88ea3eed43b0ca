//===- Report.h - What tilec-run prints --------------------------*- C++
//-*-===//

#ifndef TILEC_TOOLS_TILEC_RUN_REPORT_H
#define TILEC_TOOLS_TILEC_RUN_REPORT_H

#include "tilec/Runtime/Device.h"

#include <map>
#include <string>
#include <vector>

namespace tilec::run {

/// The measurements of one kernel over all repeats.
struct KernelStats {
  std::string name;
  double medianSeconds = 0, minSeconds = 0;
  uint64_t flops = 0, bytes = 0;
};

/// Everything a run reports.
struct RunReport {
  std::string manifest, device;
  unsigned repeat = 1;
  std::map<std::string, Tensor> outputs;
  std::vector<std::string> outputOrder;           ///< manifest order
  std::map<std::string, std::string> outputFiles; ///< name -> .npy written
  std::vector<KernelStats> kernels;
  double totalMedianSeconds = 0, totalMinSeconds = 0;
};

/// Per-kernel median and minimum of `runs` (one timing list per run, each
/// in manifest kernel order), and the same for the sum over kernels.
void summarizeTimings(const rt::Manifest &manifest,
                      const std::vector<std::vector<rt::KernelTiming>> &runs,
                      RunReport &report);

/// The text report: one summary line per output (as `tilec run` prints
/// them), then one timing line per kernel and the total.
std::string formatReport(const RunReport &report);
/// The same as JSON.
std::string formatReportJson(const RunReport &report);

} // namespace tilec::run

#endif // TILEC_TOOLS_TILEC_RUN_REPORT_H
