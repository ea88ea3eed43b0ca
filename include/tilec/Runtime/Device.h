//===- Device.h - One interface over the device runtimes ----------*- C++ -*-===//
//
// OpenCL (lib/Runtime/OpenCL), Vulkan (lib/Runtime/Vulkan), the host CPU's
// JIT (lib/Runtime/JIT, the one runtime that links LLVM) and later CUDA sit
// behind these classes, so `tilec run`, `tilec bench`, `tilec autotune` and
// tilec-run drive every device the same way (docs/architecture.md). No LLVM here.
//
// Errors are returned, never printed or thrown; each message names the
// runtime's own error (CL_OUT_OF_RESOURCES, VK_ERROR_DEVICE_LOST, ...) and
// the kernel it concerns. A failure here is exit code 3 in the tools.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_DEVICE_H
#define TILEC_RUNTIME_DEVICE_H

#include "tilec/Runtime/Manifest.h"
#include "tilec/Support/Result.h"
#include "tilec/Support/Tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tilec::rt {

/// What `tilec devices` prints and the cost model uses. Zero means unknown.
struct DeviceInfo {
  /// Stable identifier, used by --device and schedule files:
  /// "<runtime>:<vendor>:<name>:<index>" lower-cased with spaces as '-', e.g.
  /// "opencl:pocl:cpu-haswell-intel-xeon:0", "vulkan:nvidia:nvidia-h200:0",
  /// "cpu:host:intel-xeon-platinum-8480:0". Index counts equal names.
  std::string id;
  std::string runtime; ///< "opencl", "vulkan", "cuda", "gl", "cpu"
  std::string type;    ///< "cpu", "gpu", "accelerator", "other"
  std::string name, vendor, driverVersion, platform;
  std::string apiVersion; ///< "OpenCL 3.0 PoCL ...", "Vulkan 1.3.255"
  unsigned computeUnits = 0;
  unsigned clockMHz = 0;
  uint64_t globalMemBytes = 0;
  uint64_t maxAllocBytes = 0;
  uint64_t localMemBytes = 0; ///< per work-group (OpenCL local, Vulkan shared)
  uint64_t maxWorkGroupSize = 0;
  std::vector<uint64_t> maxWorkItemSizes; ///< per dimension
  std::vector<uint64_t> maxWorkGroupCount; ///< Vulkan: per dimension
  uint64_t cacheBytes = 0;     ///< global memory cache (OpenCL) / L2 (CPU)
  unsigned cacheLineBytes = 0;
  uint64_t l1CacheBytes = 0;   ///< CPU: L1 data cache per core
  uint64_t l3CacheBytes = 0;   ///< CPU: last-level cache
  unsigned preferredVectorWidthFloat = 0;
  unsigned preferredVectorWidthHalf = 0;
  unsigned subgroupSize = 0;
  /// Whether kernels may exchange values within a subgroup of subgroupSize
  /// consecutive work-items by XOR shuffles (CUDA's shfl.sync; GL's
  /// GL_KHR_shader_subgroup with its shuffle feature in compute shaders).
  bool subgroupShuffle = false;
  uint64_t maxStorageBufferRange = 0; ///< Vulkan
  bool fp16 = false, fp64 = false, int64 = true, int8 = true;
  /// Vulkan float controls: per float width, whether a kernel may ask the
  /// device to keep infinities, NaNs and signed zeros IEEE
  /// (SignedZeroInfNanPreserve) and to keep subnormals (DenormPreserve).
  bool infNanPreserveF16 = false, infNanPreserveF32 = false,
       infNanPreserveF64 = false;
  bool denormPreserveF16 = false, denormPreserveF32 = false,
       denormPreserveF64 = false;
  /// The most loop iterations (of all its loops together) one invocation
  /// of a kernel may run, where the driver stops it silently after that:
  /// Mesa's llvmpipe (lavapipe) guards every shader loop with one counter
  /// of 65535 per invocation. 0: no limit.
  uint64_t maxLoopIterations = 0;
  // CUDA (0 elsewhere: unknown).
  /// Compute capability as major * 10 + minor: 90 for sm_90 (H100, H200).
  unsigned computeCapability = 0;
  /// Shared memory a block may use when it opts in (dynamic shared memory
  /// beyond localMemBytes, the 48 KiB every block gets), and per SM.
  uint64_t sharedMemOptInBytes = 0;
  uint64_t sharedMemPerComputeUnitBytes = 0;
  /// 32-bit registers available to one block.
  unsigned registersPerBlock = 0;
  /// DRAM bandwidth from the memory clock and bus width, bytes per second.
  uint64_t memoryBandwidthBytes = 0;
  std::vector<std::string> extensions;
};

/// Time of one kernel launch, from the runtime's own profiling counters.
struct KernelTiming {
  std::string kernel;
  double seconds = 0;
};

/// A compiled program loaded on one device, ready to run many times.
class Program {
public:
  virtual ~Program();
  /// Runs every kernel of the manifest once. `inputs` maps each input name
  /// of the manifest to a host tensor of exactly its dtype and shape (checked;
  /// a mismatch is an error naming the input). Outputs are copied back into
  /// `outputs` (filled by name). With `timings`, one entry per kernel launch.
  virtual Status run(const std::map<std::string, Tensor> &inputs,
                     std::map<std::string, Tensor> &outputs,
                     std::vector<KernelTiming> *timings = nullptr) = 0;
  /// Promises that the next run is given the tensors of the run before, at
  /// the same addresses and unchanged: the runtime may keep what it
  /// derived from them (the host's JIT keeps the packed panels of its
  /// kernels' weights, see tilec-cpu-keep-packed-inputs). Ignored by
  /// default; any run after that next one promises nothing.
  virtual void reuseInputs() {}

