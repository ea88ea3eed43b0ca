//===- LocalTuning.cpp - Measuring candidates on a device here ------------===//
//
// Part of `tilec autotune`; see LocalTuning.h. A candidate that does not
// compile (the mapping rejects it, the driver's compiler fails) or does not
// run is a result, not the end of the command: the DriverError that says why
// becomes its message. Only the tuned kernel's launches are timed; the mean
// over them is its time for one run, as tilec-run --tune computes it.
//
//===----------------------------------------------------------------------===//

#include "LocalTuning.h"
#include "DriverError.h"

#include "tilec/Support/Compare.h"

using namespace tilec;
using namespace tilec::autotune;
using namespace tilec::driver;

LocalRunner::LocalRunner(DeviceTarget &device, ProgramLoader &loader,
                         const typed::Program &program,
                         std::vector<Tensor> inputs,
                         std::vector<Tensor> reference,
                         std::vector<Tensor> bounds, unsigned repeat,
                         bool verbose, unsigned wrongCandidate)
    : device(device), loader(loader), program(program),
      inputs(std::move(inputs)), reference(std::move(reference)),
      bounds(std::move(bounds)),
      repeat(repeat), verbose(verbose), wrongCandidate(wrongCandidate) {}

/// Changes the first element of every output, as a wrong kernel would.
static void spoil(std::vector<Tensor> &outputs) {
  for (Tensor &output : outputs)
    if (output.numElements() > 0)
      output.setDouble(0, output.type.dtype == DType::Bool
                              ? double(output.getInt(0) == 0)
                              : output.getDouble(0) + 1);
}

static tune::CandidateResult failed(tune::CandidateResult::Status status,
                                    std::string message) {
  tune::CandidateResult result;
  result.status = status;
  result.message = std::move(message);
  return result;
}

tune::CandidateResult LocalRunner::measure(const KernelTask &task,
                                           unsigned candidate) {
  using Status = tune::CandidateResult::Status;
  ScheduleChoice choice;
  choice.overrides[task.fingerprint] = task.candidates[candidate];
  std::unique_ptr<LoadedProgram> loaded;
  try {
    loaded = compileAndLoad(device, loader, program, choice, verbose);
  } catch (const DriverError &error) {
    return failed(Status::Failed,
                  *error.what()
                      ? std::string("does not compile: ") + error.what()
                      : "does not compile (diagnostics above)");
  }
  std::vector<size_t> tuned; // the launches of the kernel being tuned
  for (size_t k = 0; k < loaded->kernels().size(); ++k)
    if (loaded->kernels()[k].fingerprint == task.fingerprint)
      tuned.push_back(k);
  if (tuned.empty())
    return failed(Status::Failed,
                  "the compiled program has no kernel " + task.fingerprint);

  try {
    // The warm-up run is the one whose outputs are checked.
    std::vector<Tensor> outputs = loaded->run(inputs, nullptr);
    if (candidate + 1 == wrongCandidate)
      spoil(outputs);
    if (outputs.size() != reference.size())
      return failed(Status::Wrong, "the program gave " +
                                       std::to_string(outputs.size()) +
                                       " outputs, the interpreter " +
                                       std::to_string(reference.size()));
    for (size_t i = 0; i < outputs.size(); ++i) {
      TensorComparison comparison =
          compareTensors(outputs[i], reference[i], &bounds[i]);
      if (!comparison.match) {
        const std::string &name = program.value(program.outputs[i]).name;
        return failed(
            Status::Wrong,
            formatComparison(name, comparison));
      }
    }
    tune::CandidateResult result;
    result.status = Status::Ok;
    for (unsigned i = 0; i < repeat; ++i) {
      std::vector<double> seconds;
      loaded->run(inputs, &seconds);
      double sum = 0;
      for (size_t k : tuned)
        sum += k < seconds.size() ? seconds[k] : 0;
      result.seconds.push_back(sum / double(tuned.size()));
    }
    return result;
  } catch (const DriverError &error) {
    return failed(Status::Failed,
                  *error.what() ? std::string("does not run: ") + error.what()
                                : "does not run (diagnostics above)");
  }
}
