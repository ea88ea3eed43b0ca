//===- Trainer.h - Running a training step function for epochs --*- C++ -*-===//
//
// `tilec train` and `tilec-run --train` (docs/training.md): a compiled step
// function is run once per batch. An output `X'` whose base `X` is an input
// of the same type is carried: after each step it becomes the input of the
// next, on the device (rt::Program's resident running), so weights and
// optimiser state never visit the host between steps. Data arrays are sliced
// along axis 0 into batches (the last partial batch dropped), in order or
// shuffled per epoch; the loss is read once per epoch; every carried tensor
// is written as NAME.npy (atomically) at the end of each epoch. No LLVM:
// tilec-run links it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TRAINING_TRAINER_H
#define TILEC_TRAINING_TRAINER_H

#include "tilec/Runtime/Device.h"
#include "tilec/Support/Result.h"
#include "tilec/Support/Tensor.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tilec::train {

/// The program's inputs and outputs, in header order.
struct Signature {
  std::vector<std::pair<std::string, TensorType>> inputs, outputs;
};

/// A tensor from a file: `--data NAME=path` or `--init NAME=path`.
struct NamedTensor {
  std::string name, path;
  Tensor tensor;
};

struct TrainOptions {
  int64_t batch = 0;
  unsigned epochs = 1;
  bool shuffle = false;
  uint64_t seed = 0;
  std::string saveDir; ///< empty: save nothing
};

/// What one epoch did.
struct EpochReport {
  unsigned epoch = 0, epochs = 0; ///< 1-based
  int64_t steps = 0;
  double seconds = 0;
  bool hasLoss = false;
  double loss = 0; ///< LossSum / steps, else the last step's Loss
};

/// Progress within an epoch, for a progress bar.
using StepCallback = std::function<void(unsigned epoch, int64_t step,
                                        int64_t steps, double seconds)>;

/// The carried pairs: outputs `X'` with an input `X` of the same type.
/// An `X'` whose `X` is missing or of another type is an error.
Result<std::vector<rt::Program::Carry>> carriedPairs(const Signature &sig);

/// The batch order of an epoch: 0..rows-1, or with `shuffle` a Fisher-Yates
/// shuffle driven by splitmix64 seeded with seed + epoch (documented in
/// docs/training.md, so that a script can reproduce it).
std::vector<int64_t> batchOrder(int64_t rows, bool shuffle, uint64_t seed,
                                unsigned epoch);

class Trainer {
public:
  Trainer(rt::Program &program, Signature sig, TrainOptions options)
      : program(program), sig(std::move(sig)), options(std::move(options)) {}

  /// Checks the data and initial tensors against the signature (each error
  /// names the file), sets every input that is not data: from `init`, else
  /// zeros for a carried one (reported through `note`), else an error.
  Status prepare(std::vector<NamedTensor> data, std::vector<NamedTensor> init,
                 const std::function<void(const std::string &)> &note);
  /// Runs the epochs. A NaN loss stops with an error naming the epoch; the
  /// files of the last finished epoch stay.
  Status run(const StepCallback &onStep,
             const std::function<void(const EpochReport &)> &onEpoch);

  int64_t stepsPerEpoch() const { return rows / options.batch; }

private:
  const TensorType *inputType(const std::string &name) const;
  const TensorType *outputType(const std::string &name) const;
  bool isCarried(const std::string &input) const;
  Tensor batchOf(const NamedTensor &array, const std::vector<int64_t> &order,
                 int64_t step) const;
  Status epochLoss(EpochReport &report);
  Status save(unsigned epoch);

  rt::Program &program;
  Signature sig;
  TrainOptions options;
  std::vector<rt::Program::Carry> carried;
  std::vector<NamedTensor> data;
  int64_t rows = 0;
};

} // namespace tilec::train

#endif // TILEC_TRAINING_TRAINER_H
