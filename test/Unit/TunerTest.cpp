//===- TunerTest.cpp - The tuner with an injected clock and runner --------===//
//
// tilec/Autotune/Tuner.h without a device: a scripted CandidateRunner gives
// each candidate a status and device times, and a clock that advances only
// by the kernel times recorded makes the ranking, the median of the
// repeats, the budget's cut-off and the merge of each winner into the
// schedule file deterministic.
//
//===----------------------------------------------------------------------===//

#include "tilec/Autotune/Tuner.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <unistd.h>

using namespace tilec;
using namespace tilec::autotune;
using CandidateStatus = tune::CandidateResult::Status;

namespace {

constexpr const char *kDevice = "cpu:host:test-cpu:0";

/// Time passes only when a kernel time is recorded, by that time, so the
/// budget is spent after a known number of candidates.
class TestClock final : public TuningClock {
public:
  double now() override { return elapsed; }
  double kernelSeconds(const schedule::KernelSchedule &,
                       double measured) override {
    ++recorded;
    elapsed += measured;
    return measured;
  }
  double elapsed = 0;
  unsigned recorded = 0;
};

/// What a scripted candidate gives: ok with these times, or wrong/failed.
tune::CandidateResult ok(std::vector<double> seconds) {
  tune::CandidateResult result;
  result.status = CandidateStatus::Ok;
  result.seconds = std::move(seconds);
  return result;
}
tune::CandidateResult notOk(CandidateStatus status) {
  tune::CandidateResult result;
  result.status = status;
  result.message = "scripted";
  return result;
}

/// Results by kernel fingerprint, one per candidate; counts the calls.
class ScriptedRunner final : public CandidateRunner {
public:
  tune::CandidateResult measure(const KernelTask &task,
                                unsigned candidate) override {
    measured.push_back(task.fingerprint + "/" + std::to_string(candidate));
    return script.at(task.fingerprint).at(candidate);
  }
  std::map<std::string, std::vector<tune::CandidateResult>> script;
  std::vector<std::string> measured;
};

/// The events, as short strings in order.
class RecordingObserver final : public TuningObserver {
public:
  void startKernel(unsigned index, unsigned count,
                   const KernelTask &task) override {
    events.push_back("start " + task.kernel);
  }
  void finishKernel(const KernelTask &task, const TunedKernel &) override {
    events.push_back("finish " + task.kernel);
  }
  void kernelSkipped(unsigned, unsigned, const KernelTask &task,
                     const std::string &) override {
    events.push_back("skip " + task.kernel);
  }
  void stoppedAfter(unsigned tuned) override {
    events.push_back("stop " + std::to_string(tuned));
  }
  void budgetSpent(unsigned untuned) override {
    events.push_back("budget " + std::to_string(untuned));
  }
  std::vector<std::string> events;
};

/// A kernel with `count` candidates whose schedules differ in their block.
KernelTask taskOf(const std::string &kernel, const std::string &fingerprint,
                  unsigned count) {
  KernelTask task;
  task.kernel = kernel;
  task.fingerprint = fingerprint;
  for (unsigned c = 0; c < count; ++c) {
    schedule::KernelSchedule candidate;
    candidate.block = {16 * int64_t(c + 1)};
    candidate.thread = {4};
    task.candidates.push_back(candidate);
  }
  return task;
}

/// A schedule file path of its own, removed at the end.
struct TempFile {
  std::string path = "/tmp/tilec-tuner-test-" + std::to_string(::getpid()) +
                     "-" + std::to_string(counter++) + ".json";
  ~TempFile() { std::remove(path.c_str()); }
  static inline unsigned counter = 0;
};

} // namespace

TEST_CASE("the tuner keeps the fastest verified candidate by its median",
          "[autotune]") {
  TestClock clock;
  RecordingObserver observer;
  ScriptedRunner runner;
  KernelTask task = taskOf("matmul", "00000000000000aa", 4);
  runner.script[task.fingerprint] = {
      ok({0.003, 0.009, 0.003}),           // the cost model's pick: 3 ms
      notOk(CandidateStatus::Wrong),       // wrong, however fast
      ok({0.001, 0.050, 0.002}),           // one slow run: median 2 ms
      notOk(CandidateStatus::Failed)};
  Tuner tuner(clock, observer, /*budgetSeconds=*/0);
  TunedKernel tuned = tuner.tune(task, runner, 0, 1);
  REQUIRE(tuned.found);
  CHECK(tuned.best == 2);
  CHECK(tuned.seconds == Approx(0.002));
  CHECK(tuned.defaultSeconds == Approx(0.003));
  CHECK(tuned.tried == 4);
  CHECK(tuned.wrong == 1);
  CHECK(tuned.failed == 1);
  CHECK_FALSE(tuned.cutByBudget);
  // Every repeat of every verified candidate went through the clock.
  CHECK(clock.recorded == 6);
  CHECK(observer.events ==
        std::vector<std::string>{"start matmul", "finish matmul"});
}

