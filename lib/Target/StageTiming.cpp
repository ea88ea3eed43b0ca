//===- StageTiming.cpp - The --time-passes report -------------------------===//
//
// See StageTiming.h. MLIR's timing manager does
// the bookkeeping and prints the tree, so pass timings and the driver's own
// stages appear in one report, in one format.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/StageTiming.h"

#include <memory>

using namespace tilec;

namespace {

/// The report of this process: set up by enableStageTiming.
struct StageTimingState {
  /// A command that failed prints no report: the manager would print one
  /// when destroyed.
  ~StageTimingState() { manager.setEnabled(false); }

  mlir::DefaultTimingManager manager;
  mlir::TimingScope root;
  TimedStage *innermost = nullptr;
};

std::unique_ptr<StageTimingState> &state() {
  static std::unique_ptr<StageTimingState> current;
  return current;
}

} // namespace

void tilec::enableStageTiming() {
  if (state())
    return;
  state() = std::make_unique<StageTimingState>();
  StageTimingState &timing = *state();
  timing.manager.setEnabled(true);
  timing.manager.setDisplayMode(mlir::DefaultTimingManager::DisplayMode::Tree);
  timing.root = timing.manager.getRootScope();
}

TimedStage::TimedStage(llvm::StringRef name) : parent(nullptr) {
  if (!state())
    return;
  parent = state()->innermost;
  scope = (parent ? parent->scope : state()->root).nest(name);
  state()->innermost = this;
}

TimedStage::~TimedStage() {
  scope.stop();
  if (state() && state()->innermost == this)
    state()->innermost = parent;
}

void TimedStage::timePasses(mlir::PassManager &pm) {
  if (state())
    pm.enableTiming(scope);
}

void tilec::printStageTiming(llvm::raw_ostream &os) {
  if (!state())
    return;
  state()->root.stop();
  state()->manager.setOutput(mlir::createOutputStrategy(
      mlir::DefaultTimingManager::OutputFormat::Text, os));
  state()->manager.print();
  state().reset();
}
