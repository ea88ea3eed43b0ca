//===- Train.h - tilec-run --train ------------------------------*- C++ -*-===//
//
// Trains with a compiled step function on a machine without the compiler:
// the manifest's inputs and outputs name the carried pairs (output X' of
// input X), lib/Training runs the epochs exactly as `tilec train` does.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_RUN_TRAIN_H
#define TILEC_TOOLS_TILEC_RUN_TRAIN_H

#include "Arguments.h"

namespace tilec::run {

/// Returns the exit code.
int runTraining(const Arguments &args);

} // namespace tilec::run

#endif // TILEC_TOOLS_TILEC_RUN_TRAIN_H
