//===- StageTiming.h - The --time-passes report -----------------*- C++ -*-===//
//
// Part of the tilec driver: the wall time of each stage of a compile (parse,
// bind, each MLIR pipeline with its passes nested under it, LLVM's
// optimisation and code generation, writing the outputs), printed on stderr
// as one tree when the command ends. While the report is off every function
// here does nothing, so the stages are marked unconditionally.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_STAGETIMING_H
#define TILEC_TOOLS_TILEC_STAGETIMING_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringRef.h"

namespace tilec::driver {

/// Starts the report (--time-passes); the clock of the total starts now.
void enableStageTiming();

/// A stage, timed until the returned scope is destroyed. Stages opened
/// while another is open are nested in it, so a helper that times its own
/// part shows up under whoever called it.
class TimedStage {
public:
  explicit TimedStage(llvm::StringRef name);
  ~TimedStage();
  TimedStage(const TimedStage &) = delete;
  TimedStage &operator=(const TimedStage &) = delete;

  /// Times `pm`'s passes, nested in this stage.
  void timePasses(mlir::PassManager &pm);

private:
  mlir::TimingScope scope;
  TimedStage *parent;
};

/// Prints the report on stderr, if it was enabled; called once a command
/// has succeeded.
void printStageTiming();

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_STAGETIMING_H
