//===- Tune.h - tilec-run --tune DIR ----------------------------*- C++ -*-===//
//
// The measuring half of remote tuning: times every candidate of a tuning
// folder (TuneFolder.h) on this machine's device, checks each one's outputs
// against the reference outputs stored in the folder, and records the
// results in DIR/results.json, rewritten atomically after each candidate so
// that an interrupted run keeps what it measured and a rerun resumes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_RUN_TUNE_H
#define TILEC_TOOLS_TILEC_RUN_TUNE_H

#include "Arguments.h"

namespace tilec::run {

/// Runs `tilec-run --tune DIR [--device=D] [--repeat=N]`; returns the exit
/// code. A wrong or failing candidate is a result, not a failure of the run.
int runTuneFolder(const Arguments &args);

} // namespace tilec::run

#endif // TILEC_TOOLS_TILEC_RUN_TUNE_H
