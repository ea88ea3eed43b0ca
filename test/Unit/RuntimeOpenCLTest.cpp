//===- RuntimeOpenCLTest.cpp - The OpenCL runtime on a real driver --------===//
//
// Runs a hand-written kernel through the ICD loader on the first OpenCL
// device (PoCL in CI). Without any OpenCL device the cases are skipped with
// a warning, since there is nothing to run them on.
//
//===----------------------------------------------------------------------===//

#include "RequiredFeatures.h"
#include "tilec/Runtime/OpenCLRuntime.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::rt;
using tilec::test::featureRequired;

namespace {

const char *kSource = R"(// y = a * x + b, elementwise over 8 floats
kernel void axpb(global const float *x, global const float *b,
                 global float *y) {
  size_t i = get_global_id(0);
  y[i] = 3.0f * x[i] + b[i];
}
)";

Manifest axpbManifest() {
  Manifest m;
  m.target = "opencl";
  m.artefact = "axpb.cl";
  m.buffers = {{0, BufferRole::Input, "X", DType::F32, {8}, 32},
               {1, BufferRole::Input, "B", DType::F32, {8}, 32},
               {2, BufferRole::Output, "Y", DType::F32, {8}, 32}};
  m.inputs = {{"X", 0}, {"B", 1}};
  m.outputs = {{"Y", 2}};
  ManifestKernel k;
  k.name = "axpb";
  k.fingerprint = "0000000000000001";
  k.args = {{0, Access::Read}, {1, Access::Read}, {2, Access::Write}};
  k.global = {8, 1, 1};
  k.local = {4, 1, 1};
  m.kernels = {k};
  return m;
}

Tensor vector(std::vector<float> values) {
  Tensor t(TensorType{DType::F32, {int64_t(values.size())}});
  for (size_t i = 0; i < values.size(); ++i)
    t.setDouble(int64_t(i), values[i]);
  return t;
}

/// The OpenCL runtime and its first device, or nothing to test on.
struct Fixture {
  std::unique_ptr<Runtime> runtime = createOpenCLRuntime();
  std::vector<DeviceInfo> devices = runtime->devices();
  /// Whether there is a device to test on. With TILEC_REQUIRE_FEATURES naming
  /// opencl (as CI sets it), a missing device fails the test instead.
  bool usable() const {
    if (!devices.empty())
      return true;
    INFO("no OpenCL device: " << runtime->whyNone());
    REQUIRE_FALSE(featureRequired("opencl"));
    WARN("no OpenCL device (" << runtime->whyNone() << "): skipped");
    return false;
  }
  std::string load(const Manifest &m, const std::string &source) {
    auto program = runtime->load(devices.front().id, m, source);
    return program ? "" : program.message();
  }
};

} // namespace

TEST_CASE("OpenCL devices have ids and properties", "[runtime][opencl]") {
  Fixture f;
  if (!f.usable())
    return;
  for (const DeviceInfo &d : f.devices) {
    CHECK(d.id.rfind("opencl:", 0) == 0);
    CHECK(d.runtime == "opencl");
    CHECK(d.computeUnits > 0);
    CHECK(d.globalMemBytes > 0);
    CHECK(d.maxWorkGroupSize > 0);
    CHECK(d.maxWorkItemSizes.size() >= 3);
  }
  // Listing twice gives the same ids.
  CHECK(createOpenCLRuntime()->devices().front().id == f.devices.front().id);
}

TEST_CASE("OpenCL runs a kernel and times it", "[runtime][opencl]") {
  Fixture f;
  if (!f.usable())
    return;
  auto program = f.runtime->load(f.devices.front().id, axpbManifest(), kSource);
  REQUIRE(program.ok());
  std::map<std::string, Tensor> inputs = {
      {"X", vector({0, 1, 2, 3, 4, 5, 6, 7})},
      {"B", vector({1, 1, 1, 1, -1, -1, -1, -1})}};
  for (int repeat = 0; repeat < 2; ++repeat) {
    std::map<std::string, Tensor> outputs;
    std::vector<KernelTiming> timings;
    REQUIRE((*program)->run(inputs, outputs, &timings).ok());
    REQUIRE(outputs.count("Y"));
    CHECK(outputs["Y"].type == TensorType{DType::F32, {8}});
    for (int i = 0; i < 8; ++i)
      CHECK(outputs["Y"].getDouble(i) == 3.0 * i + (i < 4 ? 1 : -1));
    REQUIRE(timings.size() == 1);
    CHECK(timings[0].kernel == "axpb");
    CHECK(timings[0].seconds >= 0);
  }
}

