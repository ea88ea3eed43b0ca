//===- Tuner.cpp - Measuring the candidate schedules of a kernel ----------===//
//
// See tilec/Autotune/Tuner.h. The median of the repeats is the time kept:
// it ignores the odd slow run (another process, a page fault) that a mean
// would fold in.
//
//===----------------------------------------------------------------------===//

#include "tilec/Autotune/Tuner.h"
#include "tilec/Support/Version.h"

#include <chrono>
#include <ctime>
#include <cstdint>
#include <limits>

using namespace tilec;
using namespace tilec::autotune;

TuningClock::~TuningClock() = default;
CandidateRunner::~CandidateRunner() = default;
TuningObserver::~TuningObserver() = default;

namespace {

class SteadyClock : public TuningClock {
public:
  double now() override {
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    return elapsed.count();
  }
  double kernelSeconds(const schedule::KernelSchedule &,
                       double measured) override {
    return measured;
  }

private:
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
};

/// 64-bit FNV-1a: simple, stable across platforms and documented, which is
/// all the fake timer needs.
uint64_t fnv1a(const std::string &text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

class FakeClock : public TuningClock {
public:
  double now() override { return elapsed; }
  double kernelSeconds(const schedule::KernelSchedule &schedule,
                       double) override {
    // 100 to 999 microseconds, fixed by the schedule's text.
    // Divided, not multiplied by 1e-6, so that the file shows 0.000123.
    double seconds = double(100 + fnv1a(schedule.str()) % 900) / 1e6;
    elapsed += seconds;
    return seconds;
  }

private:
  double elapsed = 0;
};

} // namespace

std::string tilec::autotune::todayUTC() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", &utc);
  return text;
}

std::unique_ptr<TuningClock> tilec::autotune::makeSteadyClock() {
  return std::make_unique<SteadyClock>();
}

std::unique_ptr<TuningClock> tilec::autotune::makeFakeClock() {
  return std::make_unique<FakeClock>();
}

Tuner::Tuner(TuningClock &clock, TuningObserver &observer,
             double budgetSeconds)
    : clock(clock), observer(observer), budget(budgetSeconds),
      start(clock.now()) {}

double Tuner::timeLeft() {
  if (budget <= 0)
    return std::numeric_limits<double>::infinity();
  return budget - (clock.now() - start);
}

bool Tuner::budgetSpent() { return timeLeft() <= 0; }

TunedKernel Tuner::tune(const KernelTask &task, CandidateRunner &runner,
                        unsigned index, unsigned count) {
  using Status = tune::CandidateResult::Status;
  TunedKernel tuned;
  observer.startKernel(index, count, task);
  for (unsigned c = 0; c < task.candidates.size(); ++c) {
    if (budgetSpent()) {
      tuned.cutByBudget = true;
      break;
    }
    tune::CandidateResult result = runner.measure(task, c);
    ++tuned.tried;
    double seconds = 0;
    if (result.status == Status::Ok) {
      std::vector<double> recorded;
      for (double measured : result.seconds)
        recorded.push_back(clock.kernelSeconds(task.candidates[c], measured));
      seconds = tune::medianOf(recorded);
      if (int(c) == task.defaultCandidate)
        tuned.defaultSeconds = seconds;
      if (!tuned.found || seconds < tuned.seconds) {
        tuned.found = true;
        tuned.best = c;
        tuned.seconds = seconds;
      }
    } else if (result.status == Status::Wrong) {
      ++tuned.wrong;
    } else {
      ++tuned.failed;
    }
    observer.candidateDone(task, c, result, seconds, tuned, timeLeft());
  }
  observer.finishKernel(task, tuned);
  return tuned;
}

Result<TuningSummary> tilec::autotune::tuneIntoScheduleFile(
    const std::vector<KernelTask> &tasks, CandidateRunner &runner,
    Tuner &tuner, TuningObserver &observer, schedule::ScheduleFile &file,
    const Destination &to) {
  TuningSummary summary;
  for (unsigned k = 0; k < tasks.size(); ++k) {
    const KernelTask &task = tasks[k];
    if (!to.force && file.lookup(to.deviceId, task.fingerprint)) {
      observer.kernelSkipped(k, tasks.size(), task, to.path);
      ++summary.skipped;
      continue;
    }
    if (to.stopAfter && summary.tuned == to.stopAfter) {
      observer.stoppedAfter(summary.tuned);
      break;
    }
    if (tuner.budgetSpent()) {
      observer.budgetSpent(tasks.size() - k);
      break;
    }
    TunedKernel result = tuner.tune(task, runner, k, tasks.size());
    ++summary.tuned;
    if (!result.found)
      continue;
    schedule::ScheduleEntry entry;
    entry.kernel = task.kernel;
    entry.target = to.target;
    entry.schedule = task.candidates[result.best];
    entry.seconds = result.seconds;
    entry.defaultSeconds = result.defaultSeconds;
    entry.date = to.date;
    entry.tilecVersion = kTilecVersion;
    file.merge(to.deviceId, task.fingerprint, entry);
    if (tilec::Status status = schedule::writeScheduleFile(to.path, file);
        !status)
      return status;
    ++summary.written;
  }
  return summary;
}
