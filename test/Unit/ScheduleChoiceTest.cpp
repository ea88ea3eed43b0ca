//===- ScheduleChoiceTest.cpp - Which schedule each kernel gets -----------===//
//
// lib/Compiler's scheduleKernels on a matmul loaded like `tilec` loads it:
// an override beats the schedule file, the file beats the cost model, and
// the cost model's pick is the one rule the tilec-gpu-default-schedule pass
// applies too (Schedule/DefaultScheduleRule.h): the best-ranked candidate
// on a known device, the best without staging and vectors when only the
// limits are known.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/KernelSchedules.h"
#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Compiler/Reporter.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Schedule/CostModel.h"
#include "tilec/Schedule/DefaultScheduleRule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::compiler;
using namespace tilec::schedule;

namespace {

constexpr const char *kDevice = "opencl:test:gpu:0";

/// A matmul at the loop level, loaded and lowered as `tilec` does.
struct LoopLevel {
  LoopLevel() {
    llvm::SmallString<128> path;
    int fd;
    REQUIRE(!llvm::sys::fs::createTemporaryFile("schedule-choice", "tile", fd,
                                                path));
    {
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      os << "function matmul(A[M, K], B[K, N]) -> (C) {\n"
            "    C[m, n : M, N] = +(A[m, k] * B[k, n]);\n"
            "}\n";
    }
    options.inputPath = path.str().str();
    options.defines = {"M=96", "K=80", "N=72"};
    loader = std::make_unique<ProgramLoader>(options, silentReporter());
    REQUIRE(bool(loader->parse()));
    auto bound = loader->bind();
    REQUIRE(bool(bound));
    program = std::move(*bound);
    auto loops = buildLoopLevelModule(context, *loader, *program);
    REQUIRE(bool(loops));
    module = std::move(*loops);
    (void)llvm::sys::fs::remove(path);
  }

  /// The one kernel nest.
  mlir::affine::AffineForOp kernel() {
    for (auto func : module->getOps<mlir::func::FuncOp>())
      for (mlir::affine::AffineForOp nest : getKernelNests(func))
        return nest;
    FAIL("no kernel nest");
    return {};
  }

  KernelModel model() {
    mlir::affine::AffineForOp nest = kernel();
    return describeKernel(nest, getParallelBand(nest));
  }

  ProgramOptions options;
  mlir::MLIRContext context;
  std::unique_ptr<ProgramLoader> loader;
  std::optional<typed::Program> program;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

ScheduleTarget knownDevice() {
  ScheduleTarget target;
  target.deviceId = kDevice;
  target.profile.id = kDevice;
  target.profile.computeUnits = 16;
  return target;
}

KernelReport scheduleOne(LoopLevel &loops, const ScheduleTarget &target,
                         const ScheduleChoice &choice) {
  auto reports = scheduleKernels(*loops.module, target, choice, false,
                                 silentReporter());
  REQUIRE(bool(reports));
  REQUIRE(reports->size() == 1);
  return reports->front();
}

} // namespace

TEST_CASE("without an override or a file entry a kernel gets the cost "
          "model's pick by the one rule",
          "[schedule-choice]") {
  LoopLevel loops;
  ScheduleTarget target = knownDevice();
  KernelReport report = scheduleOne(loops, target, {});
  CHECK(report.scheduleSource == "cost-model");
  CHECK(!report.fingerprint.empty());
  const DeviceProfile &ranked = target.profile;
  CHECK(report.schedule == chooseDefaultGPUSchedule(loops.model(), ranked));
  CHECK(report.schedule ==
        rankCandidates(loops.model(), ranked, ScheduleKind::GPU, 1).front());
  CHECK(report.flops > 0);
}

TEST_CASE("with only the limits known, the rule leaves staging and vectors "
          "to the tuner",
          "[schedule-choice]") {
  LoopLevel loops;
  DeviceProfile limitsOnly; // no device named: the default profile
  KernelSchedule pick = chooseDefaultGPUSchedule(loops.model(), limitsOnly);
  CHECK(pick.vector == 1);
  CHECK(!llvm::is_contained(pick.stage, true));
  ScheduleTarget target;
  target.profile = limitsOnly;
  CHECK(scheduleOne(loops, target, {}).schedule == pick);
}

TEST_CASE("an override beats the schedule file, which beats the cost model",
          "[schedule-choice]") {
  LoopLevel probe;
  std::string fingerprint = scheduleOne(probe, knownDevice(), {}).fingerprint;
  std::vector<KernelSchedule> ranked = rankCandidates(
      probe.model(), knownDevice().profile, ScheduleKind::GPU, 8);
  REQUIRE(ranked.size() >= 3);

  ScheduleFile file;
  ScheduleEntry entry;
  entry.kernel = "matmul";
  entry.target = "opencl";
  entry.schedule = ranked[1];
  file.merge(kDevice, fingerprint, entry);

  {
    LoopLevel loops;
    ScheduleChoice choice;
    choice.file = &file;
    KernelReport report = scheduleOne(loops, knownDevice(), choice);
    CHECK(report.scheduleSource == "file");
    CHECK(report.schedule == ranked[1]);
  }
  {
    LoopLevel loops;
    ScheduleChoice choice;
    choice.file = &file;
    choice.overrides[fingerprint] = ranked[2];
    KernelReport report = scheduleOne(loops, knownDevice(), choice);
    CHECK(report.scheduleSource == "override");
    CHECK(report.schedule == ranked[2]);
  }
  {
    // Entries of another device do not apply.
    LoopLevel loops;
    ScheduleChoice choice;
    choice.file = &file;
    ScheduleTarget other = knownDevice();
    other.deviceId = other.profile.id = "opencl:test:other:0";
    KernelReport report = scheduleOne(loops, other, choice);
    CHECK(report.scheduleSource == "cost-model");
  }
}