TEST_CASE("OpenCL rejects wrong inputs by name", "[runtime][opencl]") {
  Fixture f;
  if (!f.usable())
    return;
  auto program = f.runtime->load(f.devices.front().id, axpbManifest(), kSource);
  REQUIRE(program.ok());
  std::map<std::string, Tensor> outputs;
  auto errorFor = [&](std::map<std::string, Tensor> inputs) {
    Status s = (*program)->run(inputs, outputs);
    return s ? std::string() : s.message();
  };
  Tensor eight = vector({0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(errorFor({{"X", eight}}) == "input 'B' is missing");
  CHECK(errorFor({{"X", eight}, {"B", vector({1, 2, 3})}}) ==
        "input 'B' must be f32[8], not f32[3]");
  CHECK(errorFor({{"X", eight}, {"B", eight}, {"Z", eight}})
            .find("'Z' is not an input of axpb.cl; its inputs are X, B") == 0);
  CHECK(outputs.empty()); // nothing half-filled
}

TEST_CASE("OpenCL build failures quote the log and the source line",
          "[runtime][opencl]") {
  Fixture f;
  if (!f.usable())
    return;
  std::string broken = kSource;
  broken.replace(broken.find("b[i];"), 5, "b[i] + missing;");
  std::string error = f.load(axpbManifest(), broken);
  INFO(error);
  CHECK(error.rfind("axpb.cl: the OpenCL build failed on opencl:", 0) == 0);
  CHECK(error.find("(CL_BUILD_PROGRAM_FAILURE)") != std::string::npos);
  CHECK(error.find("in kernel axpb, line 5:") != std::string::npos);
  CHECK(error.find("  5 |   y[i] = 3.0f * x[i] + b[i] + missing;") !=
        std::string::npos);
  CHECK(error.find("driver log:") != std::string::npos);
  CHECK(error.find("missing") != std::string::npos);
}

TEST_CASE("OpenCL errors name the kernel and the OpenCL error",
          "[runtime][opencl]") {
  Fixture f;
  if (!f.usable())
    return;
  Manifest renamed = axpbManifest();
  renamed.kernels[0].name = "nowhere";
  CHECK(f.load(renamed, kSource) ==
        "kernel nowhere (in axpb.cl): clCreateKernel failed: "
        "CL_INVALID_KERNEL_NAME");

  Manifest huge = axpbManifest();
  uint64_t tooMany = f.devices.front().maxWorkGroupSize * 2;
  huge.kernels[0].global = {tooMany, 1, 1};
  huge.kernels[0].local = {tooMany, 1, 1};
  std::string error = f.load(huge, kSource);
  CHECK(error.rfind("kernel axpb: work-group [", 0) == 0);
  CHECK(error.find("CL_INVALID_WORK_GROUP_SIZE") != std::string::npos);

  auto unknown =
      f.runtime->load("opencl:none:nothing:0", axpbManifest(), kSource);
  REQUIRE(!unknown.ok());
  CHECK(unknown.message() ==
        "no OpenCL device has the id 'opencl:none:nothing:0'");

  Manifest spirv = axpbManifest();
  spirv.target = "spirv";
  CHECK(f.load(spirv, kSource).find("a spirv manifest") != std::string::npos);
}

TEST_CASE("OpenCL f16 kernels need cl_khr_fp16", "[runtime][opencl]") {
  Fixture f;
  if (!f.usable())
    return;
  Manifest half = axpbManifest();
  for (ManifestBuffer &b : half.buffers) {
    b.dtype = DType::F16;
    b.bytes = 16;
  }
  std::string source = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                       "kernel void axpb(global const half *x, global const "
                       "half *b, global half *y) {\n"
                       "  size_t i = get_global_id(0);\n"
                       "  y[i] = x[i] + b[i];\n}\n";
  std::string error = f.load(half, source);
  if (f.devices.front().fp16) {
    CHECK(error.empty());
    return;
  }
  CHECK(error == "kernel axpb: uses half precision (f16), but device " +
                     f.devices.front().id +
                     " lacks cl_khr_fp16; run it on another device "
                     "(tilec-run --devices) or compile the program with f32");
}
