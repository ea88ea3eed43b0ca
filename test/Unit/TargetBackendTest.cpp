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
  CHECK(getTargetBackend("glsl").available());
  CHECK(getTargetBackend("glsl").runtime() == "gl");
  CHECK(getTargetBackend("glsl").emits("glsl"));
  CHECK(lookupTargetBackend("cuda") == nullptr);
}

TEST_CASE("a backend outside the tree joins with one registration line",
          "[target-backend]") {
  const TargetBackend *backend = lookupTargetBackend("unit-test");
  REQUIRE(backend);
  CHECK(backend->available());
  CHECK(backend->artefactExtension() == ".txt");
}

TEST_CASE("an announced backend is listed but refused", "[target-backend]") {
  registerAnnouncedTargetBackend("announced-test", BackendKind::GPU,
                                 "announced-runtime", ".ann");
  const TargetBackend &backend = getTargetBackend("announced-test");
  CHECK_FALSE(backend.available());
  CHECK(backend.runtime() == "announced-runtime");
  llvm::Expected<Artefact> artefact =
      backend.serialize(mlir::ModuleOp(), ArtefactRequest());
  REQUIRE_FALSE(bool(artefact));
  CHECK(llvm::toString(artefact.takeError()).find("not implemented yet") !=
        std::string::npos);
}
