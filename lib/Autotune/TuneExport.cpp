//===- TuneExport.cpp - Remote tuning: the folder tilec writes and reads --===//
//
// Part of lib/Autotune; see TuneExport.h and docs/autotune.md. The
// folder holds one program per candidate (the whole program, the candidate
// on its kernel and the cost model's schedule elsewhere), so tilec-run needs
// nothing but the runtime to measure it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Autotune/TuneExport.h"

#include "tilec/Compiler/Compile.h"
#include "tilec/Schedule/ScheduleFile.h"
#include "tilec/Support/Compare.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Support/Npy.h"
#include "tilec/Support/Version.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/TargetBackend.h"

#include "tilec/Frontend/TypedAST.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>

using namespace tilec;
using namespace tilec::autotune;
using namespace tilec::compiler;
namespace fs = std::filesystem;

static llvm::Error check(const tilec::Status &status) {
  if (!status)
    return runtimeError(status.message());
  return llvm::Error::success();
}

static llvm::Error makeDirectory(const fs::path &path) {
  std::error_code error;
  fs::create_directories(path, error);
  if (error)
    return runtimeError(fmt::format("cannot create directory '{}': {}",
                                    path.string(), error.message()));
  return llvm::Error::success();
}

/// Writes each tensor as SUBDIR/NAME.npy and returns name -> relative path.
static llvm::Expected<std::map<std::string, std::string>>
writeTensors(const std::string &dir, const std::string &subdir,
             const typed::Program &program,
             const std::vector<typed::ValueId> &values,
             const std::vector<Tensor> &tensors) {
  if (llvm::Error error = makeDirectory(fs::path(dir) / subdir))
    return std::move(error);
  std::map<std::string, std::string> files;
  for (size_t i = 0; i < values.size() && i < tensors.size(); ++i) {
    const std::string &name = program.value(values[i]).name;
    std::string relative = subdir + "/" + name + ".npy";
    if (llvm::Error error =
            check(writeNpy((fs::path(dir) / relative).string(), tensors[i])))
      return std::move(error);
    files[name] = relative;
  }
  return files;
}

/// The kernel file and manifest of `program` with `candidate` on the
/// kernel `fingerprint` (the cost model's schedules elsewhere), for
/// `device`.
static llvm::Expected<Artefact>
compileCandidate(DeviceTarget &device, ProgramLoader &loader,
                 const typed::Program &program, const std::string &fingerprint,
                 const schedule::KernelSchedule &candidate,
                 const std::string &artefactName, bool verbose) {
  CompileRequest request;
  request.backend = device.backend;
  request.device = &device;
  request.schedules.overrides[fingerprint] = candidate;
  request.verbose = verbose;
  request.artefact.context = manifestContextFor(
      *device.backend, loader.programOptions().inputPath, program);
  request.artefact.context.artefact = artefactName;
  request.artefact.forRuntime = true;
  llvm::Expected<CompiledProgram> compiled =
      compileProgram(loader, program, request);
  if (!compiled)
    return compiled.takeError();
  return std::move(compiled->artefact);
}

