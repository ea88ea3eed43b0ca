//===- LocalTuning.h - Measuring candidates on a device here ----*- C++ -*-===//
//
// Part of lib/Autotune: the CandidateRunner of `tilec autotune` without
// --export-candidates or --import. It compiles the program with one
// candidate schedule on its kernel (compileAndLoad, the path `tilec run` and
// `tilec bench` take), runs it once to check every output against the
// interpreter's, then times it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_AUTOTUNE_LOCALTUNING_H
#define TILEC_AUTOTUNE_LOCALTUNING_H

#include "tilec/Autotune/Tuner.h"
#include "tilec/Compiler/DeviceTarget.h"
#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Support/Tensor.h"

#include <vector>

namespace tilec::autotune {

class LocalRunner : public CandidateRunner {
public:
  /// `reference`: the interpreter's outputs on `inputs`, `bounds` their
  /// error bounds (interpretWithBounds). `wrongCandidate`
  /// (the hidden test flag --wrong-candidate, 1-based; 0: none): that
  /// candidate of every kernel has its outputs spoilt before the check, as a
  /// kernel computing the wrong thing would, so that a test can show it is
  /// discarded however fast it is.
  LocalRunner(compiler::DeviceTarget &device, compiler::ProgramLoader &loader,
              const typed::Program &program, std::vector<Tensor> inputs,
              std::vector<Tensor> reference, std::vector<Tensor> bounds,
              unsigned repeat, bool verbose, unsigned wrongCandidate = 0);

  tune::CandidateResult measure(const KernelTask &task,
                                unsigned candidate) override;

private:
  compiler::DeviceTarget &device;
  compiler::ProgramLoader &loader;
  const typed::Program &program;
  std::vector<Tensor> inputs, reference, bounds;
  unsigned repeat;
  bool verbose;
  unsigned wrongCandidate;
};

} // namespace tilec::autotune

#endif // TILEC_AUTOTUNE_LOCALTUNING_H
