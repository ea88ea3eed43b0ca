//===- CompileCacheKeysTest.cpp - What the compile cache's keys cover -----===//
//
// lib/Compiler's cache keys (CompileCacheKeys.h): every field a compile's
// outputs depend on changes the key, and the same material gives the same
// key. Then a store and lookup through CompileCache in a fresh folder.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/CompileCache.h"
#include "tilec/Compiler/CompileCacheKeys.h"
#include "tilec/Compiler/Reporter.h"
#include "tilec/InitAll.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Target/LLVM/CodeGen.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Target/TargetMachine.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace tilec;
using namespace tilec::compiler;

namespace {

constexpr const char *kLoops = R"mlir(
func.func @main(%a: memref<4xf32>, %b: memref<4xf32>) attributes {tilec.entry} {
  return
}
)mlir";

/// A small loop-level module parsed from `text` (named `name`, whose
/// locations the key covers).
struct Module {
  explicit Module(const char *text = kLoops, const char *name = "k.mlir") {
    context.loadDialect<mlir::func::FuncDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(
        text, mlir::ParserConfig(&context), name);
    REQUIRE(module);
  }
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// The registered backend called `name`.
const TargetBackend &backendCalled(llvm::StringRef name) {
  registerAllTargetBackends();
  return getTargetBackend(name);
}

/// What a GPU compile's key is made of, with the plain compile's defaults:
/// the device enters as the module's #tilec.gpu_target.
struct GPUMaterial {
  std::string target = "opencl";
  std::string output = "artefact";
  schedule::DeviceProfile device;
  ArtefactRequest request;

  std::string digest(mlir::ModuleOp module) const {
    mlir::OwningOpRef<mlir::ModuleOp> marked = module.clone();
    kernel::setGPUTarget(*marked, device);
    return compileCacheKey(backendCalled(target), *marked, request, output,
                           {})
        .digest();
  }
};

} // namespace

TEST_CASE("a cache key is the same for the same material and tells field "
          "boundaries apart",
          "[cache]") {
  CacheKey a, b, c;
  a.add("x", "ab");
  a.add("y", "c");
  b.add("x", "ab");
  b.add("y", "c");
  c.add("x", "a");
  c.add("y", "bc");
  CHECK(a.digest() == b.digest());
  CHECK(a.digest() != c.digest());
  CHECK(a.digest().size() == 64);
  CacheKey digested, same, other;
  digested.addDigestOf("loops", "text");
  same.addDigestOf("loops", "text");
  other.addDigestOf("loops", "text2");
  CHECK(digested.fields().front().second != "text");
  CHECK(digested.digest() == same.digest());
  CHECK(digested.digest() != other.digest());
}

TEST_CASE("every field of a GPU compile's material changes its key",
          "[cache]") {
  Module loops;
  GPUMaterial base;
  const std::string baseline = base.digest(*loops.module);
  CHECK(base.digest(*loops.module) == baseline);

  std::vector<std::pair<const char *, std::function<void(GPUMaterial &)>>>
      changes = {
          {"target", [](GPUMaterial &m) { m.target = "spirv"; }},
          {"device id", [](GPUMaterial &m) { m.device.id = "opencl:x:0"; }},
          {"cpu", [](GPUMaterial &m) { m.device.isCPU = true; }},
          {"compute units", [](GPUMaterial &m) { m.device.computeUnits = 1; }},
          {"clock", [](GPUMaterial &m) { m.device.clockMHz = 1500; }},
          {"work-group", [](GPUMaterial &m) { m.device.maxWorkGroupSize = 128; }},
          {"work-item x", [](GPUMaterial &m) { m.device.maxWorkItemSizes[0] = 8; }},
          {"work-item y", [](GPUMaterial &m) { m.device.maxWorkItemSizes[1] = 8; }},
          {"work-item z", [](GPUMaterial &m) { m.device.maxWorkItemSizes[2] = 8; }},
          {"local memory", [](GPUMaterial &m) { m.device.localMemBytes = 1; }},
          {"subgroup", [](GPUMaterial &m) { m.device.subgroupSize = 16; }},
          {"vector width", [](GPUMaterial &m) { m.device.preferredVectorWidth = 4; }},
          {"l1", [](GPUMaterial &m) { m.device.l1Bytes = 1; }},
          {"l2", [](GPUMaterial &m) { m.device.l2Bytes = 1; }},
          {"cache line", [](GPUMaterial &m) { m.device.cacheLineBytes = 128; }},
          {"vector bytes", [](GPUMaterial &m) { m.device.vectorBytes = 64; }},
          {"vector registers", [](GPUMaterial &m) { m.device.vectorRegisters = 32; }},
          {"peak bytes", [](GPUMaterial &m) { m.device.peakBytesPerSecond = 1e9; }},
          {"peak flops", [](GPUMaterial &m) { m.device.peakFlopsPerSecond = 1e9; }},
          {"spirv version", [](GPUMaterial &m) { m.device.spirvVersionMinor = 5; }},
          {"fp16", [](GPUMaterial &m) { m.device.fp16 = false; }},
          {"fp64", [](GPUMaterial &m) { m.device.fp64 = false; }},
          {"int8", [](GPUMaterial &m) { m.device.int8 = false; }},
          {"int16", [](GPUMaterial &m) { m.device.int16 = false; }},
          {"int64", [](GPUMaterial &m) { m.device.int64 = false; }},
          {"storage8", [](GPUMaterial &m) { m.device.storage8Bit = false; }},
          {"storage16", [](GPUMaterial &m) { m.device.storage16Bit = false; }},
          {"subgroups", [](GPUMaterial &m) { m.device.subgroups = false; }},
          {"inf-nan 16", [](GPUMaterial &m) { m.device.infNanPreserve16 = false; }},
          {"inf-nan 32", [](GPUMaterial &m) { m.device.infNanPreserve32 = false; }},
          {"inf-nan 64", [](GPUMaterial &m) { m.device.infNanPreserve64 = false; }},
          {"denorm 16", [](GPUMaterial &m) { m.device.denormPreserve16 = true; }},
          {"denorm 32", [](GPUMaterial &m) { m.device.denormPreserve32 = true; }},
          {"denorm 64", [](GPUMaterial &m) { m.device.denormPreserve64 = true; }},
          {"loop budget", [](GPUMaterial &m) { m.device.maxLoopIterations = 9; }},
          {"manifest device", [](GPUMaterial &m) { m.request.context.device = "opencl:x:0"; }},
          {"program", [](GPUMaterial &m) { m.request.context.program = "k.tile"; }},
          {"artefact", [](GPUMaterial &m) { m.request.context.artefact = "k.cl"; }},
          {"entry", [](GPUMaterial &m) { m.request.context.entry = "main"; }},
          {"input dtypes", [](GPUMaterial &m) { m.request.context.inputDTypes = {DType::I8}; }},
          {"output dtypes", [](GPUMaterial &m) { m.request.context.outputDTypes = {DType::I8}; }},
          {"output path", [](GPUMaterial &m) { m.request.outputPath = "k.cl"; }},
          {"emit form", [](GPUMaterial &m) { m.output = "emit=cl"; }},
      };
  for (auto &[what, change] : changes) {
    GPUMaterial changed = base;
    change(changed);
    INFO(what);
    CHECK(changed.digest(*loops.module) != baseline);
  }

  // The module enters with its locations: a statement on another line (or
  // in another file) is another compile, and so is other IR.
  Module moved(kLoops, "other.mlir");
  CHECK(base.digest(*moved.module) != baseline);
  Module other(R"mlir(
func.func @main(%a: memref<8xf32>, %b: memref<4xf32>) attributes {tilec.entry} {
  return
}
)mlir");
  CHECK(base.digest(*other.module) != baseline);
}

