//===- Inputs.cpp - The input tensors of a run ----------------------------===//
//
// Inputs are checked here against the manifest, before any device is
// touched, so a wrong file is an input error (exit code 1) and not a device
// failure; the runtime checks them again as its interface promises.
//
//===----------------------------------------------------------------------===//

#include "Inputs.h"

#include "tilec/Support/FileIO.h"
#include "tilec/Support/InputGenerator.h"
#include "tilec/Support/Npy.h"

#include <filesystem>

using namespace tilec;
using namespace tilec::run;

static std::string inputNames(const rt::Manifest &manifest) {
  std::string names;
  for (const rt::ManifestValue &value : manifest.inputs)
    names += (names.empty() ? "" : ", ") + value.name;
  return names.empty() ? "none" : names;
}

bool tilec::run::assembleInputs(const rt::Manifest &manifest,
                                const Arguments &args,
                                std::map<std::string, Tensor> &inputs,
                                InputFailure &failure) {
  std::map<std::string, std::string> files;
  for (const auto &[name, path] : args.inputs) {
    bool known = false;
    for (const rt::ManifestValue &value : manifest.inputs)
      known |= value.name == name;
    if (!known) {
      failure = {2, "--input " + name + "=" + path + ": '" + name +
                        "' is not an input of " + args.manifest +
                        "; its inputs are " + inputNames(manifest)};
      return false;
    }
    if (!files.emplace(name, path).second) {
      failure = {2, "--input " + name + " is given twice"};
      return false;
    }
  }
  for (size_t position = 0; position < manifest.inputs.size(); ++position) {
    const rt::ManifestValue &value = manifest.inputs[position];
    const rt::ManifestBuffer &buffer = *manifest.findBuffer(value.buffer);
    TensorType type{buffer.dtype, buffer.shape};
    auto file = files.find(value.name);
    if (file == files.end()) {
      inputs[value.name] = generateInput(type, args.seed, unsigned(position));
      continue;
    }
    Result<Tensor> tensor = readNpy(file->second, buffer.dtype);
    if (!tensor) {
      failure = {1, tensor.message()};
      return false;
    }
    if (tensor->type != type) {
      failure = {1, file->second + ": input '" + value.name + "' must be " +
                        type.str() + ", but the file holds " +
                        tensor->type.str()};
      return false;
    }
    inputs[value.name] = std::move(*tensor);
  }
  return true;
}

std::string tilec::run::artefactPath(const std::string &manifestPath,
                                     const std::string &artefact) {
  std::filesystem::path path(artefact);
  if (path.is_absolute())
    return artefact;
  return (std::filesystem::path(manifestPath).parent_path() / path).string();
}

Result<LoadedManifest>
tilec::run::readManifestAndArtefact(const std::string &manifestPath) {
  Result<rt::Manifest> manifest = rt::readManifest(manifestPath);
  if (!manifest)
    return manifest.status();
  Result<std::string> artefact =
      readFileBytes(artefactPath(manifestPath, manifest->artefact));
  if (!artefact)
    return artefact.status();
  return LoadedManifest{std::move(*manifest), std::move(*artefact)};
}
