//===- TuneExport.cpp - Remote tuning: the folder tilec writes and reads --===//
//
// Part of `tilec autotune`; see TuneExport.h and docs/autotune.md. The
// folder holds one program per candidate (the whole program, the candidate
// on its kernel and the cost model's schedule elsewhere), so tilec-run needs
// nothing but the runtime to measure it.
//
//===----------------------------------------------------------------------===//

#include "TuneExport.h"
#include "DriverError.h"

#include "tilec/Schedule/ScheduleFile.h"
#include "tilec/Support/Compare.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Support/Npy.h"
#include "tilec/Support/Version.h"
#include "tilec/Target/TargetBackend.h"

#include "tilec/Frontend/TypedAST.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>

using namespace tilec;
using namespace tilec::autotune;
using namespace tilec::driver;
namespace fs = std::filesystem;

static void check(const Status &status) {
  if (!status)
    failRuntime(status.message());
}

static void makeDirectory(const fs::path &path) {
  std::error_code error;
  fs::create_directories(path, error);
  if (error)
    failRuntime(fmt::format("cannot create directory '{}': {}", path.string(),
                            error.message()));
}

/// Writes each tensor as SUBDIR/NAME.npy and returns name -> relative path.
static std::map<std::string, std::string>
writeTensors(const std::string &dir, const std::string &subdir,
             const typed::Program &program,
             const std::vector<typed::ValueId> &values,
             const std::vector<Tensor> &tensors) {
  makeDirectory(fs::path(dir) / subdir);
  std::map<std::string, std::string> files;
  for (size_t i = 0; i < values.size() && i < tensors.size(); ++i) {
    const std::string &name = program.value(values[i]).name;
    std::string relative = subdir + "/" + name + ".npy";
    check(writeNpy((fs::path(dir) / relative).string(), tensors[i]));
    files[name] = relative;
  }
  return files;
}

void tilec::driver::exportCandidates(const ExportRequest &request,
                                     DeviceTarget &device,
                                     ProgramLoader &loader,
                                     const typed::Program &program,
                                     const std::vector<KernelTask> &tasks,
                                     TuneProgress &progress) {
  const std::string &dir = request.dir;
  // Results of another export would be matched against these candidates.
  std::error_code error;
  if (fs::exists(tune::resultsPath(dir), error))
    failUsage(fmt::format("{} already holds results of an earlier export; "
                          "export into an empty folder",
                          tune::resultsPath(dir)));
  makeDirectory(dir);

  tune::TuneIndex index;
  index.target = device.target == Target::SPIRV ? "spirv" : "opencl";
  index.device = device.device.id;
  index.program = loader.programOptions().inputPath;
  index.entry = request.entry;
  index.tilecVersion = kTilecVersion;
  index.repeat = request.repeat;
  index.inputs =
      writeTensors(dir, "inputs", program, program.inputs, request.inputs);
  index.reference = writeTensors(dir, "reference", program, program.outputs,
                                 request.reference);
  // Beside each float reference its bound (boundPathFor), which
  // tilec-run --tune reads.
  for (size_t i = 0; i < request.bounds.size() && i < program.outputs.size();
       ++i) {
    if (request.bounds[i].data.empty())
      continue;
    const std::string &relative =
        index.reference.at(program.value(program.outputs[i]).name);
    check(writeNpy(boundPathFor((fs::path(dir) / relative).string()),
                   request.bounds[i]));
  }
  std::string extension =
      getTargetBackend(targetName(device.target)).artefactExtension().str();

  for (size_t k = 0; k < tasks.size(); ++k) {
    const KernelTask &task = tasks[k];
    tune::KernelEntry kernel{task.kernel, task.fingerprint, {}};
    for (size_t c = 0; c < task.candidates.size(); ++c) {
      std::string id = fmt::format("{}/{}", task.fingerprint, c);
      ScheduleChoice choice;
      choice.overrides[task.fingerprint] = task.candidates[c];
      GPUArtefactFiles files;
      try {
        files = compileGPUArtefact(device, loader, program, choice,
                                   request.verbose);
      } catch (const DriverError &failure) {
        progress.note(
            fmt::format("export: {}: does not compile, left out{}", id,
                        *failure.what() ? std::string(": ") + failure.what()
                                        : " (diagnostics above)"));
        continue;
      }
      makeDirectory(fs::path(dir) / id);
      files.manifest.artefact = "kernels" + extension;
      check(writeFileAtomically(
          (fs::path(dir) / id / files.manifest.artefact).string(),
          files.bytes));
      std::string manifest = id + "/kernels.json";
      check(rt::writeManifest((fs::path(dir) / manifest).string(),
                              files.manifest));
      kernel.candidates.push_back(
          {id, manifest, schedule::scheduleToJson(task.candidates[c])});
    }
    progress.note(fmt::format("export: kernel {}/{} {} ({}): {} candidate(s)",
                              k + 1, tasks.size(), task.kernel,
                              task.fingerprint, kernel.candidates.size()));
    if (!kernel.candidates.empty())
      index.kernels.push_back(std::move(kernel));
  }
  check(tune::writeTuneIndex(dir, index));
  progress.note(fmt::format("export: wrote {} for {}; measure it with "
                            "'tilec-run --tune {}'",
                            tune::indexPath(dir), index.device, dir));
}

