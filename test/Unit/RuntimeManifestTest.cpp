//===- RuntimeManifestTest.cpp - The launch manifest ----------------------===//
//
// A manifest printed and parsed back is the same; every way a manifest can
// be wrong is rejected with a message naming the file and the field.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Manifest.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

using namespace tilec;
using namespace tilec::rt;
using json = nlohmann::json;

namespace {

/// Two inputs, one output, one temporary, two kernels.
Manifest sampleManifest(const std::string &target = "opencl") {
  Manifest m;
  m.target = target;
  m.artefact = "k.cl";
  m.program = "examples/x.tile";
  m.entry = "main";
  m.tilecVersion = "0.1.0-dev";
  m.buffers = {{0, BufferRole::Input, "A", DType::F32, {2, 3}, 24},
               {1, BufferRole::Input, "B", DType::F16, {3}, 6},
               {2, BufferRole::Output, "C", DType::I32, {2}, 8},
               {3, BufferRole::Temporary, "", DType::F32, {}, 64}};
  m.inputs = {{"A", 0}, {"B", 1}};
  m.outputs = {{"C", 2}};
  ManifestKernel k1;
  k1.name = "first";
  k1.fingerprint = "026c6791287ff337";
  k1.statements = {"examples/x.tile:3"};
  k1.args = {{0, Access::Read}, {1, Access::Read}, {3, Access::Write}};
  k1.global = {6, 4, 1};
  k1.local = {3, 2, 1};
  k1.flops = 12;
  k1.bytes = 94;
  ManifestKernel k2 = k1;
  k2.name = "second";
  k2.args = {{3, Access::Read}, {2, Access::ReadWrite}};
  if (target == "spirv") {
    k1.spirvEntry = "first";
    k1.bindings = {{0, 0, 0}, {0, 1, 1}, {0, 2, 3}};
    k2.spirvEntry = "second";
    k2.bindings = {{0, 0, 3}, {0, 1, 2}};
  }
  m.kernels = {k1, k2};
  m.peakTemporaryBytes = 64;
  return m;
}

/// The error of parsing `root` (as JSON text), or "" if it parses.
std::string errorOf(const json &root) {
  Result<Manifest> m = parseManifest(root.dump(), "m.json");
  return m ? "" : m.message();
}

json sampleJson() { return json::parse(printManifest(sampleManifest())); }

} // namespace

TEST_CASE("manifests round trip through JSON", "[runtime][manifest]") {
  for (const char *target : {"opencl", "spirv"}) {
    Manifest m = sampleManifest(target);
    std::string text = printManifest(m);
    Result<Manifest> back = parseManifest(text, "m.json");
    INFO(target << "\n" << text);
    REQUIRE(back.ok());
    CHECK(printManifest(*back) == text);
    CHECK(back->buffers.size() == 4);
    CHECK(back->buffers[1].dtype == DType::F16);
    CHECK(back->kernels[1].args[1].access == Access::ReadWrite);
    CHECK(back->kernels[0].local == std::array<uint64_t, 3>{3, 2, 1});
    CHECK(back->kernels[0].spirvEntry ==
          (std::string(target) == "spirv" ? "first" : ""));
    CHECK(back->findBuffer(3)->role == BufferRole::Temporary);
    CHECK(back->findBuffer(7) == nullptr);
  }
  // Keys are sorted and the text is stable.
  std::string text = printManifest(sampleManifest());
  CHECK(text.find("\"artefact\"") < text.find("\"version\""));
  CHECK(text.find("\"access\": \"read_write\"") != std::string::npos);
}

