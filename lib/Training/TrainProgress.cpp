//===- TrainProgress.cpp - What training prints ---------------------------===//
//
// Part of lib/Training; see TrainProgress.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Training/TrainProgress.h"

#include <string>
#include <unistd.h>

using namespace tilec;
using namespace tilec::train;

bool TrainProgress::stderrIsTerminal() { return isatty(STDERR_FILENO) != 0; }

void TrainProgress::step(unsigned epoch, unsigned epochs, int64_t step,
                         int64_t steps, double seconds) {
  if (!bar || (seconds - lastDraw < 0.1 && step != steps))
    return;
  lastDraw = seconds;
  constexpr int kWidth = 24;
  int done = int(kWidth * step / steps);
  std::string fill(size_t(done), '=');
  fill.resize(kWidth, ' ');
  double rate = seconds > 0 ? double(step) / seconds : 0;
  double left = rate > 0 ? double(steps - step) / rate : 0;
  std::fprintf(stderr, "\repoch %u/%u [%s] %lld/%lld steps  %.0f steps/s  %.1f s left ",
               epoch, epochs, fill.c_str(), (long long)step, (long long)steps,
               rate, left);
  std::fflush(stderr);
  drawn = true;
}

void TrainProgress::epoch(const EpochReport &r) {
  if (drawn) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn = false;
  }
  lastDraw = -1;
  double rate = r.seconds > 0 ? double(r.steps) / r.seconds : 0;
  if (json) {
    // %.9g: every digit of an f32 loss.
    char loss[32] = "null";
    if (r.hasLoss)
      std::snprintf(loss, sizeof(loss), "%.9g", r.loss);
    std::printf("{\"epoch\": %u, \"epochs\": %u, \"loss\": %s, \"seconds\": "
                "%.6f, \"steps\": %lld, \"steps_per_second\": %.3f}\n",
                r.epoch, r.epochs, loss, r.seconds, (long long)r.steps, rate);
  } else {
    char loss[32] = "-";
    if (r.hasLoss)
      std::snprintf(loss, sizeof(loss), "%.6g", r.loss);
    std::printf("epoch %u/%u  loss %s  %.2f s  %lld steps  %.0f steps/s\n",
                r.epoch, r.epochs, loss, r.seconds, (long long)r.steps, rate);
  }
  std::fflush(stdout);
}

Status tilec::train::runWithProgress(Trainer &trainer, unsigned epochs,
                                     bool json) {
  TrainProgress progress(TrainProgress::stderrIsTerminal(), json);
  return trainer.run(
      [&](unsigned epoch, int64_t step, int64_t steps, double seconds) {
        progress.step(epoch, epochs, step, steps, seconds);
      },
      [&](const EpochReport &r) { progress.epoch(r); });
}
