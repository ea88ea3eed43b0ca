//===- TuneProgress.cpp - What autotune shows while it measures -----------===//
//
// Part of `tilec autotune`; see TuneProgress.h.
//
//===----------------------------------------------------------------------===//

#include "TuneProgress.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

using namespace tilec;
using namespace tilec::driver;

std::string tilec::driver::formatMilliseconds(double seconds) {
  return fmt::format("{:.4f} ms", seconds * 1e3);
}

TuneProgress::TuneProgress(llvm::raw_ostream &os, bool interactive)
    : os(os), interactive(interactive) {}

void TuneProgress::status(const std::string &line) {
  // Carriage return, then erase to the end of the line.
  os << "\r\x1b[K" << line;
  os.flush();
  statusShown = true;
}

void TuneProgress::clearStatus() {
  if (!statusShown)
    return;
  os << "\r\x1b[K";
  statusShown = false;
}

void TuneProgress::note(const std::string &line) {
  clearStatus();
  os << line << "\n";
  os.flush();
}

void TuneProgress::startKernel(unsigned kernelIndex, unsigned kernelCount,
                               const KernelTask &task) {
  index = kernelIndex;
  count = kernelCount;
  std::string line =
      fmt::format("autotune: kernel {}/{} {} ({}): {} candidate(s)", index + 1,
                  count, task.kernel, task.fingerprint, task.candidates.size());
  if (interactive)
    status(line);
  else
    note(line);
}

void TuneProgress::candidateDone(const KernelTask &task, unsigned candidate,
                                 const tune::CandidateResult &result,
                                 double seconds, const TunedKernel &sofar,
                                 double timeLeft) {
  using Status = tune::CandidateResult::Status;
  if (interactive) {
    std::string line =
        fmt::format("autotune: kernel {}/{} {}: {}/{} tried", index + 1, count,
                    task.kernel, sofar.tried, task.candidates.size());
    if (sofar.found)
      line += ", best " + formatMilliseconds(sofar.seconds);
    if (std::isfinite(timeLeft))
      line += fmt::format(", {:.0f} s left", std::max(timeLeft, 0.0));
    // Wrong and failed candidates must not scroll away unseen.
    if (result.status != Status::Ok)
      note(fmt::format("  candidate {}: {}: {}", candidate + 1,
                       result.status == Status::Wrong ? "WRONG, discarded"
                                                      : "failed, skipped",
                       result.message));
    status(line);
    return;
  }
  std::string label =
      fmt::format("  [{}/{}]", candidate + 1, task.candidates.size());
  std::string schedule = task.candidates[candidate].str();
  if (result.status == Status::Ok)
    note(fmt::format(
        "{} {}  {}{}", label, formatMilliseconds(seconds), schedule,
        int(candidate) == task.defaultCandidate ? "  (cost model's pick)"
                                                : ""));
  else
    note(fmt::format("{} {}: {}\n        {}", label,
                     result.status == Status::Wrong ? "WRONG, discarded"
                                                    : "failed, skipped",
                     result.message, schedule));
}

void TuneProgress::finishKernel(const KernelTask &task,
                                const TunedKernel &tuned) {
  std::string line =
      fmt::format("autotune: kernel {}/{} {}: ", index + 1, count, task.kernel);
  if (!tuned.found) {
    line += fmt::format("no candidate verified ({} tried, {} wrong, {} "
                        "failed); nothing written",
                        tuned.tried, tuned.wrong, tuned.failed);
  } else {
    line += fmt::format("best {} (candidate {} of {})",
                        formatMilliseconds(tuned.seconds), tuned.best + 1,
                        tuned.tried);
    if (tuned.defaultSeconds > 0)
      line += fmt::format(", cost model's pick {} ({:.2f}x)",
                          formatMilliseconds(tuned.defaultSeconds),
                          tuned.defaultSeconds / tuned.seconds);
    if (tuned.wrong || tuned.failed)
      line += fmt::format("; {} wrong, {} failed", tuned.wrong, tuned.failed);
  }
  if (tuned.cutByBudget)
    line += "; the budget ran out before every candidate was tried";
  note(line);
}

void TuneProgress::kernelSkipped(unsigned kernelIndex, unsigned kernelCount,
                                 const KernelTask &task,
                                 const std::string &path) {
  note(fmt::format("autotune: kernel {}/{} {} ({}): already in {}; skipped "
                   "(--force retunes it)",
                   kernelIndex + 1, kernelCount, task.kernel, task.fingerprint,
                   path));
}

void TuneProgress::stoppedAfter(unsigned tuned) {
  note(fmt::format("autotune: stopped after {} kernel(s) (--stop-after); "
                   "rerun to resume",
                   tuned));
}

void TuneProgress::budgetSpent(unsigned untuned) {
  note(fmt::format("autotune: the budget is spent; {} kernel(s) left "
                   "untuned, rerun to resume",
                   untuned));
}
