//===- TuneProgress.h - What autotune shows while it measures ---*- C++ -*-===//
//
// The TuningObserver of `tilec autotune` (tilec/Autotune/Tuner.h). On a
// terminal, one line that updates in place (kernel i of n, candidates tried,
// best so far, time left) and a permanent line per finished kernel;
// elsewhere (a pipe, a log, a test) plain lines, one per candidate, so that
// the output can be read afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_TUNEPROGRESS_H
#define TILEC_TOOLS_TILEC_TUNEPROGRESS_H

#include "tilec/Autotune/Tuner.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilec::driver {

class TuneProgress final : public autotune::TuningObserver {
public:
  using KernelTask = autotune::KernelTask;
  using TunedKernel = autotune::TunedKernel;

  /// `interactive`: `os` is a terminal, so lines may be rewritten.
  TuneProgress(llvm::raw_ostream &os, bool interactive);

  void startKernel(unsigned index, unsigned count,
                   const KernelTask &task) override;
  void candidateDone(const KernelTask &task, unsigned candidate,
                     const tune::CandidateResult &result, double seconds,
                     const TunedKernel &sofar, double timeLeft) override;
  void finishKernel(const KernelTask &task, const TunedKernel &tuned) override;
  void kernelSkipped(unsigned index, unsigned count, const KernelTask &task,
                     const std::string &path) override;
  void stoppedAfter(unsigned tuned) override;
  void budgetSpent(unsigned untuned) override;
  /// A line that stays (a skipped kernel, the budget, the summary).
  void note(const std::string &line) override;

private:
  /// Replaces the status line on a terminal.
  void status(const std::string &line);
  /// Ends the status line so that a permanent line can follow.
  void clearStatus();

  llvm::raw_ostream &os;
  bool interactive;
  bool statusShown = false;
  unsigned index = 0, count = 0;
};

/// "0.1234 ms".
std::string formatMilliseconds(double seconds);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_TUNEPROGRESS_H
