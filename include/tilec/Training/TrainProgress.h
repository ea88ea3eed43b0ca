//===- TrainProgress.h - What training prints -------------------*- C++ -*-===//
//
// Shared by `tilec train` and `tilec-run --train`: on a terminal a progress
// bar per epoch on stderr (steps, steps/s, time left), redrawn at most ten
// times a second; one line per finished epoch on stdout (or one JSON object
// with --json), so logs and pipes see only the epochs.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TRAINING_TRAINPROGRESS_H
#define TILEC_TRAINING_TRAINPROGRESS_H

#include "tilec/Training/Trainer.h"

#include <cstdio>

namespace tilec::train {

class TrainProgress {
public:
  /// `bar`: draw the progress bar (stderr is a terminal); `json`: epochs as
  /// JSON lines.
  TrainProgress(bool bar, bool json) : bar(bar), json(json) {}

  void step(unsigned epoch, unsigned epochs, int64_t step, int64_t steps,
            double seconds);
  void epoch(const EpochReport &report);

  /// Whether stderr is a terminal.
  static bool stderrIsTerminal();

private:
  bool bar, json;
  double lastDraw = -1;
  bool drawn = false;
};

/// Runs `trainer`'s epochs printing as TrainProgress does (the bar when
/// stderr is a terminal).
Status runWithProgress(Trainer &trainer, unsigned epochs, bool json);

} // namespace tilec::train

#endif // TILEC_TRAINING_TRAINPROGRESS_H
