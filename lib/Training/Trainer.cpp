//===- Trainer.cpp - Running a training step function for epochs ----------===//
//
// Part of lib/Training; see Trainer.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Training/Trainer.h"
#include "tilec/Support/Npy.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

using namespace tilec;
using namespace tilec::train;

/// The accumulator input whose carried sum over an epoch gives its loss.
static constexpr const char *kLossSum = "LossSum";
/// The per-step loss output, read at the end of an epoch without LossSum.
static constexpr const char *kLoss = "Loss";

static std::string fileText(const NamedTensor &t) {
  return "'" + t.path + "' (" + t.name + ")";
}

Result<std::vector<rt::Program::Carry>>
tilec::train::carriedPairs(const Signature &sig) {
  std::vector<rt::Program::Carry> pairs;
  for (const auto &[output, type] : sig.outputs) {
    if (output.size() < 2 || output.back() != '\'')
      continue;
    std::string base = output.substr(0, output.size() - 1);
    const TensorType *in = nullptr;
    for (const auto &[name, t] : sig.inputs)
      if (name == base)
        in = &t;
    if (!in)
      return Result<std::vector<rt::Program::Carry>>::error(
          "output '" + output + "' carries '" + base +
          "' to the next step, but the program has no input '" + base + "'");
    if (*in != type)
      return Result<std::vector<rt::Program::Carry>>::error(
          "output '" + output + "' is " + type.str() + " but input '" + base +
          "' is " + in->str() + "; a carried pair must have one type");
    pairs.push_back({output, base});
  }
  return pairs;
}