TEST_CASE("ptx manifests carry each kernel's dynamic shared memory",
          "[runtime][manifest]") {
  Manifest m = sampleManifest("ptx");
  m.kernels[0].dynamicSharedBytes = 65536;
  std::string text = printManifest(m);
  INFO(text);
  CHECK(text.find("\"dynamic_shared_bytes\": 65536") != std::string::npos);
  CHECK(text.find("\"dynamic_shared_bytes\": 0") != std::string::npos);
  CHECK(text.find("spirv_entry") == std::string::npos);
  Result<Manifest> back = parseManifest(text, "m.json");
  REQUIRE(back.ok());
  CHECK(printManifest(*back) == text);
  CHECK(back->target == "ptx");
  CHECK(back->kernels[0].dynamicSharedBytes == 65536);
  CHECK(back->kernels[1].dynamicSharedBytes == 0);

  // Optional when read; other targets neither print nor accept it.
  json j = json::parse(text);
  j["kernels"][0].erase("dynamic_shared_bytes");
  back = parseManifest(j.dump(), "m.json");
  REQUIRE(back.ok());
  CHECK(back->kernels[0].dynamicSharedBytes == 0);
  j["kernels"][1]["dynamic_shared_bytes"] = uint64_t(1) << 32;
  CHECK(errorOf(j) == "m.json: kernels[1].dynamic_shared_bytes: is too large");
  j["kernels"][1]["dynamic_shared_bytes"] = -1;
  CHECK(errorOf(j) == "m.json: kernels[1].dynamic_shared_bytes: must be an "
                      "integer >= 0");
  Manifest opencl = sampleManifest("opencl");
  opencl.kernels[0].dynamicSharedBytes = 1024;
  CHECK(printManifest(opencl).find("dynamic_shared_bytes") ==
        std::string::npos);
  for (const char *target : {"opencl", "spirv"}) {
    j = json::parse(printManifest(sampleManifest(target)));
    j["kernels"][0]["dynamic_shared_bytes"] = 0;
    CHECK(errorOf(j) == "m.json: kernels[0].dynamic_shared_bytes: belongs to "
                        "ptx manifests only");
  }
}

TEST_CASE("manifests are written atomically and read back",
          "[runtime][manifest]") {
  char dir[] = "/tmp/tilec-manifest-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  std::string path = std::string(dir) + "/k.cl.json";
  REQUIRE(writeManifest(path, sampleManifest()).ok());
  Result<Manifest> back = readManifest(path);
  REQUIRE(back.ok());
  CHECK(back->kernels.size() == 2);
  Result<Manifest> missing = readManifest(std::string(dir) + "/none.json");
  REQUIRE(!missing.ok());
  CHECK(missing.message().find("none.json: cannot read") != std::string::npos);
  Status bad =
      writeManifest(std::string(dir) + "/no/such/dir.json", sampleManifest());
  CHECK(!bad.ok());
  std::remove(path.c_str());
  CHECK(::rmdir(dir) == 0); // nothing else was left in the folder
}

