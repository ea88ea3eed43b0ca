//===- RuntimeVulkanTest.cpp - The Vulkan runtime on hand-written SPIR-V --===//
//
// Runs the hand-written SPIR-V module of Inputs/vulkan_vector_ops.spvasm
// (assembled at build time) through the Vulkan runtime on the first Vulkan
// device (lavapipe on CI), without the compiler: results, timings, a
// two-kernel program with a temporary buffer, and the errors for wrong
// inputs, unknown devices, limits and broken modules.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/VulkanRuntime.h"

#include "RequiredFeatures.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

using namespace tilec;
using namespace tilec::rt;

namespace {

constexpr int64_t n = 1000; // the element count baked into the module

#ifdef TILEC_TEST_SPIRV_DIR
std::string readModule() {
  std::ifstream in(TILEC_TEST_SPIRV_DIR "/vulkan_vector_ops.spv",
                   std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}
#endif

ManifestBuffer vectorBuffer(int id, BufferRole role, std::string name) {
  ManifestBuffer b;
  b.id = id;
  b.role = role;
  b.name = std::move(name);
  b.dtype = DType::F32;
  if (role != BufferRole::Temporary)
    b.shape = {n};
  b.bytes = n * 4;
  return b;
}

ManifestKernel kernel(std::string entry, std::vector<KernelBinding> bindings) {
  ManifestKernel k;
  k.name = entry + "_kernel";
  k.fingerprint = "0123456789abcdef";
  k.spirvEntry = std::move(entry);
  k.global = {n, 1, 1};
  k.local = {64, 1, 1};
  for (const KernelBinding &b : bindings)
    k.args.push_back({b.buffer, Access::ReadWrite});
  k.bindings = std::move(bindings);
  return k;
}

/// C = A + B: the "add" entry alone.
Manifest addManifest() {
  Manifest m;
  m.target = "spirv";
  m.artefact = "vector_ops.spv";
  m.buffers = {vectorBuffer(0, BufferRole::Input, "A"),
               vectorBuffer(1, BufferRole::Input, "B"),
               vectorBuffer(2, BufferRole::Output, "C")};
  m.inputs = {{"A", 0}, {"B", 1}};
  m.outputs = {{"C", 2}};
  m.kernels = {kernel("add", {{0, 0, 0}, {0, 1, 1}, {0, 2, 2}})};
  return m;
}

/// D = 2 * (A + B) through temporary buffer 2: both entries, and set 1.
Manifest addScaleManifest() {
  Manifest m = addManifest();
  m.buffers[2] = vectorBuffer(2, BufferRole::Temporary, "");
  m.buffers.push_back(vectorBuffer(3, BufferRole::Output, "D"));
  m.outputs = {{"D", 3}};
  m.kernels.push_back(kernel("scale", {{0, 0, 2}, {1, 0, 3}}));
  m.peakTemporaryBytes = n * 4;
  return m;
}

Tensor ramp(float start, float step) {
  Tensor t(TensorType{DType::F32, {n}});
  for (int64_t i = 0; i < n; ++i)
    t.setDouble(i, start + step * i);
  return t;
}

/// The Vulkan runtime and its first device; fails the test if there is
/// none (CI installs lavapipe, a CPU driver).
struct Fixture {
  std::unique_ptr<Runtime> runtime = createVulkanRuntime();
  std::string deviceId;

  Fixture() {
    std::vector<DeviceInfo> devices = runtime->devices();
    INFO("no Vulkan device: " << runtime->whyNone());
    REQUIRE(!devices.empty());
    deviceId = devices.front().id;
  }
  /// The error of loading `manifest` with `artefact`.
  std::string loadError(const Manifest &manifest, const std::string &artefact) {
    auto program = runtime->load(deviceId, manifest, artefact);
    REQUIRE(!program.ok());
    return program.message();
  }
};

} // namespace

TEST_CASE("Vulkan devices are described", "[vulkan]") {
  Fixture f;
  for (const DeviceInfo &d : f.runtime->devices()) {
    CHECK(d.id.rfind("vulkan:", 0) == 0);
    CHECK(d.runtime == "vulkan");
    CHECK(!d.name.empty());
    CHECK(d.apiVersion.rfind("Vulkan 1.", 0) == 0);
    CHECK(d.maxWorkGroupSize >= 128); // Vulkan's required minimum
    REQUIRE(d.maxWorkItemSizes.size() == 3);
    REQUIRE(d.maxWorkGroupCount.size() == 3);
    CHECK(d.maxStorageBufferRange >= (1u << 27));
    CHECK(d.localMemBytes >= 16384);
    CHECK(d.globalMemBytes > 0);
  }
}

TEST_CASE("Vulkan: without a driver there are no devices, and why",
          "[vulkan]") {
  // The loader reads the driver list when an instance is created; both
  // spellings of the variable are set for older and newer loaders.
  std::map<std::string, std::optional<std::string>> saved;
  for (const char *name : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES"}) {
    const char *value = std::getenv(name);
    saved[name] = value ? std::optional<std::string>(value) : std::nullopt;
    setenv(name, "/nonexistent/tilec_icd.json", 1);
  }
  std::unique_ptr<Runtime> runtime = createVulkanRuntime();
  std::vector<DeviceInfo> devices = runtime->devices();
  std::string why = runtime->whyNone();
  auto program = runtime->load("vulkan:any:0", addManifest(), "");
  for (const auto &[name, value] : saved)
    if (value)
      setenv(name.c_str(), value->c_str(), 1);
    else
      unsetenv(name.c_str());
  CHECK(devices.empty());
  CHECK_THAT(why, Catch::Contains("no usable Vulkan driver") &&
                      Catch::Contains("VK_ERROR_INCOMPATIBLE_DRIVER"));
  REQUIRE(!program.ok());
  CHECK_THAT(program.message(), Catch::Contains("there are none"));
}

TEST_CASE("Vulkan: an unknown device id is an error listing the devices",
          "[vulkan]") {
  Fixture f;
  auto program = f.runtime->load("vulkan:nope:0", addManifest(), "");
  REQUIRE(!program.ok());
  CHECK_THAT(program.message(),
             Catch::Contains("no Vulkan device 'vulkan:nope:0'") &&
                 Catch::Contains(f.deviceId));
}

TEST_CASE("Vulkan: a binary that is not SPIR-V is rejected", "[vulkan]") {
  Fixture f;
  CHECK_THAT(f.loadError(addManifest(), "hello"),
             Catch::Contains("vector_ops.spv: not a valid SPIR-V module") &&
                 Catch::Contains("not a multiple of 4"));
  CHECK_THAT(f.loadError(addManifest(), std::string(40, 'x')),
             Catch::Contains("no SPIR-V magic number"));
  // A valid header followed by an instruction claiming 100 words.
  uint32_t words[] = {0x07230203, 0x00010300, 0, 10, 0, (100u << 16) | 17};
  std::string truncated(reinterpret_cast<const char *>(words), sizeof words);
  CHECK_THAT(f.loadError(addManifest(), truncated),
             Catch::Contains("runs past the end"));
}

TEST_CASE("Vulkan: a manifest for another target is rejected", "[vulkan]") {
  Fixture f;
  Manifest m = addManifest();
  m.target = "opencl";
  uint32_t header[] = {0x07230203, 0x00010300, 0, 10, 0};
  CHECK_THAT(f.loadError(m, std::string(reinterpret_cast<const char *>(header),
                                        sizeof header)),
             Catch::Contains("target is 'opencl'"));
}

#ifdef TILEC_TEST_SPIRV_DIR

TEST_CASE("Vulkan runs one kernel and times it", "[vulkan]") {
  Fixture f;
  auto program = f.runtime->load(f.deviceId, addManifest(), readModule());
  INFO((program.ok() ? std::string() : program.message()));
  REQUIRE(program.ok());
  std::map<std::string, Tensor> inputs{{"A", ramp(0, 1)}, {"B", ramp(5, 2)}};
  std::map<std::string, Tensor> outputs;
  std::vector<KernelTiming> timings;
  Status status = (*program)->run(inputs, outputs, &timings);
  INFO((status.ok() ? "" : status.message()));
  REQUIRE(status.ok());
  REQUIRE(outputs.count("C"));
  const Tensor &c = outputs["C"];
  CHECK(c.type == TensorType{DType::F32, {n}});
  for (int64_t i = 0; i < n; ++i)
    REQUIRE(c.getDouble(i) == 5.0 + 3.0 * i);
  REQUIRE(timings.size() == 1);
  CHECK(timings[0].kernel == "add_kernel");
  CHECK(timings[0].seconds >= 0);
  CHECK(timings[0].seconds < 10);
}

TEST_CASE("Vulkan runs two entry points through a temporary, many times",
          "[vulkan]") {
  Fixture f;
  auto program = f.runtime->load(f.deviceId, addScaleManifest(), readModule());
  INFO((program.ok() ? std::string() : program.message()));
  REQUIRE(program.ok());
  for (float start : {1.0f, -7.0f}) {
    std::map<std::string, Tensor> inputs{{"A", ramp(start, 0.5f)},
                                         {"B", ramp(1, 1)}};
    std::map<std::string, Tensor> outputs;
    std::vector<KernelTiming> timings;
    Status status = (*program)->run(inputs, outputs, &timings);
    INFO((status.ok() ? "" : status.message()));
    REQUIRE(status.ok());
    REQUIRE(outputs.size() == 1);
    const Tensor &d = outputs["D"];
    for (int64_t i = 0; i < n; ++i)
      REQUIRE(d.getDouble(i) == 2.0 * ((start + 0.5 * i) + (1.0 + i)));
    REQUIRE(timings.size() == 2);
    CHECK(timings[0].kernel == "add_kernel");
    CHECK(timings[1].kernel == "scale_kernel");
  }
}

TEST_CASE("Vulkan runs one entry point twice on other buffers", "[vulkan]") {
  // D = 2 * (2 * A): launches of equal kernels share an entry point (and a
  // pipeline), each with its own descriptor sets and timing.
  Manifest m = addScaleManifest();
  m.inputs = {{"A", 0}};
  m.buffers.erase(m.buffers.begin() + 1);
  m.kernels = {kernel("scale", {{0, 0, 0}, {1, 0, 2}}),
               kernel("scale", {{0, 0, 2}, {1, 0, 3}})};
  Fixture f;
  auto program = f.runtime->load(f.deviceId, m, readModule());
  INFO((program.ok() ? std::string() : program.message()));
  REQUIRE(program.ok());
  std::map<std::string, Tensor> outputs;
  std::vector<KernelTiming> timings;
  Status status = (*program)->run({{"A", ramp(1, 0.5f)}}, outputs, &timings);
  INFO((status.ok() ? "" : status.message()));
  REQUIRE(status.ok());
  const Tensor &d = outputs["D"];
  for (int64_t i = 0; i < n; ++i)
    REQUIRE(d.getDouble(i) == 4.0 * (1.0 + 0.5 * i));
  REQUIRE(timings.size() == 2);
  CHECK(timings[0].kernel == "scale_kernel");
  CHECK(timings[1].kernel == "scale_kernel");
}

TEST_CASE("Vulkan: inputs of the wrong shape or name are errors", "[vulkan]") {
  Fixture f;
  auto program = f.runtime->load(f.deviceId, addManifest(), readModule());
  REQUIRE(program.ok());
  std::map<std::string, Tensor> outputs;
  Tensor shortA(TensorType{DType::F32, {n - 1}});
  Status wrongShape =
      (*program)->run({{"A", shortA}, {"B", ramp(0, 1)}}, outputs);
  REQUIRE(!wrongShape.ok());
  CHECK_THAT(wrongShape.message(),
             Catch::Contains("input 'A' must be f32[1000], not f32[999]"));
  Status wrongType = (*program)->run(
      {{"A", ramp(0, 1)}, {"B", Tensor(TensorType{DType::I32, {n}})}}, outputs);
  REQUIRE(!wrongType.ok());
  CHECK_THAT(wrongType.message(),
             Catch::Contains("input 'B' must be f32[1000], not i32[1000]"));
  Status missing = (*program)->run({{"A", ramp(0, 1)}}, outputs);
  REQUIRE(!missing.ok());
  CHECK_THAT(missing.message(), Catch::Contains("input 'B' is missing"));
  Status unknown = (*program)->run(
      {{"A", ramp(0, 1)}, {"B", ramp(0, 1)}, {"Z", ramp(0, 1)}}, outputs);
  REQUIRE(!unknown.ok());
  CHECK_THAT(unknown.message(),
             Catch::Contains(
                 "'Z' is not an input of vector_ops.spv; its inputs are A, B"));
  CHECK(outputs.empty());
}

TEST_CASE("Vulkan: work-groups over the device's limits are errors",
          "[vulkan]") {
  Fixture f;
  DeviceInfo device = f.runtime->devices().front();
  Manifest tooWide = addManifest();
  tooWide.kernels[0].local = {device.maxWorkItemSizes[0] * 2, 1, 1};
  tooWide.kernels[0].global = tooWide.kernels[0].local;
  CHECK_THAT(f.loadError(tooWide, readModule()),
             Catch::Contains("kernel 'add_kernel': work-group size [") &&
                 Catch::Contains("maxComputeWorkGroupSize[0]"));

  Manifest tooMany = addManifest();
  uint64_t side = device.maxWorkItemSizes[1];
  tooMany.kernels[0].local = {device.maxWorkGroupSize / side + 1, side, 1};
  if (tooMany.kernels[0].local[0] <= device.maxWorkItemSizes[0])
    CHECK_THAT(f.loadError(tooMany, readModule()),
               Catch::Contains("kernel 'add_kernel'") &&
                   Catch::Contains("maxComputeWorkGroupInvocations"));

  Manifest tooManyGroups = addManifest();
  tooManyGroups.kernels[0].global = {64 * (device.maxWorkGroupCount[0] + 1), 1,
                                     1};
  CHECK_THAT(f.loadError(tooManyGroups, readModule()),
             Catch::Contains("maxComputeWorkGroupCount[0]"));

  Manifest mismatch = addManifest();
  mismatch.kernels[0].local = {32, 1, 1};
  CHECK_THAT(f.loadError(mismatch, readModule()),
             Catch::Contains("local size [32, 1, 1] differs from the "
                             "LocalSize [64, 1, 1] of entry point 'add'"));
}

TEST_CASE("Vulkan: bad entry points, bindings and buffers are errors",
          "[vulkan]") {
  Fixture f;
  Manifest noEntry = addManifest();
  noEntry.kernels[0].spirvEntry = "mul";
  CHECK_THAT(f.loadError(noEntry, readModule()),
             Catch::Contains("kernel 'add_kernel': the SPIR-V module has no "
                             "compute entry point 'mul' (it has: add, scale)"));

  Manifest twice = addManifest();
  twice.kernels[0].bindings[1].binding = 0;
  CHECK_THAT(f.loadError(twice, readModule()),
             Catch::Contains("(set 0, binding 0) is given twice"));

  Manifest farBinding = addManifest();
  farBinding.kernels[0].bindings[2].binding = 1 << 30;
  CHECK_THAT(f.loadError(farBinding, readModule()),
             Catch::Contains("maxPerStageDescriptorStorageBuffers"));

  Manifest farSet = addManifest();
  farSet.kernels[0].bindings[2].set = 1 << 30;
  CHECK_THAT(f.loadError(farSet, readModule()),
             Catch::Contains("maxBoundDescriptorSets"));

  Manifest noBuffer = addManifest();
  noBuffer.kernels[0].bindings[2].buffer = 9;
  CHECK_THAT(f.loadError(noBuffer, readModule()),
             Catch::Contains("names buffer 9, which does not exist"));

  Manifest huge = addManifest();
  DeviceInfo device = f.runtime->devices().front();
  huge.buffers[2].shape = {int64_t(device.maxStorageBufferRange / 4 + 1)};
  huge.buffers[2].bytes = huge.buffers[2].shape[0] * 4;
  CHECK_THAT(f.loadError(huge, readModule()),
             Catch::Contains("maxStorageBufferRange") ||
                 Catch::Contains("maxMemoryAllocationSize"));
}

#else

TEST_CASE("Vulkan module tests need spirv-as", "[vulkan]") {
  // CI (TILEC_REQUIRE_FEATURES naming vulkan) must run them.
  REQUIRE_FALSE(tilec::test::featureRequired("vulkan"));
  WARN("spirv-as was not found at configure time: the Vulkan runtime tests "
       "that run a SPIR-V module are skipped");
}

#endif // TILEC_TEST_SPIRV_DIR
