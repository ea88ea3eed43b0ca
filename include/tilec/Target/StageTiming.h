//===- StageTiming.h - The --time-passes report -----------------*- C++ -*-===//
//
// The wall time of each stage of a compile (parse, bind, each MLIR pipeline
// with its passes nested under it, each backend's code generation, writing
// the outputs), printed as one tree (tilec prints it on stderr when the
// command ends, --time-passes).
// While the report is off every function here does nothing, so the stages
// are marked unconditionally.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_STAGETIMING_H
#define TILEC_TARGET_STAGETIMING_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringRef.h"

namespace tilec {

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

/// Prints the report to `os`, if it was enabled, and ends it; called once a
/// command has succeeded.
void printStageTiming(llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_TARGET_STAGETIMING_H
