//===- LocalTuning.cpp - Measuring candidates on a device here ------------===//
//
// Part of lib/Autotune; see LocalTuning.h. A candidate that does not
// compile (the mapping rejects it, the compiler fails) or does not run is a
// result, not the end of the command: the error that says why becomes its
// message (empty when diagnostics said it). Only the tuned kernel's launches
// are timed; the mean over them is its time for one run, as tilec-run --tune
// computes it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Autotune/LocalTuning.h"

#include "tilec/Compiler/LoadedProgram.h"
#include "tilec/Support/Compare.h"

using namespace tilec;
using namespace tilec::autotune;
using namespace tilec::compiler;

LocalRunner::LocalRunner(DeviceTarget &device, ProgramLoader &loader,
                         const typed::Program &program,
                         std::vector<Tensor> inputs,
                         std::vector<Tensor> reference,
                         std::vector<Tensor> bounds, unsigned repeat,
                         bool verbose, unsigned wrongCandidate)
    : device(device), loader(loader), program(program),
      inputs(std::move(inputs)), reference(std::move(reference)),
      bounds(std::move(bounds)), repeat(repeat), verbose(verbose),
      wrongCandidate(wrongCandidate) {}

/// Changes the first element of every output, as a wrong kernel would.
static void spoil(std::vector<Tensor> &outputs) {
  for (Tensor &output : outputs)
    if (output.numElements() > 0)
      output.setDouble(0, output.type.dtype == DType::Bool
                              ? double(output.getInt(0) == 0)
                              : output.getDouble(0) + 1);
}

using Verdict = tune::CandidateResult::Status;

static tune::CandidateResult failed(Verdict status, std::string message) {
  tune::CandidateResult result;
  result.status = status;
  result.message = std::move(message);
  return result;
}

/// A failure of `step` ("does not compile", "does not run") for `error`.
static tune::CandidateResult failed(llvm::StringRef step, llvm::Error error) {
  std::string why = llvm::toString(std::move(error));
  return failed(Verdict::Failed, why.empty()
                                    ? (step + " (diagnostics above)").str()
                                    : (step + ": " + why).str());
}

tune::CandidateResult LocalRunner::measure(const KernelTask &task,
                                           unsigned candidate) {
  ScheduleChoice choice;
  choice.overrides[task.fingerprint] = task.candidates[candidate];
  llvm::Expected<std::unique_ptr<LoadedProgram>> loaded =
      compileAndLoad(device, loader, program, choice, verbose);
  if (!loaded)
    return failed("does not compile", loaded.takeError());
  std::vector<size_t> tuned; // the launches of the kernel being tuned
  for (size_t k = 0; k < (*loaded)->kernels().size(); ++k)
    if ((*loaded)->kernels()[k].fingerprint == task.fingerprint)
      tuned.push_back(k);
  if (tuned.empty())
    return failed(Verdict::Failed,
                  "the compiled program has no kernel " + task.fingerprint);

  // The warm-up run is the one whose outputs are checked. The runs reuse
  // their buffers, as `tilec bench` times them.
  (*loaded)->bindInputs(inputs);
  if (llvm::Error error = (*loaded)->runBound(nullptr))
    return failed("does not run", std::move(error));
  llvm::Expected<std::vector<Tensor>> outputs = (*loaded)->boundOutputs();
  if (!outputs)
    return failed("does not run", outputs.takeError());
  if (candidate + 1 == wrongCandidate)
    spoil(*outputs);
  if (outputs->size() != reference.size())
    return failed(Verdict::Wrong, "the program gave " +
                                     std::to_string(outputs->size()) +
                                     " outputs, the interpreter " +
                                     std::to_string(reference.size()));
  for (size_t i = 0; i < outputs->size(); ++i) {
    TensorComparison comparison =
        compareTensors((*outputs)[i], reference[i], &bounds[i]);
    if (!comparison.match)
      return failed(Verdict::Wrong,
                    formatComparison(program.value(program.outputs[i]).name,
                                     comparison));
  }
  tune::CandidateResult result;
  result.status = Verdict::Ok;
  for (unsigned i = 0; i < repeat; ++i) {
    std::vector<double> seconds;
    if (llvm::Error error = (*loaded)->runBound(&seconds))
      return failed("does not run", std::move(error));
    double sum = 0;
    for (size_t k : tuned)
      sum += k < seconds.size() ? seconds[k] : 0;
    result.seconds.push_back(sum / double(tuned.size()));
  }
  return result;
}
