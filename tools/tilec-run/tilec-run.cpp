//===- tilec-run.cpp - Runs compiled kernels without the compiler ---------===//
//
// `tilec-run ARTEFACT.json` loads the kernels a manifest describes onto a
// device, runs them on .npy or generated inputs, writes the outputs and
// reports per-kernel times. It links only the LLVM-free runtime library, so
// it builds on machines that have no LLVM (TILEC_RUNTIME_ONLY).
//
// Exit codes (docs/cli.md): 0 success; 1 a wrong manifest or input file; 2 a
// wrong command line; 3 a device, runtime or I/O failure. Outputs are written
// only after every kernel succeeded, each atomically.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "Exit.h"
#include "Inputs.h"
#include "OpenDevice.h"
#include "ReferenceBound.h"
#include "Report.h"
#include "Train.h"
#include "Tune.h"

#include "tilec/Runtime/DeviceReport.h"
#include "tilec/Support/Compare.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Support/Npy.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <new>

using namespace tilec;
using namespace tilec::run;

namespace {

int listDevices(bool json) {
  auto runtimes = rt::allRuntimes();
  std::vector<rt::RuntimeDevices> report = rt::discoverAllDevices(runtimes);
  return print(json ? rt::formatDeviceReportJson(report)
                    : rt::formatDeviceReport(report));
}

/// Writes every output as DIR/NAME.npy, after all of them were computed.
int writeOutputs(const std::string &dir, RunReport &report) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    return fail(RuntimeFailure,
                "cannot create directory '" + dir + "': " + error.message());
  for (const std::string &name : report.outputOrder) {
    std::string path = (std::filesystem::path(dir) / (name + ".npy")).string();
    if (Status written = writeNpy(path, report.outputs.at(name)); !written)
      return fail(RuntimeFailure, written.message());
    report.outputFiles[name] = path;
  }
  return Success;
}

/// Compares every output with DIR/NAME.npy (and its bound DIR/NAME.bound.npy
/// where present) and prints a check line each; a mismatch exits with 1, as
/// `tilec run --check` does.
int checkOutputs(const std::string &dir, const RunReport &report) {
  bool allMatch = true;
  std::string lines;
  for (const std::string &name : report.outputOrder) {
    std::string path = (std::filesystem::path(dir) / (name + ".npy")).string();
    const Tensor &got = report.outputs.at(name);
    Result<Tensor> want = readNpy(path, got.type.dtype);
    if (!want)
      return fail(InputError, want.message());
    Result<std::optional<Tensor>> bound = readReferenceBound(path);
    if (!bound)
      return fail(InputError, bound.message());
    TensorComparison comparison =
        compareTensors(got, *want, *bound ? &**bound : nullptr);
    lines += formatComparison(name, comparison) + "\n";
    allMatch = allMatch && comparison.match;
  }
  if (int code = print(lines))
    return code;
  return allMatch ? Success
                  : fail(InputError, "the outputs differ from " + dir);
}

int runManifest(const Arguments &args) {
  Result<LoadedManifest> loaded = readManifestAndArtefact(args.manifest);
  if (!loaded)
    return fail(InputError, loaded.message());
  rt::Manifest *manifest = &loaded->manifest;
  std::string *artefact = &loaded->artefact;
  std::map<std::string, Tensor> inputs;
  InputFailure inputFailure;
  if (!assembleInputs(*manifest, args, inputs, inputFailure))
    return fail(inputFailure.exitCode, inputFailure.message);

  // By default, the device the kernels were scheduled for, where present.
  Result<OpenedDevice> opened =
      openDevice(manifest->target, args.device, manifest->device);
  if (!opened)
    return fail(RuntimeFailure, opened.message());
  const rt::DeviceInfo *device = &opened->device;
  Result<std::unique_ptr<rt::Program>> program =
      opened->runtime->load(device->id, *manifest, *artefact);
  if (!program)
    return fail(RuntimeFailure, program.message());
  RunReport report;
  report.manifest = args.manifest;
  report.device = device->id;
  report.repeat = std::max(args.repeat, 1u);
  std::vector<std::vector<rt::KernelTiming>> runs;
  for (unsigned i = 0; i < report.repeat; ++i) {
    std::vector<rt::KernelTiming> timings;
    if (Status ran = (*program)->run(inputs, report.outputs, &timings); !ran)
      return fail(RuntimeFailure, ran.message());
    runs.push_back(std::move(timings));
  }
  summarizeTimings(*manifest, runs, report);
  for (const rt::ManifestValue &output : manifest->outputs)
    report.outputOrder.push_back(output.name);
  if (!args.outputDir.empty())
    if (int code = writeOutputs(args.outputDir, report))
      return code;
  if (int code =
          print(args.json ? formatReportJson(report) : formatReport(report)))
    return code;
  return args.expectDir.empty() ? Success
                                : checkOutputs(args.expectDir, report);
}

int runTool(int argc, char **argv) {
  Result<Arguments> args = parseArguments(argc, argv);
  if (!args)
    return fail(UsageError, args.message());
  if (args->help)
    return print(usageText());
  if (!args->tuneDir.empty()) {
    if (!args->manifest.empty() || args->listDevices || args->json ||
        !args->inputs.empty() || !args->outputDir.empty() ||
        !args->expectDir.empty() || args->seed != 0)
      return fail(UsageError, "--tune DIR takes only --device and --repeat: "
                              "the folder holds the inputs and references");
    return runTuneFolder(*args);
  }
  if (args->train)
    return runTraining(*args);
  if (!args->data.empty() || !args->init.empty() || args->shuffle ||
      !args->saveDir.empty() || args->batch != 0 || args->epochs != 1)
    return fail(UsageError, "--data, --init, --batch, --epochs, --shuffle and "
                            "--save-dir go with --train");
  if (args->listDevices) {
    if (!args->manifest.empty())
      return fail(UsageError, "--devices takes no manifest");
    return listDevices(args->json);
  }
  if (args->manifest.empty())
    return fail(UsageError, "no manifest given (tilec-run ARTEFACT.json)");
  return runManifest(*args);
}

} // namespace

int main(int argc, char **argv) {
  try {
    return runTool(argc, argv);
  } catch (const std::bad_alloc &) {
    return fail(RuntimeFailure, "out of memory");
  } catch (const std::exception &error) {
    // The libraries return errors; anything thrown is a bug, still reported.
    return fail(RuntimeFailure, std::string("internal error: ") + error.what());
  }
}