std::vector<int64_t> tilec::train::batchOrder(int64_t rows, bool shuffle,
                                              uint64_t seed, unsigned epoch) {
  std::vector<int64_t> order(rows);
  for (int64_t i = 0; i < rows; ++i)
    order[i] = i;
  if (!shuffle)
    return order;
  uint64_t state = seed + epoch;
  auto next = [&state] { // splitmix64
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  for (int64_t i = rows - 1; i > 0; --i)
    std::swap(order[i], order[int64_t(next() % uint64_t(i + 1))]);
  return order;
}

const TensorType *Trainer::inputType(const std::string &name) const {
  for (const auto &[n, t] : sig.inputs)
    if (n == name)
      return &t;
  return nullptr;
}

const TensorType *Trainer::outputType(const std::string &name) const {
  for (const auto &[n, t] : sig.outputs)
    if (n == name)
      return &t;
  return nullptr;
}

bool Trainer::isCarried(const std::string &input) const {
  for (const rt::Program::Carry &c : carried)
    if (c.input == input)
      return true;
  return false;
}

Status Trainer::prepare(std::vector<NamedTensor> dataArrays,
                        std::vector<NamedTensor> init,
                        const std::function<void(const std::string &)> &note) {
  auto pairs = carriedPairs(sig);
  if (!pairs)
    return Status::error(pairs.message());
  carried = std::move(*pairs);
  if (options.batch < 1)
    return Status::error("the batch size must be at least 1");
  if (dataArrays.empty())
    return Status::error("no --data: training needs at least one data array");

  for (NamedTensor &d : dataArrays) {
    const TensorType *in = inputType(d.name);
    if (!in)
      return Status::error("--data " + fileText(d) + ": the program has no "
                           "input '" + d.name + "'");
    if (isCarried(d.name))
      return Status::error("--data " + fileText(d) + ": '" + d.name +
                           "' is carried from step to step; data cannot be");
    const TensorType &t = d.tensor.type;
    std::vector<int64_t> rowShape(in->shape.begin() + (in->shape.empty() ? 0 : 1),
                                  in->shape.end());
    bool fits = !in->shape.empty() && in->shape[0] == options.batch &&
                t.shape.size() == in->shape.size() &&
                std::equal(rowShape.begin(), rowShape.end(),
                           t.shape.begin() + 1);
    if (t.dtype != in->dtype || !fits) {
      std::string type(dtypeName(in->dtype));
      std::string row = TensorType{in->dtype, rowShape}.str().substr(type.size());
      return Status::error("--data " + fileText(d) + " is " + t.str() +
                           ", but batches of '" + d.name + "' are " +
                           in->str() + ": the file needs type " + type +
                           " and rows of shape " + row);
    }
    if (rows == 0)
      rows = t.shape[0];
    if (t.shape[0] != rows)
      return Status::error("--data " + fileText(d) + " has " +
                           std::to_string(t.shape[0]) + " rows, but '" +
                           dataArrays[0].path + "' has " + std::to_string(rows));
  }
  if (rows < options.batch)
    return Status::error("--data " + fileText(dataArrays[0]) + " has " +
                         std::to_string(rows) +
                         " rows, fewer than one batch of " +
                         std::to_string(options.batch));
  data = std::move(dataArrays);

  std::vector<std::string> given;
  for (const NamedTensor &d : data)
    given.push_back(d.name);
  for (const NamedTensor &i : init) {
    const TensorType *in = inputType(i.name);
    if (!in)
      return Status::error("--init " + fileText(i) +
                           ": the program has no input '" + i.name + "'");
    if (i.tensor.type != *in)
      return Status::error("--init " + fileText(i) + " is " +
                           i.tensor.type.str() + ", but input '" + i.name +
                           "' is " + in->str());
    if (Status s = program.setInput(i.name, i.tensor); !s)
      return s;
    given.push_back(i.name);
  }
  for (const auto &[name, type] : sig.inputs) {
    if (std::find(given.begin(), given.end(), name) != given.end())
      continue;
    if (!isCarried(name))
      return Status::error("input '" + name + "' is neither data nor carried; "
                           "give it with --init " + name + "=FILE.npy");
    if (name != kLossSum)
      note("'" + name + "' starts at zeros (no --init)");
    if (Status s = program.setInput(name, Tensor(type)); !s)
      return s;
  }
  return Status::success();
}

Tensor Trainer::batchOf(const NamedTensor &array,
                        const std::vector<int64_t> &order,
                        int64_t step) const {
  TensorType type = array.tensor.type;
  type.shape[0] = options.batch;
  Tensor batch(type);
  size_t rowBytes = array.tensor.data.size() / size_t(rows);
  for (int64_t r = 0; r < options.batch; ++r)
    std::memcpy(batch.data.data() + size_t(r) * rowBytes,
                array.tensor.data.data() +
                    size_t(order[step * options.batch + r]) * rowBytes,
                rowBytes);
  return batch;
}

Status Trainer::epochLoss(EpochReport &report) {
  Tensor value;
  const TensorType *loss = outputType(kLoss);
  if (isCarried(kLossSum) && inputType(kLossSum)->shape.empty()) {
    if (Status s = program.readBack(kLossSum, value); !s)
      return s;
    report.loss = value.getDouble(0) / double(report.steps);
  } else if (loss && loss->shape.empty()) {
    if (Status s = program.readBack(kLoss, value); !s)
      return s;
    report.loss = value.getDouble(0);
  } else {
    return Status::success();
  }
  report.hasLoss = true;
  if (std::isnan(report.loss))
    return Status::error(
        "epoch " + std::to_string(report.epoch) +
        ": the loss is NaN (over its steps 1 to " +
        std::to_string(report.steps) + ")" +
        (options.saveDir.empty() || report.epoch == 1
             ? std::string()
             : "; '" + options.saveDir + "' keeps the tensors of epoch " +
                   std::to_string(report.epoch - 1)));
  return Status::success();
}

Status Trainer::save(unsigned epoch) {
  if (options.saveDir.empty())
    return Status::success();
  std::error_code error;
  std::filesystem::create_directories(options.saveDir, error);
  if (error)
    return Status::error("cannot create '" + options.saveDir +
                         "': " + error.message());
  for (const rt::Program::Carry &c : carried) {
    if (c.input == kLossSum)
      continue;
    Tensor value;
    if (Status s = program.readBack(c.input, value); !s)
      return s;
    if (Status s = writeNpy(options.saveDir + "/" + c.input + ".npy", value);
        !s)
      return Status::error("epoch " + std::to_string(epoch) + ": " +
                           s.message());
  }
  return Status::success();
}

Status Trainer::run(const StepCallback &onStep,
                    const std::function<void(const EpochReport &)> &onEpoch) {
  using Clock = std::chrono::steady_clock;
  int64_t steps = stepsPerEpoch();
  for (unsigned epoch = 1; epoch <= options.epochs; ++epoch) {
    if (isCarried(kLossSum))
      if (Status s = program.setInput(kLossSum, Tensor(*inputType(kLossSum)));
          !s)
        return s;
    std::vector<int64_t> order =
        batchOrder(rows, options.shuffle, options.seed, epoch);
    auto start = Clock::now();
    for (int64_t step = 0; step < steps; ++step) {
      std::map<std::string, Tensor> fresh;
      for (const NamedTensor &array : data)
        fresh[array.name] = batchOf(array, order, step);
      if (Status s = program.runResident(fresh, carried); !s)
        return Status::error("epoch " + std::to_string(epoch) + ", step " +
                             std::to_string(step + 1) + ": " + s.message());
      if (onStep)
        onStep(epoch, step + 1, steps,
               std::chrono::duration<double>(Clock::now() - start).count());
    }
    EpochReport report;
    report.epoch = epoch;
    report.epochs = options.epochs;
    report.steps = steps;
    if (Status s = epochLoss(report); !s)
      return s;
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (Status s = save(epoch); !s)
      return s;
    if (onEpoch)
      onEpoch(report);
  }
  return Status::success();
}