TEST_CASE("the tuner finds nothing when no candidate verifies",
          "[autotune]") {
  TestClock clock;
  RecordingObserver observer;
  ScriptedRunner runner;
  KernelTask task = taskOf("relu", "00000000000000bb", 2);
  runner.script[task.fingerprint] = {notOk(CandidateStatus::Wrong),
                                     notOk(CandidateStatus::Failed)};
  Tuner tuner(clock, observer, 0);
  TunedKernel tuned = tuner.tune(task, runner, 0, 1);
  CHECK_FALSE(tuned.found);
  CHECK(tuned.defaultSeconds == 0);
  CHECK(tuned.tried == 2);
}

TEST_CASE("the budget stops starting candidates and kernels", "[autotune]") {
  TestClock clock;
  RecordingObserver observer;
  ScriptedRunner runner;
  std::vector<KernelTask> tasks = {taskOf("first", "0000000000000001", 3),
                                   taskOf("second", "0000000000000002", 3)};
  // 4 ms per candidate against a 6 ms budget: the second candidate starts
  // with 2 ms left, the third never does, nor does the second kernel.
  for (const KernelTask &task : tasks)
    runner.script[task.fingerprint] = {ok({0.004}), ok({0.004}), ok({0.004})};
  Tuner tuner(clock, observer, /*budgetSeconds=*/0.006);
  TempFile out;
  schedule::ScheduleFile file;
  Result<TuningSummary> summary = tuneIntoScheduleFile(
      tasks, runner, tuner, observer, file,
      {out.path, kDevice, "llvm-x86", "2026-12-01", false, 0});
  REQUIRE(summary.ok());
  CHECK(runner.measured ==
        std::vector<std::string>{"0000000000000001/0", "0000000000000001/1"});
  CHECK(summary->tuned == 1);
  CHECK(summary->written == 1);
  CHECK(observer.events == std::vector<std::string>{"start first",
                                                    "finish first",
                                                    "budget 1"});
  // Equal times: the first candidate measured stays the best.
  const schedule::ScheduleEntry *entry =
      file.lookup(kDevice, "0000000000000001");
  REQUIRE(entry);
  CHECK(entry->schedule == tasks[0].candidates[0]);
}

TEST_CASE("each winner is merged into the schedule file at once",
          "[autotune]") {
  TestClock clock;
  RecordingObserver observer;
  ScriptedRunner runner;
  std::vector<KernelTask> tasks = {taskOf("dense", "00000000000000d1", 3),
                                   taskOf("known", "00000000000000d2", 2),
                                   taskOf("bias", "00000000000000d3", 2)};
  runner.script[tasks[0].fingerprint] = {ok({0.005}), ok({0.002}),
                                         ok({0.004})};
  runner.script[tasks[1].fingerprint] = {ok({0.001}), ok({0.001})};
  runner.script[tasks[2].fingerprint] = {ok({0.003}), ok({0.001})};

  // The file already has "known" for this device and "dense" for another.
  TempFile out;
  schedule::ScheduleFile file;
  schedule::ScheduleEntry old;
  old.kernel = "known";
  old.target = "llvm-x86";
  old.schedule = tasks[1].candidates[1];
  old.seconds = 0.5;
  file.merge(kDevice, tasks[1].fingerprint, old);
  file.merge("cpu:host:other-cpu:0", tasks[0].fingerprint, old);

  Tuner tuner(clock, observer, 0);
  Result<TuningSummary> summary = tuneIntoScheduleFile(
      tasks, runner, tuner, observer, file,
      {out.path, kDevice, "llvm-x86", "2026-12-01", false, /*stopAfter=*/0});
  REQUIRE(summary.ok());
  CHECK(summary->written == 2);
  CHECK(summary->skipped == 1);
  CHECK(summary->tuned == 2);
  CHECK(observer.events ==
        std::vector<std::string>{"start dense", "finish dense", "skip known",
                                 "start bias", "finish bias"});

  // What was written is what is in memory, and every other entry is kept.
  Result<schedule::ScheduleFile> written = schedule::readScheduleFile(out.path);
  REQUIRE(written.ok());
  for (const schedule::ScheduleFile *f : {&file, &*written}) {
    const schedule::ScheduleEntry *dense =
        f->lookup(kDevice, tasks[0].fingerprint);
    REQUIRE(dense);
    CHECK(dense->kernel == "dense");
    CHECK(dense->target == "llvm-x86");
    CHECK(dense->schedule == tasks[0].candidates[1]);
    CHECK(dense->seconds == Approx(0.002));
    CHECK(dense->defaultSeconds == Approx(0.005));
    CHECK(dense->date == "2026-12-01");
    const schedule::ScheduleEntry *known =
        f->lookup(kDevice, tasks[1].fingerprint);
    REQUIRE(known);
    CHECK(known->seconds == Approx(0.5));
    CHECK(f->lookup("cpu:host:other-cpu:0", tasks[0].fingerprint));
    const schedule::ScheduleEntry *bias =
        f->lookup(kDevice, tasks[2].fingerprint);
    REQUIRE(bias);
    CHECK(bias->schedule == tasks[2].candidates[1]);
  }
}

