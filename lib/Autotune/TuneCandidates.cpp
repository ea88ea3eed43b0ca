//===- TuneCandidates.cpp - The kernels autotune measures -----------------===//
//
// Part of lib/Autotune; see TuneCandidates.h. The parallel band the
// cost model sees is the one the GPU mapping distributes (getParallelBand);
// the CPU passes tile the same outer band of independent loops.
//
//===----------------------------------------------------------------------===//

#include "tilec/Autotune/TuneCandidates.h"

#include "tilec/Compiler/ModuleStages.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Schedule/CostModel.h"

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
      llvm::SmallVector<mlir::affine::AffineForOp> band = getParallelBand(nest);
      schedule::KernelModel model = schedule::describeKernel(nest, band);
      KernelTask task;
      task.kernel = name ? name.str() : std::string("kernel");
      task.fingerprint = fingerprint.str();
      task.candidates =
          schedule::rankCandidates(model, device.profile, kind, top);
      tasks.push_back(std::move(task));
    }
  });
  return tasks;
}
