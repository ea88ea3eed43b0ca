//===- TuneExport.h - The folder of remote tuning, tilec's side -*- C++ -*-===//
//
// Part of lib/Autotune. `tilec autotune --export-candidates DIR` compiles
// every candidate of every kernel for a device (possibly one that is not
// here: --devices-from) into the tuning folder of TuneFolder.h, with the
// inputs and the interpreter's outputs on them; `tilec-run --tune DIR`
// measures them where the device is; `tilec autotune --import DIR` turns the
// folder and its results back into KernelTasks and a CandidateRunner, so that
// choosing the winners and writing the schedule file is the very loop of
// local tuning.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_AUTOTUNE_TUNEEXPORT_H
#define TILEC_AUTOTUNE_TUNEEXPORT_H

#include "tilec/Autotune/Tuner.h"
#include "tilec/Compiler/DeviceTarget.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Support/Tensor.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec::autotune {

/// What an export needs besides the tasks.
struct ExportRequest {
  std::string dir;
  std::string entry;             ///< the entry function's name
  std::vector<Tensor> inputs;    ///< the program's inputs, header order
  std::vector<Tensor> reference; ///< the interpreter's outputs on them
  std::vector<Tensor> bounds;    ///< their bounds (empty for integers)
  unsigned repeat = 5;           ///< what tilec-run --tune uses by default
  bool verbose = false;
};

/// Writes the tuning folder for `tasks` (compiled for `device`, of a GPU
/// backend); a candidate that does not compile is left out with a note on
/// `observer`. A folder that holds results already is a usage error, one
/// that cannot be written a runtime error.
llvm::Error exportCandidates(const ExportRequest &request,
                             compiler::DeviceTarget &device,
                             compiler::ProgramLoader &loader,
                             const typed::Program &program,
                             const std::vector<KernelTask> &tasks,
                             TuningObserver &observer);

/// A tuning folder with its results, ready for the Tuner.
struct ImportedTuning {
  tune::TuneIndex index;
  std::vector<KernelTask> tasks;
  std::unique_ptr<CandidateRunner> runner; ///< replays results.json
};

/// Reads DIR/tune.json and DIR/results.json. A malformed folder, missing
/// results, or results measured on another device than the candidates were
/// compiled for are input errors.
llvm::Expected<ImportedTuning> importTuning(const std::string &dir);

} // namespace tilec::autotune

#endif // TILEC_AUTOTUNE_TUNEEXPORT_H
