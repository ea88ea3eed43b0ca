//===- KernelSchedules.cpp - Which schedule each kernel compiles with -----===//
//
// Part of lib/Compiler; see KernelSchedules.h. The default schedules
// are set here rather than left to the pipelines' default-schedule passes
// so that a GPU kernel is ranked on the whole device profile (with the
// peaks `tilec devices --probe` measured), which is what `tilec autotune`
// ranks its candidates on too; the passes then find every kernel scheduled.
// Both apply the same rule (Schedule/DefaultScheduleRule.h).
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/KernelSchedules.h"
#include "tilec/Compiler/Reporter.h"
#include "tilec/Compiler/ScheduleLoading.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Schedule/CostModel.h"
#include "tilec/Schedule/DefaultScheduleRule.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/LLVM/Transforms/Passes.h"
#include "tilec/Target/PipelineRun.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>
#include <set>

using namespace tilec;
using namespace tilec::compiler;
using namespace tilec::schedule;

namespace {

std::string stringAttr(mlir::Operation *op, llvm::StringRef name) {
  auto attr = op->getAttrOfType<mlir::StringAttr>(name);
  return attr ? attr.getValue().str() : std::string();
}

/// The one default-schedule rule on every kernel that has none.
void setGPUDefaults(mlir::func::FuncOp func, const DeviceProfile &profile) {
  for (mlir::affine::AffineForOp kernel : getKernelNests(func)) {
    if (kernel->hasAttr(tilec::kernel::Schedule::getNameStr()))
      continue;
    KernelModel model = describeKernel(kernel, getParallelBand(kernel));
    tilec::kernel::setKernelSchedule(kernel, chooseDefaultGPUSchedule(model, profile));
  }
}

/// The CPU default-schedule pass, as the llvm-x86 pipeline runs it for the
/// host, on the kernels prepareLoopLevel formed (transposed copies decide
/// whether a kernel vectorises; fused row chains are vectorised already);
/// kernels of a form the CPU passes cannot tile keep no schedule.
llvm::Error setCPUDefaults(mlir::ModuleOp module) {
  mlir::PassManager pm(module.getContext());
  pm.addNestedPass<mlir::func::FuncOp>(createCPUDefaultSchedulePass());
  if (mlir::failed(tilec::runCompilePipeline(pm, module)))
    return inputError();
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::vector<KernelReport>> tilec::compiler::scheduleKernels(
    mlir::ModuleOp module, const ScheduleTarget &target,
    const ScheduleChoice &schedules,
    bool verbose, Reporter &reporter) {
  applySchedules(module, schedules.overrides);
  std::set<std::string> fromFile;
  if (schedules.file)
    for (const ScheduleUse &use :
         applyScheduleFileAndReport(module, *schedules.file, target.deviceId,
                                    verbose, reporter))
      if (use.fromFile)
        fromFile.insert(use.fingerprint);

  if (target.cpu) {
    if (llvm::Error error = setCPUDefaults(module))
      return std::move(error);
  } else {
    for (auto func : module.getOps<mlir::func::FuncOp>())
      setGPUDefaults(func, target.profile);
  }

  std::vector<KernelReport> reports;
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    for (mlir::affine::AffineForOp kernel : getKernelNests(func)) {
      KernelReport report;
      report.name = stringAttr(kernel, tilec::kernel::KernelName::getNameStr());
      report.fingerprint = stringAttr(kernel, tilec::kernel::Fingerprint::getNameStr());
      mlir::FailureOr<std::optional<KernelSchedule>> schedule =
          tilec::kernel::getKernelSchedule(kernel);
      if (mlir::failed(schedule))
        return inputError();
      if (*schedule)
        report.schedule = **schedule;
      report.scheduleSource =
          schedules.overrides.count(report.fingerprint) ? "override"
          : fromFile.count(report.fingerprint)          ? "file"
          : *schedule                                   ? "cost-model"
          : tilec::kernel::RowKernel(kernel->getContext())
                  .isAttrPresent(kernel)
              ? "row kernel"
              : "none";
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
