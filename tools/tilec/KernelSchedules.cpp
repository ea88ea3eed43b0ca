//===- KernelSchedules.cpp - Which schedule each kernel compiles with -----===//
//
// Part of the tilec driver; see KernelSchedules.h. The default schedules
// are set here rather than left to the pipelines' default-schedule passes
// so that a GPU kernel is ranked on the whole device profile (with the
// peaks `tilec devices --probe` measured), which is what `tilec autotune`
// ranks its candidates on too; the passes then find every kernel scheduled.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "DriverError.h"
#include "ScheduleLoading.h"

#include "tilec/Conversion/LoopsToGPU/ParallelBand.h"
#include "tilec/Schedule/CostModel.h"
#include "tilec/Target/LLVM/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>
#include <set>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::schedule;

namespace {

/// `device`'s profile within the limits the GPU mapping checks, which may
/// be tighter than what the device reports (GPUBackend's gpuOptionsFor).
DeviceProfile rankingProfile(const DeviceProfile &device,
                             const GPUTargetOptions &limits) {
  DeviceProfile profile = device;
  profile.maxWorkGroupSize =
      std::min(profile.maxWorkGroupSize, limits.maxWorkGroupSize);
  for (unsigned d = 0; d < 3; ++d)
    profile.maxWorkItemSizes[d] =
        std::min(profile.maxWorkItemSizes[d], limits.maxWorkItemSizes[d]);
  profile.localMemBytes = std::min(profile.localMemBytes, limits.localMemBytes);
  return profile;
}

std::string stringAttr(mlir::Operation *op, llvm::StringRef name) {
  auto attr = op->getAttrOfType<mlir::StringAttr>(name);
  return attr ? attr.getValue().str() : std::string();
}

/// The cost model's best GPU schedule on every kernel that has none.
void setGPUDefaults(mlir::func::FuncOp func, const DeviceProfile &profile) {
  for (mlir::affine::AffineForOp kernel : getKernelNests(func)) {
    if (kernel->hasAttr(kScheduleAttrName))
      continue;
    KernelModel model = describeKernel(kernel, getParallelBand(kernel));
    setKernelSchedule(
        kernel, rankCandidates(model, profile, ScheduleKind::GPU, 1).front());
  }
}

/// The CPU default-schedule pass, as the llvm-x86 pipeline runs it for the
/// host; kernels of a form the CPU passes cannot tile keep no schedule.
void setCPUDefaults(mlir::ModuleOp module) {
  mlir::PassManager pm(module.getContext());
  pm.addNestedPass<mlir::func::FuncOp>(createCPUDefaultSchedulePass());
  if (mlir::failed(pm.run(module)))
    failInput();
}

} // namespace

std::vector<KernelReport> tilec::driver::scheduleKernels(
    mlir::ModuleOp module, const DeviceTarget &device,
    const GPUTargetOptions &limits, const ScheduleChoice &schedules,
    bool verbose) {
  applySchedules(module, schedules.overrides);
  std::set<std::string> fromFile;
  if (schedules.file)
    for (const ScheduleUse &use : applyScheduleFileAndReport(
             module, *schedules.file, device.device.id, verbose))
      if (use.fromFile)
        fromFile.insert(use.fingerprint);

  bool onCPU = device.target == Target::LLVMX86;
  if (onCPU)
    setCPUDefaults(module);
  else
    for (auto func : module.getOps<mlir::func::FuncOp>())
      setGPUDefaults(func, rankingProfile(device.profile, limits));

  std::vector<KernelReport> reports;
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    for (mlir::affine::AffineForOp kernel : getKernelNests(func)) {
      KernelReport report;
      report.name = stringAttr(kernel, kKernelAttrName);
      report.fingerprint = stringAttr(kernel, kFingerprintAttrName);
      mlir::FailureOr<std::optional<KernelSchedule>> schedule =
          getKernelSchedule(kernel);
      if (mlir::failed(schedule))
        failInput();
      if (*schedule)
        report.schedule = **schedule;
      report.scheduleSource =
          schedules.overrides.count(report.fingerprint) ? "override"
          : fromFile.count(report.fingerprint)          ? "file"
                                                        : "cost-model";
      // Counted on the loop level, before any mapping: the work the
      // program asks for, the same on every target and for every schedule
      // (a manifest's counts also include padded work-items).
      KernelModel model = describeKernel(kernel, getParallelBand(kernel));
      report.flops = model.totalFlops;
      report.bytes = model.uniqueBytes;
      reports.push_back(std::move(report));
    }
  }
  return reports;
}
