//===- tilec-run.cpp - Runs compiled kernels without the compiler ---------===//
//
// `tilec-run ARTEFACT.json` loads the kernels a manifest describes onto a
// device, runs them on .npy or generated inputs, writes the outputs and
// reports per-kernel times. It links only the LLVM-free runtime library, so
// it builds on machines that have no LLVM (TILEC_RUNTIME_ONLY).
//
// Exit codes (CLI.md): 0 success; 1 a wrong manifest or input file; 2 a
// wrong command line; 3 a device, runtime or I/O failure. Outputs are written
// only after every kernel succeeded, each atomically.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "Inputs.h"
#include "Report.h"

#include "tilec/Runtime/DeviceReport.h"
#include "tilec/Support/Compare.h"
#include "tilec/Support/FileIO.h"
#include "tilec/Support/Npy.h"

#include <cstdio>
#include <filesystem>
#include <new>

using namespace tilec;
using namespace tilec::run;

namespace {

enum ExitCode {
  Success = 0,
  InputError = 1,
  UsageError = 2,
  RuntimeFailure = 3
};

int fail(int code, const std::string &message) {
  std::fflush(stdout);
  std::fprintf(stderr, "tilec-run: error: %s\n", message.c_str());
  if (code == UsageError)
    std::fprintf(stderr, "run 'tilec-run --help' for usage\n");
  return code;
}

/// Writes `text` to stdout; a failure to write (closed pipe, full disk) is a
/// runtime failure, not a silent success.
int print(const std::string &text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
      std::fflush(stdout) != 0)
    return fail(RuntimeFailure, "cannot write to stdout");
  return Success;
}

/// The artefact's path: relative to the manifest's folder.
std::string artefactPath(const std::string &manifestPath,
                         const std::string &artefact) {
  std::filesystem::path path(artefact);
  if (path.is_absolute())
    return artefact;
  return (std::filesystem::path(manifestPath).parent_path() / path).string();
}

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

/// Compares every output with DIR/NAME.npy and prints a check line each;
/// a mismatch exits with 1, as `tilec run --check` does.
int checkOutputs(const std::string &dir, const RunReport &report) {
  bool allMatch = true;
  std::string lines;
  for (const std::string &name : report.outputOrder) {
    std::string path = (std::filesystem::path(dir) / (name + ".npy")).string();
    const Tensor &got = report.outputs.at(name);
    Result<Tensor> want = readNpy(path, got.type.dtype);
    if (!want)
      return fail(InputError, want.message());
    TensorComparison comparison = compareTensors(got, *want);
    lines += formatComparison(name, got, *want, comparison) + "\n";
    allMatch = allMatch && comparison.match;
  }
  if (int code = print(lines))
    return code;
  return allMatch ? Success
                  : fail(InputError, "the outputs differ from " + dir);
}

int runManifest(const Arguments &args) {
  Result<rt::Manifest> manifest = rt::readManifest(args.manifest);
  if (!manifest)
    return fail(InputError, manifest.message());
  Result<std::string> artefact =
      readFileBytes(artefactPath(args.manifest, manifest->artefact));
  if (!artefact)
    return fail(InputError, artefact.message());
  std::map<std::string, Tensor> inputs;
  InputFailure inputFailure;
  if (!assembleInputs(*manifest, args, inputs, inputFailure))
    return fail(inputFailure.exitCode, inputFailure.message);

  // Only the runtime of the manifest's target can run it.
  Result<rt::TargetRuntime> opened = rt::openTargetRuntime(manifest->target);
  if (!opened)
    return fail(RuntimeFailure, opened.message());
  std::unique_ptr<rt::Runtime> &runtime = opened->runtime;
  const std::vector<rt::DeviceInfo> &devices = opened->devices;
  // By default, the device the kernels were scheduled for, where present.
  std::string request = args.device;
  for (const rt::DeviceInfo &candidate : devices)
    if (request.empty() && candidate.id == manifest->device)
      request = candidate.id;
  Result<rt::DeviceInfo> device = rt::selectDevice(devices, request);
  if (!device)
    return fail(RuntimeFailure, device.message());

  Result<std::unique_ptr<rt::Program>> program =
      runtime->load(device->id, *manifest, *artefact);
  if (!program)
    return fail(RuntimeFailure, program.message());
  RunReport report;
  report.manifest = args.manifest;
  report.device = device->id;
  report.repeat = args.repeat;
  std::vector<std::vector<rt::KernelTiming>> runs;
  for (unsigned i = 0; i < args.repeat; ++i) {
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
  if (!args->tuneDir.empty())
    return fail(UsageError,
                "--tune (timing a tuning folder) is not implemented yet; it "
                "arrives with 'tilec autotune'");
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
