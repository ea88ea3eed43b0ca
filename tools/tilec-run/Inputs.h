//===- Inputs.h - The input tensors of a run ---------------------*- C++
//-*-===//

#ifndef TILEC_TOOLS_TILEC_RUN_INPUTS_H
#define TILEC_TOOLS_TILEC_RUN_INPUTS_H

#include "Arguments.h"

#include "tilec/Runtime/Manifest.h"
#include "tilec/Support/Tensor.h"

#include <map>
#include <string>

namespace tilec::run {

/// Why assembling the inputs failed: the exit code and the message.
struct InputFailure {
  int exitCode;
  std::string message;
};

/// One tensor per manifest input: read from its --input file (which must
/// hold exactly the manifest's dtype and shape) or generated from --seed the
/// way `tilec run` generates it, by the input's position. Fails with exit
/// code 2 for an --input naming no input, 1 for a wrong file.
bool assembleInputs(const rt::Manifest &manifest, const Arguments &args,
                    std::map<std::string, Tensor> &inputs,
                    InputFailure &failure);

/// The path of a manifest's kernel file: `artefact` is relative to the
/// manifest's folder unless absolute.
std::string artefactPath(const std::string &manifestPath,
                         const std::string &artefact);

/// A manifest and the bytes of its kernel file.
struct LoadedManifest {
  rt::Manifest manifest;
  std::string artefact;
};
/// Reads `manifestPath` and its kernel file; the error is an input error.
Result<LoadedManifest> readManifestAndArtefact(const std::string &manifestPath);

} // namespace tilec::run

#endif // TILEC_TOOLS_TILEC_RUN_INPUTS_H