  //===--------------------------------------------------------------------===//
  // Resident running, for training (lib/Training): inputs stay where the
  // kernels read them across runs, and carried outputs become next run's
  // inputs without a trip through the host. A runtime whose memory is the
  // host's (or that has not specialised these) gets the fallback here,
  // which keeps the tensors in host memory between runs.
  //===--------------------------------------------------------------------===//

  /// An output that becomes an input after each run: `output` -> `input`.
  struct Carry {
    std::string output, input;
  };
  /// Sets input `name` for every later runResident (checked against the
  /// manifest like run's inputs).
  virtual Status setInput(const std::string &name, const Tensor &tensor);
  /// Runs every kernel once with `fresh` replacing those inputs (the rest
  /// as set or carried), then copies each carried output into its input.
  /// Reads nothing back; errors may surface at the next readBack.
  virtual Status runResident(const std::map<std::string, Tensor> &fresh,
                             const std::vector<Carry> &carried);
  /// The current value of an input or (after a runResident) an output.
  virtual Status readBack(const std::string &name, Tensor &tensor);

protected:
  /// The fallback's state.
  std::map<std::string, Tensor> residentInputs, residentOutputs;
};

/// One copy of a resident run, after its kernels: the carried output
/// `output` (buffer `from`) into the input `input` (buffer `to`).
struct CarriedCopy {
  std::string output, input;
  int from = 0, to = 0;
  uint64_t bytes = 0;
};

/// The copies that `carried` asks of `manifest`'s buffers, in order, leaving
/// out a pair whose output and input share a buffer; an error for a pair
/// that is not an output and an input of the program.
Result<std::vector<CarriedCopy>>
carriedCopies(const Manifest &manifest,
              const std::vector<Program::Carry> &carried);

/// The DeviceInfo of each of a runtime's devices (anything with an `info`).
template <typename D>
std::vector<DeviceInfo> deviceInfos(const std::vector<D> &devices) {
  std::vector<DeviceInfo> infos;
  for (const D &device : devices)
    infos.push_back(device.info);
  return infos;
}

/// The device of `devices` whose id is `id`, or an error naming `api`
/// ("Vulkan") and the ids there are, or `whyNone` when there are none.
template <typename D>
Result<const D *> findDevice(const std::vector<D> &devices,
                             const std::string &id, const std::string &api,
                             const std::string &whyNone) {
  std::string ids;
  for (const D &device : devices) {
    if (device.info.id == id)
      return &device;
    ids += (ids.empty() ? "" : ", ") + device.info.id;
  }
  return Status::error("no " + api + " device '" + id + "' (" +
                       (ids.empty() ? "there are none: " + whyNone
                                    : "there are: " + ids) +
                       ")");
}

/// One runtime (OpenCL, Vulkan, ...): its devices and how to load programs.
class Runtime {
public:
  virtual ~Runtime();
  virtual std::string name() const = 0; ///< "opencl", "vulkan", "cpu"
  /// The devices this runtime sees. A missing loader or driver is not an
  /// error: it gives no devices (and `whyNone` says why, for `devices`).
  virtual std::vector<DeviceInfo> devices() = 0;
  virtual std::string whyNone() const { return {}; }
  /// Builds `manifest`'s kernels (`artefact` holds the bytes of the kernel
  /// file: OpenCL C source, a SPIR-V binary, or for the host JIT the
  /// loop-level module as MLIR bytecode) on device `deviceId`. A build
  /// failure quotes the driver's log with the kernel source line.
  virtual Result<std::unique_ptr<Program>>
  load(const std::string &deviceId, const Manifest &manifest,
       const std::string &artefact) = 0;
};

/// Checks the tensors given to Program::run against the manifest's inputs:
/// each present, of its dtype and shape, and no name that is not an input.
/// The error names the input. With `partial`, inputs may be missing (one
/// set by Program::setInput).
Status checkInputs(const Manifest &manifest,
                   const std::map<std::string, Tensor> &inputs,
                   bool partial = false);

/// The runtime that runs artefacts of compile target `target` ("opencl":
/// OpenCL, "spirv": Vulkan, "ptx": CUDA) and the devices it sees.
struct TargetRuntime {
  std::unique_ptr<Runtime> runtime;
  std::vector<DeviceInfo> devices;
};

/// Opens the runtime of `target`. An error when this build lacks it or it
/// sees no device (with the runtime's reason why not).
Result<TargetRuntime> openTargetRuntime(const std::string &target);
/// Lists the devices of `runtime`, one not among allRuntimes() (the host
/// JIT of tilec/Runtime/JITRuntime.h); an error when it sees none.
Result<TargetRuntime> openRuntime(std::unique_ptr<Runtime> runtime);

/// Every runtime compiled into this build (OpenCL, Vulkan when built).
std::vector<std::unique_ptr<Runtime>> allRuntimes();

/// Resolves a --device value against `devices`: an exact id, a unique
/// substring of an id or name, or an index "N" into the list; empty picks the
/// first GPU, else the first device. The error lists what exists.
Result<DeviceInfo> selectDevice(const std::vector<DeviceInfo> &devices,
                                const std::string &request);

} // namespace tilec::rt

#endif // TILEC_RUNTIME_DEVICE_H
