//===- TuneCandidates.cpp - The kernels autotune measures -----------------===//
//
// Part of lib/Autotune; see TuneCandidates.h. The parallel band the
// cost model sees is the one the GPU mapping distributes (getParallelBand);
// on the CPU the candidates are ranked as the default schedule is
// (CPUSchedules.h), so the first is the one a plain compile uses.
//
//===----------------------------------------------------------------------===//

#include "tilec/Autotune/TuneCandidates.h"

#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Schedule/CostModel.h"
#include "tilec/Target/LLVM/Transforms/CPUSchedules.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include <set>

using namespace tilec;
using namespace tilec::autotune;
using namespace tilec::compiler;

llvm::Expected<std::vector<KernelTask>>
tilec::autotune::planTuning(ProgramLoader &loader,
                            const typed::Program &program,
                            const DeviceTarget &device, unsigned top) {
  mlir::MLIRContext context;
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
      buildLoopLevelModule(context, loader, program);
  if (!module)
    return module.takeError();
  prepareLoopLevel(*device.backend, **module, device.profile);
  schedule::ScheduleKind kind = device.backend->kind() == BackendKind::CPU
                                    ? schedule::ScheduleKind::CPU
                                    : schedule::ScheduleKind::GPU;
  std::vector<KernelTask> tasks;
  std::set<std::string> seen;
  (*module)->walk([&](mlir::func::FuncOp func) {
    for (mlir::affine::AffineForOp nest : getKernelNests(func)) {
      auto fingerprint =
          nest->getAttrOfType<mlir::StringAttr>(tilec::kernel::Fingerprint::getNameStr());
      auto name = nest->getAttrOfType<mlir::StringAttr>(tilec::kernel::KernelName::getNameStr());
      // A nest without a fingerprint cannot be keyed in a schedule file.
      if (!fingerprint || !seen.insert(fingerprint.str()).second)
        continue;
      KernelTask task;
      task.kernel = name ? name.str() : std::string("kernel");
      task.fingerprint = fingerprint.str();
      if (kind == schedule::ScheduleKind::CPU) {
        // As tilec-cpu-default-schedule ranks them; a kernel that takes
        // no CPU schedule has nothing to tune.
        task.candidates = transforms::rankCPUSchedules(
            nest, schedule::hostCPUFacts(), top);
        if (task.candidates.empty())
          continue;
      } else {
        schedule::KernelModel model =
            schedule::describeKernel(nest, getParallelBand(nest));
        task.candidates =
            schedule::rankCandidates(model, device.profile, kind, top);
      }
      tasks.push_back(std::move(task));
    }
  });
  return tasks;
}