TEST_CASE("force retunes what the file has, and stop-after stops",
          "[autotune]") {
  TestClock clock;
  RecordingObserver observer;
  ScriptedRunner runner;
  std::vector<KernelTask> tasks = {taskOf("a", "00000000000000e1", 2),
                                   taskOf("b", "00000000000000e2", 2)};
  runner.script[tasks[0].fingerprint] = {ok({0.003}), ok({0.001})};
  runner.script[tasks[1].fingerprint] = {ok({0.003}), ok({0.001})};
  TempFile out;
  schedule::ScheduleFile file;
  schedule::ScheduleEntry old;
  old.kernel = "a";
  old.target = "llvm-x86";
  old.schedule = tasks[0].candidates[0];
  old.seconds = 0.5;
  file.merge(kDevice, tasks[0].fingerprint, old);

  Tuner tuner(clock, observer, 0);
  Result<TuningSummary> summary = tuneIntoScheduleFile(
      tasks, runner, tuner, observer, file,
      {out.path, kDevice, "llvm-x86", "2026-12-01", /*force=*/true,
       /*stopAfter=*/1});
  REQUIRE(summary.ok());
  CHECK(summary->tuned == 1);
  CHECK(observer.events ==
        std::vector<std::string>{"start a", "finish a", "stop 1"});
  const schedule::ScheduleEntry *a = file.lookup(kDevice, tasks[0].fingerprint);
  REQUIRE(a);
  CHECK(a->schedule == tasks[0].candidates[1]);
  CHECK(a->seconds == Approx(0.001));
  CHECK_FALSE(file.lookup(kDevice, tasks[1].fingerprint));
}

TEST_CASE("a schedule file that cannot be written is an error",
          "[autotune]") {
  TestClock clock;
  RecordingObserver observer;
  ScriptedRunner runner;
  std::vector<KernelTask> tasks = {taskOf("a", "00000000000000f1", 1)};
  runner.script[tasks[0].fingerprint] = {ok({0.001})};
  Tuner tuner(clock, observer, 0);
  schedule::ScheduleFile file;
  Result<TuningSummary> summary = tuneIntoScheduleFile(
      tasks, runner, tuner, observer, file,
      {"/nonexistent-dir/s.json", kDevice, "llvm-x86", "2026-12-01", false,
       0});
  CHECK_FALSE(summary.ok());
}

TEST_CASE("the fake clock's kernel times depend on the schedule alone",
          "[autotune]") {
  std::unique_ptr<TuningClock> one = makeFakeClock();
  std::unique_ptr<TuningClock> two = makeFakeClock();
  KernelTask task = taskOf("k", "0000000000000001", 2);
  double first = one->kernelSeconds(task.candidates[0], 1.0);
  CHECK(first == two->kernelSeconds(task.candidates[0], 99.0));
  CHECK(first >= 100e-6);
  CHECK(first < 1000e-6);
  CHECK(one->now() == Approx(first));
}