TEST_CASE("every schema error names the file and the field",
          "[runtime][manifest]") {
  auto expect = [](json root, const std::string &message) {
    std::string error = errorOf(root);
    INFO("expected: " << message << "\ngot: " << error);
    CHECK(error.rfind("m.json: ", 0) == 0);
    CHECK(error.find(message) != std::string::npos);
  };
  CHECK(errorOf(sampleJson()).empty());
  CHECK(parseManifest("{\"format\": ", "m.json")
            .message()
            .find("m.json: not valid JSON: parse error") == 0);
  expect(json::array(), "must be a JSON object");

  json j = sampleJson();
  j["format"] = "other";
  expect(j, "format: must be \"tilec-manifest\"");
  j = sampleJson();
  j["version"] = 2;
  j["new_field"] = 1; // a newer version's fields: the version is the problem
  expect(j, "version: this tilec reads version 1, not 2");
  j = sampleJson();
  j["version"] = "1";
  expect(j, "version: must be an integer >= 0");
  j = sampleJson();
  j.erase("artefact");
  expect(j, "artefact: missing");
  j = sampleJson();
  j["artefact"] = "";
  expect(j, "artefact: must not be empty");
  j = sampleJson();
  j["extra"] = 1;
  expect(j, "extra: unknown field");
  j = sampleJson();
  j["target"] = "cuda";
  expect(j, "target: must be \"opencl\", \"spirv\", \"ptx\" or \"glsl\", not \"cuda\"");
  j = sampleJson();
  j["entry"] = 3;
  expect(j, "entry: must be a string");
  j = sampleJson();
  j["peak_temporary_bytes"] = -1;
  expect(j, "peak_temporary_bytes: must be an integer >= 0");

  // Buffers.
  j = sampleJson();
  j["buffers"] = json::object();
  expect(j, "buffers: must be an array");
  j = sampleJson();
  j["buffers"][0]["role"] = "scratch";
  expect(j, "buffers[0].role: must be \"input\", \"output\" or \"temporary\"");
  j = sampleJson();
  j["buffers"][1]["id"] = 0;
  expect(j, "buffers[1].id: 0 is used twice");
  j = sampleJson();
  j["buffers"][0]["dtype"] = "f128";
  expect(j, "buffers[0].dtype: unknown element type \"f128\"");
  j = sampleJson();
  j["buffers"][0]["shape"][1] = 0;
  expect(j, "buffers[0].shape[1]: must be an integer >= 1");
  j = sampleJson();
  j["buffers"][0]["bytes"] = 20;
  expect(j, "buffers[0].bytes: is 20 but f32[2, 3] needs 24");
  j = sampleJson();
  j["buffers"][3]["bytes"] = 0;
  expect(j, "buffers[3].bytes: must be an integer >= 1");
  j = sampleJson();
  j["buffers"][0].erase("name");
  expect(j, "buffers[0].name: missing");
  j = sampleJson();
  j["buffers"][0]["shape"] = json::array({uint64_t(1) << 62, 4});
  j["buffers"][0]["bytes"] = 1;
  expect(j, "buffers[0].shape: is too large");

  // Inputs and outputs.
  j = sampleJson();
  j["inputs"][0]["buffer"] = 9;
  expect(j, "inputs[0].buffer: no buffer has id 9");
  j = sampleJson();
  j["inputs"][0]["buffer"] = 2;
  j["inputs"][0]["name"] = "C";
  expect(j, "inputs[0].buffer: buffer 2 is an output buffer, not input");
  j = sampleJson();
  j["inputs"][1]["name"] = "X";
  expect(j, "inputs[1].name: is \"X\" but buffer 1 holds \"B\"");
  j = sampleJson();
  j["inputs"].erase(1);
  expect(j, "inputs: input buffer 1 (\"B\") is not listed");
  j = sampleJson();
  j["outputs"].push_back(j["outputs"][0]);
  expect(j, "outputs[1].buffer: buffer 2 is listed twice");

  // Kernels.
  j = sampleJson();
  j["kernels"][0]["name"] = "not an identifier";
  expect(j, "kernels[0].name: \"not an identifier\" is not a C identifier");
  j = sampleJson();
  j["kernels"][0]["fingerprint"] = "XYZ";
  expect(j, "kernels[0].fingerprint: must be 16 lower-case hex digits");
  j = sampleJson();
  j["kernels"][0]["statements"][0] = 3;
  expect(j, "kernels[0].statements[0]: must be a string");
  j = sampleJson();
  j["kernels"][0]["args"][0]["buffer"] = 12;
  expect(j, "kernels[0].args[0].buffer: no buffer has id 12");
  j = sampleJson();
  j["kernels"][0]["args"][0]["access"] = "rw";
  expect(j, "kernels[0].args[0].access: must be \"read\", \"write\" or "
            "\"read_write\", not \"rw\"");
  j = sampleJson();
  j["kernels"][0]["args"][0]["access"] = "write";
  expect(j, "kernels[0].args[0].access: input buffer 0 must not be written");
  j = sampleJson();
  j["kernels"][1]["global"] = json::array({4, 4});
  expect(j, "kernels[1].global: must hold 3 sizes");
  j = sampleJson();
  j["kernels"][1]["local"][2] = 0;
  expect(j, "kernels[1].local[2]: must be an integer >= 1");
  j = sampleJson();
  j["kernels"][1]["local"][0] = 4;
  expect(j, "kernels[1].local[0]: 4 does not divide the global size 6");
  j = sampleJson();
  j["kernels"][1]["flops"] = 1.5;
  expect(j, "kernels[1].flops: must be an integer >= 0");
  j = sampleJson();
  j["kernels"][0]["spirv_entry"] = "first";
  expect(j, "kernels[0]: 'spirv_entry' and 'bindings' belong to spirv");
  j = json::parse(printManifest(sampleManifest("spirv")));
  j["kernels"][0].erase("spirv_entry");
  expect(j, "kernels[0].spirv_entry: missing");
  j = json::parse(printManifest(sampleManifest("spirv")));
  j["kernels"][0]["bindings"][0]["buffer"] = 5;
  expect(j, "kernels[0].bindings[0].buffer: no buffer has id 5");
  j = json::parse(printManifest(sampleManifest("spirv")));
  j["kernels"][0]["bindings"][0]["slot"] = 5;
  expect(j, "kernels[0].bindings[0].slot: unknown field");
}
