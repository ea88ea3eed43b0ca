//===- Tuner.h - Measuring the candidate schedules of a kernel --*- C++ -*-===//
//
// The loop at the heart of `tilec autotune`, apart from where the times come
// from: a CandidateRunner measures one candidate (in this process on a local
// device, or by reading what `tilec-run --tune` measured elsewhere), and the
// Tuner walks the candidates of a kernel best estimate first, keeps the
// fastest verified one, and stops starting candidates when the budget is
// spent. Time is read through a TuningClock, so tests can inject a
// deterministic one while the runtime and the output checks stay real.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_TUNER_H
#define TILEC_TOOLS_TILEC_TUNER_H

#include "tilec/Autotune/TuneFolder.h"
#include "tilec/Schedule/Schedule.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec::driver {

class TuneProgress;

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

class Tuner {
public:
  /// `budgetSeconds` 0: no budget.
  Tuner(TuningClock &clock, TuneProgress &progress, double budgetSeconds);

  /// Measures the candidates of `task` (kernel `index` of `count`).
  TunedKernel tune(const KernelTask &task, CandidateRunner &runner,
                   unsigned index, unsigned count);

  /// Whether the budget is spent: no new candidate will start.
  bool budgetSpent();

private:
  /// Seconds of budget left (negative when spent; huge without a budget).
  double timeLeft();

  TuningClock &clock;
  TuneProgress &progress;
  double budget;
  double start;
};

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_TUNER_H
