//===- RuntimeCudaTest.cpp - The CUDA runtime without a GPU ---------------===//
//
// What the CUDA runtime decides before the driver is asked: CUresult names,
// version text, the PTX line a JIT log names, the device-limit checks, and
// that a machine without libcuda.so.1 has no CUDA devices and says why.
// Running kernels needs an NVIDIA GPU; test/Runtime/cuda-*.test and the
// GPU machine cover that.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/CUDA/CudaChecks.h"
#include "../../lib/Runtime/CUDA/CudaDevices.h"
#include "../../lib/Runtime/CUDA/CudaErrors.h"
#include "../../lib/Runtime/CUDA/CudaJitLog.h"

#include "tilec/Runtime/CUDARuntime.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::cuda;

namespace {

/// A stand-in for the driver's cuGetErrorName, knowing one code tilec's
/// table lacks.
CUresult fakeErrorName(CUresult code, const char **name) {
  if (code != 4242)
    return 1; // CUDA_ERROR_INVALID_VALUE
  *name = "CUDA_ERROR_FROM_THE_FUTURE";
  return kSuccess;
}

/// An H200 as the driver describes it.
DeviceInfo h200() {
  DeviceInfo d;
  d.id = "cuda:nvidia:nvidia-h200:0";
  d.maxWorkGroupSize = 1024;
  d.maxWorkItemSizes = {1024, 1024, 64};
  d.maxWorkGroupCount = {2147483647, 65535, 65535};
  d.localMemBytes = 48 * 1024;
  d.sharedMemOptInBytes = 227 * 1024;
  d.maxAllocBytes = d.globalMemBytes = uint64_t(141) << 30;
  return d;
}

Manifest oneKernel() {
  Manifest m;
  m.target = "ptx";
  m.artefact = "k.ptx";
  m.buffers = {{0, BufferRole::Output, "C", DType::F32, {1024}, 4096}};
  m.outputs = {{"C", 0}};
  ManifestKernel k;
  k.name = "matmul_C";
  k.fingerprint = "0123456789abcdef";
  k.args = {{0, Access::Write}};
  k.global = {1024, 1, 1};
  k.local = {256, 1, 1};
  m.kernels = {k};
  return m;
}

std::string checkError(const Manifest &m) {
  Status s = checkManifest(m, h200());
  return s ? "" : s.message();
}

} // namespace

TEST_CASE("CUDA: CUresults are named, then numbered", "[runtime][cuda]") {
  CHECK(resultName(0) == "CUDA_SUCCESS (0)");
  CHECK(resultName(34) == "CUDA_ERROR_STUB_LIBRARY (34)");
  CHECK(resultName(218) == "CUDA_ERROR_INVALID_PTX (218)");
  CHECK(resultName(701) == "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701)");
  CHECK(resultName(4242) == "CUDA error 4242");
  // The driver names what the table lacks; the table wins where it knows.
  Api api;
  api.cuGetErrorName = fakeErrorName;
  CHECK(resultName(4242, &api) == "CUDA_ERROR_FROM_THE_FUTURE (4242)");
  CHECK(resultName(4243, &api) == "CUDA error 4243");
  CHECK(resultName(2, &api) == "CUDA_ERROR_OUT_OF_MEMORY (2)");
  Status s = callFailed("kernel 'matmul_C'", "cuLaunchKernel", 701, nullptr);
  REQUIRE(!s.ok());
  CHECK(s.message() == "kernel 'matmul_C': cuLaunchKernel failed: "
                       "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701)");
}

TEST_CASE("CUDA: driver versions read as major.minor", "[runtime][cuda]") {
  CHECK(versionText(13000) == "13.0");
  CHECK(versionText(12080) == "12.8");
  CHECK(versionText(11040) == "11.4");
}

