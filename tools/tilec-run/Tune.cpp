//===- Tune.cpp - tilec-run --tune DIR ------------------------------------===//
//
// Each candidate is loaded, run once as a warm-up whose outputs are checked
// against the folder's reference outputs (a fast wrong kernel must never
// win), then run `repeat` times; its time per run is the mean device time of
// the launches of the kernel being tuned, as the runtime's profiling
// counters give it. The other kernels of the program run too, since their
// outputs feed it, but are not counted.
//
//===----------------------------------------------------------------------===//

#include "Tune.h"
#include "Exit.h"
#include "Inputs.h"
#include "OpenDevice.h"
#include "ReferenceBound.h"

#include "tilec/Autotune/TuneFolder.h"
#include "tilec/Support/Compare.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Support/Npy.h"

#include <cstdio>
#include <map>

using namespace tilec;
using namespace tilec::run;
using namespace tilec::tune;

namespace {

using TensorMap = std::map<std::string, Tensor>;

/// Reads the .npy files a map of the index names; with `bounds`, also the
/// bound files beside them that exist (ReferenceBound.h).
Result<TensorMap> readTensors(const std::string &dir,
                              const std::map<std::string, std::string> &files,
                              TensorMap *bounds = nullptr) {
  TensorMap tensors;
  for (const auto &[name, relative] : files) {
    Result<std::string> path = pathInFolder(dir, relative);
    if (!path)
      return path.status();
    Result<Tensor> tensor = readNpy(*path);
    if (!tensor)
      return tensor.status();
    tensors[name] = std::move(*tensor);
    if (!bounds)
      continue;
    Result<std::optional<Tensor>> bound = readReferenceBound(*path);
    if (!bound)
      return bound.status();
    if (*bound)
      (*bounds)[name] = std::move(**bound);
  }
  return tensors;
}

CandidateResult failed(CandidateResult::Status status, std::string message) {
  CandidateResult result;
  result.status = status;
  result.message = std::move(message);
  return result;
}

/// Why `outputs` differ from `reference`, or "" when they match.
std::string compareWithReference(const TensorMap &outputs,
                                 const TensorMap &reference,
                                 const TensorMap &bounds) {
  for (const auto &[name, want] : reference) {
    auto got = outputs.find(name);
    if (got == outputs.end())
      return "the program has no output '" + name + "'";
    auto bound = bounds.find(name);
    TensorComparison comparison = compareTensors(
        got->second, want, bound == bounds.end() ? nullptr : &bound->second);
    if (!comparison.match)
      return formatComparison(name, comparison);
  }
  return "";
}

/// Loads, checks and times one candidate of the kernel `fingerprint`.
CandidateResult measure(OpenedDevice &device, const std::string &dir,
                        const CandidateEntry &candidate,
                        const std::string &fingerprint, const TensorMap &inputs,
                        const TensorMap &reference, const TensorMap &bounds,
                        unsigned repeat) {
  using Status = CandidateResult::Status;
  Result<std::string> manifestPath = pathInFolder(dir, candidate.manifest);
  if (!manifestPath)
    return failed(Status::Failed, manifestPath.message());
  Result<rt::Manifest> manifest = rt::readManifest(*manifestPath);
  if (!manifest)
    return failed(Status::Failed, manifest.message());
  Result<std::string> artefact =
      readFileBytes(artefactPath(*manifestPath, manifest->artefact));
  if (!artefact)
    return failed(Status::Failed, artefact.message());
  std::vector<size_t> tuned; // the launches of the kernel being tuned
  for (size_t k = 0; k < manifest->kernels.size(); ++k)
    if (manifest->kernels[k].fingerprint == fingerprint)
      tuned.push_back(k);
  if (tuned.empty())
    return failed(Status::Failed,
                  *manifestPath + ": no kernel has fingerprint " + fingerprint);

  Result<std::unique_ptr<rt::Program>> program =
      device.runtime->load(device.device.id, *manifest, *artefact);
  if (!program)
    return failed(Status::Failed, program.message());
  TensorMap outputs;
  if (tilec::Status ran = (*program)->run(inputs, outputs); !ran)
    return failed(Status::Failed, ran.message());
  if (std::string why = compareWithReference(outputs, reference, bounds);
      !why.empty())
    return failed(Status::Wrong, why);

  CandidateResult result;
  result.status = Status::Ok;
  for (unsigned i = 0; i < repeat; ++i) {
    std::vector<rt::KernelTiming> timings;
    if (tilec::Status ran = (*program)->run(inputs, outputs, &timings); !ran)
      return failed(Status::Failed, ran.message());
    double sum = 0;
    for (size_t k : tuned)
      sum += k < timings.size() ? timings[k].seconds : 0;
    result.seconds.push_back(sum / double(tuned.size()));
  }
  return result;
}

std::string describe(const std::string &id, const CandidateResult &result) {
  char text[64];
  switch (result.status) {
  case CandidateResult::Status::Ok:
    std::snprintf(text, sizeof(text), "ok, median %.4f ms",
                  medianOf(result.seconds) * 1e3);
    return "tune: " + id + ": " + text + "\n";
  case CandidateResult::Status::Wrong:
    return "tune: " + id + ": WRONG, discarded: " + result.message + "\n";
  case CandidateResult::Status::Failed:
    break;
  }
  return "tune: " + id + ": failed, skipped: " + result.message + "\n";
}

} // namespace