namespace {

/// Replays what tilec-run --tune measured.
class ResultsRunner : public CandidateRunner {
public:
  ResultsRunner(tune::TuneResults results,
                std::map<std::string, std::vector<std::string>> ids)
      : results(std::move(results)), ids(std::move(ids)) {}

  tune::CandidateResult measure(const KernelTask &task,
                                unsigned candidate) override {
    const std::string &id = ids.at(task.fingerprint).at(candidate);
    auto found = results.candidates.find(id);
    if (found != results.candidates.end())
      return found->second;
    tune::CandidateResult missing;
    missing.message = "not measured (tilec-run --tune did not reach it)";
    return missing;
  }

private:
  tune::TuneResults results;
  std::map<std::string, std::vector<std::string>> ids; ///< by fingerprint
};

} // namespace

ImportedTuning tilec::driver::importTuning(const std::string &dir) {
  Result<tune::TuneIndex> index = tune::readTuneIndex(dir);
  if (!index)
    failInput(index.message());
  std::error_code error;
  if (!fs::exists(tune::resultsPath(dir), error))
    failInput(fmt::format("{}: no results yet; run 'tilec-run --tune {}' "
                          "where the device is, then import",
                          tune::resultsPath(dir), dir));
  Result<tune::TuneResults> results = tune::readTuneResults(dir);
  if (!results)
    failInput(results.message());
  if (results->device != index->device)
    failInput(fmt::format("{}: measured on {}, but the candidates were "
                          "compiled for {}; export again with --devices-from "
                          "a device list of the machine that measures",
                          tune::resultsPath(dir), results->device,
                          index->device));

  ImportedTuning imported;
  std::map<std::string, std::vector<std::string>> ids;
  for (const tune::KernelEntry &kernel : index->kernels) {
    KernelTask task;
    task.kernel = kernel.kernel;
    task.fingerprint = kernel.fingerprint;
    task.defaultCandidate = -1;
    for (const tune::CandidateEntry &candidate : kernel.candidates) {
      Result<schedule::KernelSchedule> schedule = schedule::scheduleFromJson(
          candidate.scheduleJson,
          tune::indexPath(dir) + ": candidate " + candidate.id);
      if (!schedule)
        failInput(schedule.message());
      // Candidate N of the export is the cost model's N-th choice.
      if (candidate.id == kernel.fingerprint + "/0")
        task.defaultCandidate = int(task.candidates.size());
      task.candidates.push_back(*schedule);
      ids[kernel.fingerprint].push_back(candidate.id);
    }
    imported.tasks.push_back(std::move(task));
  }
  imported.runner =
      std::make_unique<ResultsRunner>(std::move(*results), std::move(ids));
  imported.index = std::move(*index);
  return imported;
}