TEST_CASE("CUDA: a JIT log's PTX line is quoted with its kernel",
          "[runtime][cuda]") {
  std::string ptx = ".version 7.0\n"
                    ".target sm_50\n"
                    ".visible .entry first(\n"
                    ")\n"
                    "{\n"
                    "\tret;\n"
                    "}\n"
                    ".visible .entry second(\n"
                    "\t.param .u64 second_A\n"
                    ")\n"
                    "{\n"
                    "\tadd.rn.f32 %f3, %f1, %oops;\n"
                    "}\n";
  std::string log = "ptxas application ptx input, line 12; error   : Unknown "
                    "symbol '%oops'\nptxas fatal   : Ptx assembly aborted due "
                    "to errors";
  CHECK(locateJitError(log, ptx) ==
        "in kernel second, line 12:\n  12 | \tadd.rn.f32 %f3, %f1, %oops;\n");
  CHECK(locateJitError("ptxas application ptx input, line 2; error   : x",
                       ptx) == "line 2:\n  2 | .target sm_50\n");
  // Warnings, lines past the end and other logs quote nothing.
  CHECK(locateJitError("ptxas application ptx input, line 6; warning : x", ptx)
            .empty());
  CHECK(locateJitError("ptxas application ptx input, line 99; error   : x", ptx)
            .empty());
  CHECK(locateJitError("", ptx).empty());
}

TEST_CASE("CUDA: launches over the device's limits name the kernel",
          "[runtime][cuda]") {
  CHECK(checkError(oneKernel()).empty());

  Manifest m = oneKernel();
  m.target = "opencl";
  CHECK(checkError(m) == "the manifest's target is 'opencl', but the CUDA "
                         "runtime runs 'ptx' kernels");

  m = oneKernel();
  m.kernels[0].local = {32, 32, 2};
  m.kernels[0].global = {1024, 32, 2};
  CHECK(checkError(m) ==
        "kernel 'matmul_C': block [32, 32, 2] has 2048 threads, more than the "
        "1024 device cuda:nvidia:nvidia-h200:0 allows "
        "(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)");

  m = oneKernel();
  m.kernels[0].local = {1, 1, 128};
  m.kernels[0].global = {1, 1, 128};
  CHECK(checkError(m) ==
        "kernel 'matmul_C': block [1, 1, 128] is larger in dimension 2 than "
        "the 64 device cuda:nvidia:nvidia-h200:0 allows "
        "(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)");

  m = oneKernel();
  m.kernels[0].local = {1, 1, 1};
  m.kernels[0].global = {1, 65536, 1};
  CHECK(checkError(m) ==
        "kernel 'matmul_C': grid [1, 65536, 1] (global [1, 65536, 1] / block "
        "[1, 1, 1]) is larger in dimension 1 than the 65535 device "
        "cuda:nvidia:nvidia-h200:0 allows "
        "(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)");

  m = oneKernel();
  m.kernels[0].dynamicSharedBytes = 227 * 1024;
  CHECK(checkError(m).empty());
  m.kernels[0].dynamicSharedBytes = 227 * 1024 + 1;
  CHECK(checkError(m) ==
        "kernel 'matmul_C': needs 232449 bytes of dynamic shared memory, more "
        "than the 232448 device cuda:nvidia:nvidia-h200:0 allows "
        "(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)");
}

TEST_CASE("CUDA: without a driver there are no devices, and why",
          "[runtime][cuda]") {
  std::unique_ptr<Runtime> runtime = createCUDARuntime();
  CHECK(runtime->name() == "cuda");
  std::vector<DeviceInfo> devices = runtime->devices();
  if (!devices.empty()) {
    // A machine with an NVIDIA driver: the ids are CUDA's.
    CHECK(devices[0].id.rfind("cuda:nvidia:", 0) == 0);
    CHECK(devices[0].computeCapability >= 50);
    return;
  }
  // No libcuda.so.1, the toolkit's stub, or a driver without a GPU.
  std::string why = runtime->whyNone();
  CHECK_THAT(why, Catch::StartsWith("libcuda.so.1 not found (") ||
                      Catch::StartsWith("cuInit failed: CUDA_ERROR_"));
  auto program = runtime->load("cuda:nvidia:nvidia-h200:0", oneKernel(), "");
  REQUIRE(!program.ok());
  CHECK(program.message() ==
        "no CUDA device 'cuda:nvidia:nvidia-h200:0' (there are none: " + why +
            ")");
}