int tilec::run::runTuneFolder(const Arguments &args) {
  const std::string &dir = args.tuneDir;
  Result<TuneIndex> index = readTuneIndex(dir);
  if (!index)
    return fail(InputError, index.message());
  Result<TuneResults> results = readTuneResults(dir);
  if (!results)
    return fail(InputError, results.message());
  Result<TensorMap> inputs = readTensors(dir, index->inputs);
  if (!inputs)
    return fail(InputError, inputs.message());
  TensorMap bounds;
  Result<TensorMap> reference = readTensors(dir, index->reference, &bounds);
  if (!reference)
    return fail(InputError, reference.message());

  Result<OpenedDevice> device =
      openDevice(index->target, args.device, index->device);
  if (!device)
    return fail(RuntimeFailure, device.message());
  const std::string &deviceId = device->device.id;
  // Times from two devices must not be mixed in one results file.
  if (!results->device.empty() && results->device != deviceId)
    return fail(UsageError, resultsPath(dir) + " holds times measured on " +
                                results->device + ", not " + deviceId +
                                "; pass --device=" + results->device +
                                " or remove the file");
  if (deviceId != index->device)
    std::fprintf(stderr,
                 "tilec-run: warning: the candidates were compiled for %s but "
                 "run on %s\n",
                 index->device.c_str(), deviceId.c_str());
  results->device = deviceId;
  unsigned repeat = args.repeat ? args.repeat : index->repeat;

  unsigned measured = 0, resumed = 0;
  for (const KernelEntry &kernel : index->kernels) {
    for (const CandidateEntry &candidate : kernel.candidates) {
      if (results->candidates.count(candidate.id)) {
        ++resumed;
        continue;
      }
      CandidateResult result =
          measure(*device, dir, candidate, kernel.fingerprint, *inputs,
                  *reference, bounds, repeat);
      if (int code = print(describe(candidate.id, result)))
        return code;
      results->candidates[candidate.id] = std::move(result);
      ++measured;
      if (tilec::Status written = writeTuneResults(dir, *results); !written)
        return fail(RuntimeFailure, written.message());
    }
  }
  std::string summary = "tune: measured " + std::to_string(measured) +
                        " candidate(s) on " + deviceId;
  if (resumed)
    summary +=
        ", " + std::to_string(resumed) + " already in " + resultsPath(dir);
  return print(summary + "; results in " + resultsPath(dir) + "\n");
}
