//===- LocalTuning.h - Measuring candidates on a device here ----*- C++ -*-===//
//
// The CandidateRunner of `tilec autotune` without --export-candidates or
// --import: compiles the program with one candidate schedule on its kernel
// (DeviceSession's compileAndLoad, the path `tilec run` and `tilec bench`
// take), runs it once to check every output against the interpreter's, then
// times it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_LOCALTUNING_H
#define TILEC_TOOLS_TILEC_LOCALTUNING_H

#include "DeviceSession.h"

#include "tilec/Autotune/Tuner.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Support/Tensor.h"

#include <vector>

namespace tilec::driver {

using compiler::ProgramLoader;

class LocalRunner : public autotune::CandidateRunner {
public:
  /// `reference`: the interpreter's outputs on `inputs`, `bounds` their
  /// error bounds (interpretWithBounds). `wrongCandidate`
  /// (the hidden test flag --wrong-candidate, 1-based; 0: none): that
  /// candidate of every kernel has its outputs spoilt before the check, as a
  /// kernel computing the wrong thing would, so that a test can show it is
  /// discarded however fast it is.
  LocalRunner(DeviceTarget &device, ProgramLoader &loader,
              const typed::Program &program, std::vector<Tensor> inputs,
              std::vector<Tensor> reference, std::vector<Tensor> bounds,
              unsigned repeat, bool verbose,
              unsigned wrongCandidate = 0);

  tune::CandidateResult measure(const autotune::KernelTask &task,
                                unsigned candidate) override;

private:
  DeviceTarget &device;
  ProgramLoader &loader;
  const typed::Program &program;
  std::vector<Tensor> inputs, reference, bounds;
  unsigned repeat;
  bool verbose;
  unsigned wrongCandidate;
};

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_LOCALTUNING_H