TEST_CASE("a CPU compile's key covers the output kind, -O and the machine",
          "[cache]") {
  const TargetBackend &llvm = backendCalled("llvm-x86");
  Module loops;
  auto digest = [&](llvm::StringRef cpu, unsigned opt, llvm::StringRef output,
                    llvm::StringRef path = "model.o") {
    ArtefactRequest request;
    request.cpu = cpu.str();
    request.optLevel = opt;
    request.outputPath = path.str();
    auto fields = llvm.cacheKeyFields(request);
    REQUIRE(bool(fields));
    return compileCacheKey(llvm, *loops.module, request, output, *fields)
        .digest();
  };
  std::string baseline = digest("native", 2, "artefact");
  CHECK(digest("native", 2, "artefact") == baseline);
  CHECK(digest("native", 3, "artefact") != baseline);
  CHECK(digest("native", 2, "emit=asm") != baseline);
  // The entry symbol is named after the object file.
  CHECK(digest("native", 2, "artefact", "other.o") != baseline);
  CHECK(compileCacheKey(backendCalled("opencl"), *loops.module, {},
                        "artefact", {})
            .digest() != baseline);
  // Another CPU is other code, unless it is the host's.
  initializeNativeTarget();
  auto host = createTargetMachine("native", 2);
  auto generic = createTargetMachine("x86-64", 2);
  bool made = static_cast<bool>(host) && static_cast<bool>(generic);
  REQUIRE(made);
  if ((*generic)->getTargetCPU() != (*host)->getTargetCPU())
    CHECK(digest("x86-64", 2, "artefact") != baseline);
}

TEST_CASE("the compile cache gives back what was stored under a key, and "
          "nothing under another",
          "[cache]") {
  llvm::SmallString<128> dir;
  REQUIRE(!llvm::sys::fs::createUniqueDirectory("tilec-cache-test", dir));
  CompileCache cache({dir.str().str(), false, false}, silentReporter());
  REQUIRE(cache.enabled());
  CacheKey key, other;
  key.add("target", "opencl");
  other.add("target", "spirv");
  cache.store(key, {{"kernels", "__kernel"}, {"manifest", "{}"}});
  auto hit = cache.lookup(key, {"kernels", "manifest"});
  REQUIRE(hit);
  CHECK((*hit)[0].bytes == "__kernel");
  CHECK((*hit)[1].bytes == "{}");
  CHECK_FALSE(cache.lookup(other, {"kernels", "manifest"}));
  CompileCache off({dir.str().str(), true, false}, silentReporter());
  CHECK_FALSE(off.enabled());
  CHECK_FALSE(off.lookup(key, {"kernels", "manifest"}));
  (void)llvm::sys::fs::remove_directories(dir);
}
