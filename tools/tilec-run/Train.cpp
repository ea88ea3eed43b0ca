//===- Train.cpp - tilec-run --train --------------------------------------===//
//
// Part of tilec-run; see Train.h.
//
//===----------------------------------------------------------------------===//

#include "Train.h"
#include "Exit.h"
#include "Inputs.h"
#include "OpenDevice.h"

#include "tilec/Runtime/Manifest.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Support/Npy.h"
#include "tilec/Training/TrainProgress.h"
#include "tilec/Training/Trainer.h"

#include <cstdio>

using namespace tilec;
using namespace tilec::run;

namespace {

/// Reads the files of --data or --init.
Result<std::vector<train::NamedTensor>>
readFiles(const std::vector<std::pair<std::string, std::string>> &flags) {
  std::vector<train::NamedTensor> tensors;
  for (const auto &[name, path] : flags) {
    Result<Tensor> tensor = readNpy(path);
    if (!tensor)
      return Result<std::vector<train::NamedTensor>>::error(tensor.message());
    tensors.push_back({name, path, std::move(*tensor)});
  }
  return tensors;
}

train::Signature signatureOf(const rt::Manifest &manifest) {
  train::Signature sig;
  auto typeOf = [&](const rt::ManifestValue &v) {
    const rt::ManifestBuffer &b = *manifest.findBuffer(v.buffer);
    return TensorType{b.dtype, b.shape};
  };
  for (const rt::ManifestValue &v : manifest.inputs)
    sig.inputs.push_back({v.name, typeOf(v)});
  for (const rt::ManifestValue &v : manifest.outputs)
    sig.outputs.push_back({v.name, typeOf(v)});
  return sig;
}

} // namespace

int tilec::run::runTraining(const Arguments &args) {
  if (args.manifest.empty())
    return fail(UsageError, "--train needs the artefact's manifest");
  if (args.data.empty())
    return fail(UsageError, "--train needs --data NAME=FILE.npy");
  if (!args.inputs.empty() || !args.outputDir.empty() ||
      !args.expectDir.empty() || args.repeat != 0)
    return fail(UsageError, "--train takes --data, --init, --epochs, --batch, "
                            "--shuffle, --seed, --save-dir, --device and "
                            "--json, not --input, --output-dir, --expect or "
                            "--repeat");
  Result<LoadedManifest> loaded = readManifestAndArtefact(args.manifest);
  if (!loaded)
    return fail(InputError, loaded.message());
  rt::Manifest *manifest = &loaded->manifest;
  std::string *artefact = &loaded->artefact;
  auto data = readFiles(args.data);
  if (!data)
    return fail(InputError, data.message());
  auto init = readFiles(args.init);
  if (!init)
    return fail(InputError, init.message());

  // The batch is fixed by the artefact: the first size of the first data
  // input.
  train::Signature sig = signatureOf(*manifest);
  int64_t batch = 0;
  for (const auto &[name, type] : sig.inputs)
    if (name == data->front().name && !type.shape.empty())
      batch = type.shape[0];
  if (batch == 0)
    return fail(InputError, "--data " + data->front().name + ": " +
                                args.manifest + " has no input of that name "
                                "with rows");
  if (args.batch != 0 && int64_t(args.batch) != batch)
    return fail(UsageError, "--batch=" + std::to_string(args.batch) + ": " +
                                args.manifest + " was compiled for batches "
                                "of " + std::to_string(batch));

  Result<OpenedDevice> opened =
      openDevice(manifest->target, args.device, manifest->device);
  if (!opened)
    return fail(RuntimeFailure, opened.message());
  Result<std::unique_ptr<rt::Program>> program =
      opened->runtime->load(opened->device.id, *manifest, *artefact);
  if (!program)
    return fail(RuntimeFailure, program.message());

  train::TrainOptions options;
  options.batch = batch;
  options.epochs = args.epochs;
  options.shuffle = args.shuffle;
  options.seed = args.seed;
  options.saveDir = args.saveDir;
  train::Trainer trainer(**program, sig, options);
  Status prepared =
      trainer.prepare(std::move(*data), std::move(*init),
                      [](const std::string &note) {
                        std::fprintf(stderr, "tilec-run: note: %s\n",
                                     note.c_str());
                      });
  if (!prepared)
    return fail(InputError, prepared.message());
  Status trained = train::runWithProgress(trainer, args.epochs, args.json);
  if (!trained)
    return fail(RuntimeFailure, trained.message());
  return Success;
}
