//===- ApplyScheduleFile.cpp - Schedules from a file onto kernel nests ----===//
//
// Puts tuned schedules where the passes read them: the `tilec.schedule`
// attribute of each kernel nest, matched by the nest's fingerprint. Nothing
// here decides what happens to kernels without an entry; the default
// schedule passes fill those in afterwards, since they skip nests that
// already carry a schedule.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/ScheduleFile.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::schedule;

/// Calls `visit` on every kernel nest of `module` (the top-level ops of each
/// function body that carry `tilec.kernel`), in program order, with its
/// fingerprint ("" when it has none).
static void
forEachKernel(ModuleOp module,
              llvm::function_ref<void(Operation *, StringRef)> visit) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    for (Operation &op : func.getBody().front()) {
      if (!op.hasAttr(tilec::kernel::KernelName::getNameStr()))
        continue;
      auto fingerprint = op.getAttrOfType<StringAttr>(tilec::kernel::Fingerprint::getNameStr());
      visit(&op, fingerprint ? fingerprint.getValue() : StringRef());
    }
  }
}

std::vector<ScheduleUse>
tilec::schedule::applyScheduleFile(ModuleOp module, const ScheduleFile &file,
                                   const std::string &deviceId) {
  std::vector<ScheduleUse> uses;
  forEachKernel(module, [&](Operation *kernel, StringRef fingerprint) {
    ScheduleUse use;
    if (auto name = kernel->getAttrOfType<StringAttr>(tilec::kernel::KernelName::getNameStr()))
      use.kernel = name.getValue().str();
    use.fingerprint = fingerprint.str();
    use.preset = kernel->hasAttr(tilec::kernel::Schedule::getNameStr());
    const ScheduleEntry *entry = file.lookup(deviceId, use.fingerprint);
    if (entry && !use.preset) {
      tilec::kernel::setKernelSchedule(kernel, entry->schedule);
      use.fromFile = true;
    }
    uses.push_back(std::move(use));
  });
  return uses;
}

unsigned tilec::schedule::applySchedules(
    ModuleOp module, const std::map<std::string, KernelSchedule> &schedules) {
  unsigned applied = 0;
  forEachKernel(module, [&](Operation *kernel, StringRef fingerprint) {
    auto found = schedules.find(fingerprint.str());
    if (found == schedules.end())
      return;
    tilec::kernel::setKernelSchedule(kernel, found->second);
    ++applied;
  });
  return applied;
}