llvm::Error tilec::autotune::exportCandidates(
    const ExportRequest &request, DeviceTarget &device, ProgramLoader &loader,
    const typed::Program &program, const std::vector<KernelTask> &tasks,
    TuningObserver &observer) {
  const std::string &dir = request.dir;
  // Results of another export would be matched against these candidates.
  std::error_code exists;
  if (fs::exists(tune::resultsPath(dir), exists))
    return usageError(fmt::format("{} already holds results of an earlier "
                                  "export; export into an empty folder",
                                  tune::resultsPath(dir)));
  if (llvm::Error error = makeDirectory(dir))
    return error;

  tune::TuneIndex index;
  index.target = device.backend->name().str();
  index.device = device.device.id;
  index.program = loader.programOptions().inputPath;
  index.entry = request.entry;
  index.tilecVersion = kTilecVersion;
  index.repeat = request.repeat;
  llvm::Expected<std::map<std::string, std::string>> inputs =
      writeTensors(dir, "inputs", program, program.inputs, request.inputs);
  if (!inputs)
    return inputs.takeError();
  index.inputs = std::move(*inputs);
  llvm::Expected<std::map<std::string, std::string>> reference = writeTensors(
      dir, "reference", program, program.outputs, request.reference);
  if (!reference)
    return reference.takeError();
  index.reference = std::move(*reference);
  // Beside each float reference its bound (boundPathFor), which
  // tilec-run --tune reads.
  for (size_t i = 0; i < request.bounds.size() && i < program.outputs.size();
       ++i) {
    if (request.bounds[i].data.empty())
      continue;
    const std::string &relative =
        index.reference.at(program.value(program.outputs[i]).name);
    if (llvm::Error error =
            check(writeNpy(boundPathFor((fs::path(dir) / relative).string()),
                           request.bounds[i])))
      return error;
  }
  std::string artefactName =
      "kernels" + device.backend->artefactExtension().str();

  for (size_t k = 0; k < tasks.size(); ++k) {
    const KernelTask &task = tasks[k];
    tune::KernelEntry kernel{task.kernel, task.fingerprint, {}};
    for (size_t c = 0; c < task.candidates.size(); ++c) {
      std::string id = fmt::format("{}/{}", task.fingerprint, c);
      llvm::Expected<Artefact> artefact =
          compileCandidate(device, loader, program, task.fingerprint,
                           task.candidates[c], artefactName, request.verbose);
      if (!artefact) {
        std::string why = llvm::toString(artefact.takeError());
        observer.note(fmt::format("export: {}: does not compile, left out{}",
                                  id,
                                  why.empty() ? " (diagnostics above)"
                                              : ": " + why));
        continue;
      }
      if (llvm::Error error = makeDirectory(fs::path(dir) / id))
        return error;
      if (llvm::Error error = check(writeFileAtomically(
              (fs::path(dir) / id / artefactName).string(), artefact->bytes)))
        return error;
      std::string manifest = id + "/kernels.json";
      if (llvm::Error error = check(rt::writeManifest(
              (fs::path(dir) / manifest).string(), *artefact->manifest)))
        return error;
      kernel.candidates.push_back(
          {id, manifest, schedule::scheduleToJson(task.candidates[c])});
    }
    observer.note(fmt::format("export: kernel {}/{} {} ({}): {} candidate(s)",
                              k + 1, tasks.size(), task.kernel,
                              task.fingerprint, kernel.candidates.size()));
    if (!kernel.candidates.empty())
      index.kernels.push_back(std::move(kernel));
  }
  if (llvm::Error error = check(tune::writeTuneIndex(dir, index)))
    return error;
  observer.note(fmt::format("export: wrote {} for {}; measure it with "
                            "'tilec-run --tune {}'",
                            tune::indexPath(dir), index.device, dir));
  return llvm::Error::success();
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

llvm::Expected<ImportedTuning>
tilec::autotune::importTuning(const std::string &dir) {
  Result<tune::TuneIndex> index = tune::readTuneIndex(dir);
  if (!index)
    return inputError(index.message());
  std::error_code error;
  if (!fs::exists(tune::resultsPath(dir), error))
    return inputError(fmt::format("{}: no results yet; run 'tilec-run --tune "
                                  "{}' where the device is, then import",
                                  tune::resultsPath(dir), dir));
  Result<tune::TuneResults> results = tune::readTuneResults(dir);
  if (!results)
    return inputError(results.message());
  if (results->device != index->device)
    return inputError(fmt::format(
        "{}: measured on {}, but the candidates were compiled for {}; export "
        "again with --devices-from a device list of the machine that "
        "measures",
        tune::resultsPath(dir), results->device, index->device));

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
        return inputError(schedule.message());
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
  return std::move(imported);
}
