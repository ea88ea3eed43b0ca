//===- TargetBackendTest.cpp - The backend registry -----------------------===//
//
// Target/TargetBackend.h: the built-in backends are found by name and
// alias in the order help texts list them, an announced one is listed but
// unavailable, and a backend outside the tree joins with one static
// registration line, as a test-only backend in test/lib will.
//
//===----------------------------------------------------------------------===//

#include "tilec/InitAll.h"
#include "tilec/Target/TargetBackend.h"

#include <catch2/catch.hpp>

using namespace tilec;

namespace {

/// A backend that only this test knows.
class UnitTestBackend : public TargetBackend {
public:
  llvm::StringRef name() const override { return "unit-test"; }
  BackendKind kind() const override { return BackendKind::GPU; }
  llvm::StringRef runtime() const override { return "opencl"; }
  llvm::StringRef artefactExtension() const override { return ".txt"; }
  llvm::StringRef codeGenStageName() const override { return "text"; }
  llvm::StringRef optLevelIgnoredReason() const override { return "none"; }
  llvm::Expected<Artefact> serialize(mlir::ModuleOp,
                                     const ArtefactRequest &) const override {
    Artefact artefact;
    artefact.bytes = "unit";
    return artefact;
  }
};

TargetBackendRegistration<UnitTestBackend> registration;

} // namespace

TEST_CASE("the built-in backends are registered once, by name and alias",
          "[target-backend]") {
  registerAllTargetBackends();
  registerAllTargetBackends(); // idempotent
  std::vector<std::string> names;
  for (const TargetBackend *backend : targetBackends())
    if (backend->name() != "unit-test")
      names.push_back(backend->name().str());
  CHECK(names == std::vector<std::string>{"opencl", "spirv", "llvm-x86", "ptx",
                                          "glsl"});

  const TargetBackend *llvm = lookupTargetBackend("llvm");
  REQUIRE(llvm);
  CHECK(llvm->name() == "llvm-x86");
  CHECK(llvm->kind() == BackendKind::CPU);
  CHECK(llvm->emits("asm"));
  CHECK_FALSE(llvm->emits("cl"));
  CHECK(getTargetBackend("spirv").runtime() == "vulkan");
  CHECK(getTargetBackend("spirv").artefactExtension() == ".spv");
  CHECK(getTargetBackend("opencl").emits("cl"));
  CHECK(getTargetBackend("ptx").available());
  CHECK(getTargetBackend("ptx").runtime() == "cuda");
  CHECK(getTargetBackend("ptx").emits("ptx"));
  CHECK(getTargetBackend("ptx").emits("nvvm"));
  CHECK_FALSE(getTargetBackend("glsl").available());
  CHECK(lookupTargetBackend("cuda") == nullptr);
}

TEST_CASE("a backend outside the tree joins with one registration line",
          "[target-backend]") {
  const TargetBackend *backend = lookupTargetBackend("unit-test");
  REQUIRE(backend);
  CHECK(backend->available());
  CHECK(backend->artefactExtension() == ".txt");
}
