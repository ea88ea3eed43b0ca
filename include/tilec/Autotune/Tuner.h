//===- Tuner.h - Measuring the candidate schedules of a kernel --*- C++ -*-===//
//
// The loop at the heart of `tilec autotune` (docs/autotune.md), apart from
// where the times come from and what is shown: a CandidateRunner measures
// one candidate (in this process on a local device, or by reading what
// `tilec-run --tune` measured elsewhere), the Tuner walks the candidates of a
// kernel best estimate first, keeps the fastest verified one, and stops
// starting candidates when the budget is spent, and tuneIntoScheduleFile
// does that for every kernel of a program, merging each winner into the
// schedule file at once. Time is read through a TuningClock and every event
// goes to a TuningObserver (the tool prints them), so a test can inject a
// deterministic clock and runner and check the choice without a device.
// Nothing here prints.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_AUTOTUNE_TUNER_H
#define TILEC_AUTOTUNE_TUNER_H

#include "tilec/Autotune/TuneFolder.h"
#include "tilec/Schedule/Schedule.h"
#include "tilec/Schedule/ScheduleFile.h"
#include "tilec/Support/Result.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec::autotune {

/// Where the tuner's time comes from.
class TuningClock {
public:
  virtual ~TuningClock();
  /// Seconds since the clock was made: the budget and the time left.
  virtual double now() = 0;
  /// The time to record for one run of a kernel under `schedule` that the
  /// device measured as `measured` seconds.
  virtual double kernelSeconds(const schedule::KernelSchedule &schedule,
                               double measured) = 0;
};

/// Today as YYYY-MM-DD (UTC): the date of a schedule file's entries and of
/// a device's measured peaks.
std::string todayUTC();

/// The host's steady clock; kernel times as the device measured them.
std::unique_ptr<TuningClock> makeSteadyClock();
/// The hidden --fake-timer of the tests: a kernel takes a time that depends
/// only on its schedule's text (docs/autotune.md gives the formula), and
/// `now()` is the sum of the fake kernel times recorded so far, so that the
/// file and the budget's cut-off are the same on every machine.
std::unique_ptr<TuningClock> makeFakeClock();

/// One kernel to tune, its candidates best estimate first.
struct KernelTask {
  std::string kernel;      ///< tilec.kernel of its first launch
  std::string fingerprint; ///< tilec.fingerprint
  std::vector<schedule::KernelSchedule> candidates;
  /// Which candidate is the cost model's own pick (-1: none of them, when
  /// an imported folder lacks it).
  int defaultCandidate = 0;
};

/// Measures one candidate: verified against the reference outputs, then
/// timed (one device time per repeat).
class CandidateRunner {
public:
  virtual ~CandidateRunner();
  virtual tune::CandidateResult measure(const KernelTask &task,
                                        unsigned candidate) = 0;
};

/// What tuning one kernel found.
struct TunedKernel {
  bool found = false; ///< a candidate was verified and timed
  unsigned best = 0;  ///< its index in the task's candidates
  double seconds = 0; ///< its median time
  /// The cost model's pick (candidate 0), measured; 0 when it was not.
  double defaultSeconds = 0;
  unsigned tried = 0, wrong = 0, failed = 0;
  bool cutByBudget = false; ///< candidates were left untried
};

/// What tuning reports as it goes; every function does nothing by default.
/// Kernel indices count from 0.
class TuningObserver {
public:
  virtual ~TuningObserver();
  virtual void startKernel(unsigned index, unsigned count,
                           const KernelTask &task) {}
  /// Candidate `candidate` of `task` gave `result`, recorded as `seconds`
  /// when it is ok; `sofar` is the kernel's state after it, `timeLeft` the
  /// budget's (infinite without one).
  virtual void candidateDone(const KernelTask &task, unsigned candidate,
                             const tune::CandidateResult &result,
                             double seconds, const TunedKernel &sofar,
                             double timeLeft) {}
  virtual void finishKernel(const KernelTask &task, const TunedKernel &tuned) {
  }
  /// tuneIntoScheduleFile's own events: a kernel the schedule file `path`
  /// already has, the stop after `tuned` kernels (--stop-after), the budget
  /// spent with `untuned` kernels left.
  virtual void kernelSkipped(unsigned index, unsigned count,
                             const KernelTask &task, const std::string &path) {
  }
  virtual void stoppedAfter(unsigned tuned) {}
  virtual void budgetSpent(unsigned untuned) {}
  /// A line to show as it is (what an export wrote, a candidate left out).
  virtual void note(const std::string &line) {}
};

class Tuner {
public:
  /// `budgetSeconds` 0: no budget.
  Tuner(TuningClock &clock, TuningObserver &observer, double budgetSeconds);

  /// Measures the candidates of `task` (kernel `index` of `count`).
  TunedKernel tune(const KernelTask &task, CandidateRunner &runner,
                   unsigned index, unsigned count);

  /// Whether the budget is spent: no new candidate will start.
  bool budgetSpent();

private:
  /// Seconds of budget left (negative when spent; huge without a budget).
  double timeLeft();

  TuningClock &clock;
  TuningObserver &observer;
  double budget;
  double start;
};

/// Where the winners go, and the rules of the loop.
struct Destination {
  std::string path;     ///< the schedule file, rewritten after each kernel
  std::string deviceId; ///< the device the entries are for
  std::string target;   ///< "opencl", "spirv" or "llvm-x86"
  std::string date;     ///< YYYY-MM-DD, for the entries
  bool force = false;   ///< retune kernels `file` already has
  unsigned stopAfter = 0; ///< stop after this many tuned kernels; 0: never
};

/// What tuneIntoScheduleFile did.
struct TuningSummary {
  unsigned written = 0; ///< kernels whose winner went into the file
  unsigned skipped = 0; ///< kernels the file had already
  unsigned tuned = 0;   ///< kernels measured, winner or not
};

/// The loop local tuning and --import share: per kernel of `tasks`, skip it
/// if `file` has it for the device (unless `to.force`), stop when the
/// budget is spent or after `to.stopAfter` kernels, else tune it and merge
/// the winner (the fastest verified candidate, with its median time and
/// the cost model's pick's) into `file`, written to `to.path` at once so
/// that an interruption loses only the kernel being measured. An error
/// when the file cannot be written.
Result<TuningSummary> tuneIntoScheduleFile(const std::vector<KernelTask> &tasks,
                                           CandidateRunner &runner,
                                           Tuner &tuner,
                                           TuningObserver &observer,
                                           schedule::ScheduleFile &file,
                                           const Destination &to);

} // namespace tilec::autotune

#endif // TILEC_AUTOTUNE_TUNER_H
