//===- ManifestBuilderTest.cpp - The manifest of gpu-level modules --------===//
//
// buildManifest on small hand-written gpu-level modules: buffer roles, ids
// and sizes, dtypes from the typed program, launch order, argument access,
// work sizes, the flop and byte estimates, statements, and the errors for
// modules that are not at the gpu level.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/ManifestBuilder.h"
#include "tilec/Target/GPU/GPUDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace tilec;

namespace {

/// Parses `text` and builds its manifest; `errors` collects diagnostics.
struct ManifestFixture {
  ManifestFixture() {
    mlir::DialectRegistry registry;
    registerGPULevelDialects(registry);
    context.appendDialectRegistry(registry);
    context.getDiagEngine().registerHandler([&](mlir::Diagnostic &diag) {
      errors += diag.str() + "\n";
    });
  }

  mlir::FailureOr<rt::Manifest> build(const char *text,
                                      const ManifestContext &info = {}) {
    // Named like a file so its own line locations are not Tile statements.
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context,
                                                     "kernels.mlir");
    REQUIRE(module);
    return buildManifest(*module, info);
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string errors;
};

/// Two kernels: `scale` reads X and writes a temporary, `add` reads the
/// temporary and X and accumulates into Y (read and written).
const char *kTwoKernels = R"mlir(
#l4 = loc("prog.tile":4:3)
#l5 = loc("prog.tile":5:3)
module attributes {gpu.container_module} {
  func.func @main(%X: memref<2x8xi32>, %Y: memref<2x8xf32>)
      attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["Y"]} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %t = memref.alloc() : memref<2x8xf32>
    gpu.launch_func @k::@scale blocks in (%c2, %c1, %c1) threads in (%c4, %c2, %c1)
        args(%X : memref<2x8xi32>, %t : memref<2x8xf32>)
    gpu.launch_func @k::@add blocks in (%c1, %c2, %c1) threads in (%c4, %c1, %c1)
        args(%t : memref<2x8xf32>, %X : memref<2x8xi32>, %Y : memref<2x8xf32>)
    memref.dealloc %t : memref<2x8xf32>
    return
  }
  gpu.module @k {
    gpu.func @scale(%x: memref<2x8xi32>, %t: memref<2x8xf32>) kernel
        attributes {tilec.fingerprint = "00000000000000aa"} {
      %i = gpu.block_id x
      %j = gpu.thread_id x
      %v = memref.load %x[%i, %j] : memref<2x8xi32> loc(#l4)
      %f = arith.sitofp %v : i32 to f32 loc(#l4)
      %g = arith.mulf %f, %f : f32 loc(#l4)
      memref.store %g, %t[%i, %j] : memref<2x8xf32> loc(#l4)
      gpu.return
    }
    gpu.func @add(%t: memref<2x8xf32>, %x: memref<2x8xi32>, %y: memref<2x8xf32>) kernel
        attributes {tilec.fingerprint = "00000000000000bb"} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %i = gpu.block_id y
      %j = gpu.thread_id x
      scf.for %k = %c0 to %c3 step %c1 {
        %a = memref.load %t[%i, %j] : memref<2x8xf32> loc(#l5)
        %b = memref.load %y[%i, %j] : memref<2x8xf32> loc(#l5)
        %s = arith.addf %a, %b : f32 loc(#l5)
        memref.store %s, %y[%i, %j] : memref<2x8xf32> loc(#l5)
      }
      gpu.return
    }
  }
}
)mlir";

} // namespace

TEST_CASE("manifest buffers: inputs, outputs, then temporaries",
          "[manifest-builder]") {
  ManifestFixture fixture;
  ManifestContext info;
  info.program = "prog.tile";
  info.artefact = "prog.cl";
  info.inputDTypes = {DType::U32}; // the typed program knows it is unsigned
  info.outputDTypes = {DType::F32};
  auto manifest = fixture.build(kTwoKernels, info);
  REQUIRE(mlir::succeeded(manifest));
  CHECK(manifest->target == "opencl");
  CHECK(manifest->artefact == "prog.cl");
  CHECK(manifest->program == "prog.tile");
  CHECK(manifest->entry == "main");
  REQUIRE(manifest->buffers.size() == 3);
  const rt::ManifestBuffer &x = manifest->buffers[0];
  CHECK(x.id == 0);
  CHECK(x.role == rt::BufferRole::Input);
  CHECK(x.name == "X");
  CHECK(x.dtype == DType::U32);
  CHECK(x.shape == std::vector<int64_t>{2, 8});
  CHECK(x.bytes == 64);
  CHECK(manifest->buffers[1].role == rt::BufferRole::Output);
  CHECK(manifest->buffers[1].name == "Y");
  CHECK(manifest->buffers[2].role == rt::BufferRole::Temporary);
  CHECK(manifest->buffers[2].bytes == 64);
  CHECK(manifest->peakTemporaryBytes == 64);
  REQUIRE(manifest->inputs.size() == 1);
  CHECK(manifest->inputs[0].name == "X");
  CHECK(manifest->inputs[0].buffer == 0);
  REQUIRE(manifest->outputs.size() == 1);
  CHECK(manifest->outputs[0].buffer == 1);
}

TEST_CASE("manifest kernels: launch order, access, sizes, estimates",
          "[manifest-builder]") {
  ManifestFixture fixture;
  auto manifest = fixture.build(kTwoKernels);
  REQUIRE(mlir::succeeded(manifest));
  // Without the typed program, i32 reads as signed.
  CHECK(manifest->buffers[0].dtype == DType::I32);
  REQUIRE(manifest->kernels.size() == 2);

  const rt::ManifestKernel &scale = manifest->kernels[0];
  CHECK(scale.name == "scale");
  CHECK(scale.fingerprint == "00000000000000aa");
  CHECK(scale.statements == std::vector<std::string>{"prog.tile:4"});
  REQUIRE(scale.args.size() == 2);
  CHECK(scale.args[0].buffer == 0);
  CHECK(scale.args[0].access == rt::Access::Read);
  CHECK(scale.args[1].buffer == 2);
  CHECK(scale.args[1].access == rt::Access::Write);
  CHECK(scale.global == std::array<uint64_t, 3>{8, 2, 1});
  CHECK(scale.local == std::array<uint64_t, 3>{4, 2, 1});
  CHECK(scale.flops == 16); // one mulf per work-item; the cast is no flop
  CHECK(scale.bytes == 128);

  const rt::ManifestKernel &add = manifest->kernels[1];
  CHECK(add.name == "add");
  REQUIRE(add.args.size() == 3);
  CHECK(add.args[0].access == rt::Access::Read);
  CHECK(add.args[1].access == rt::Access::Read); // passed, never used
  CHECK(add.args[2].buffer == 1);
  CHECK(add.args[2].access == rt::Access::ReadWrite);
  CHECK(add.global == std::array<uint64_t, 3>{4, 2, 1});
  CHECK(add.flops == 24); // 8 work-items x 3 iterations x one addf
  CHECK(add.bytes == 192);
}

TEST_CASE("manifest errors: not at the gpu level", "[manifest-builder]") {
  ManifestFixture fixture;
  SECTION("no entry function") {
    auto manifest = fixture.build("module {}");
    CHECK(mlir::failed(manifest));
    CHECK(fixture.errors.find("no entry function") != std::string::npos);
  }
  SECTION("a dynamic work size") {
    auto manifest = fixture.build(R"mlir(
module attributes {gpu.container_module} {
  func.func @main(%X: memref<4xf32>, %n: index)
      attributes {tilec.entry, tilec.input_names = ["X", "n"], tilec.output_names = []} {
    return
  }
})mlir");
    CHECK(mlir::failed(manifest));
    CHECK(fixture.errors.find("expected a memref") != std::string::npos);
  }
  SECTION("a typed program with another number of outputs") {
    ManifestContext info;
    info.outputDTypes = {DType::F32, DType::F32};
    auto manifest = fixture.build(kTwoKernels, info);
    CHECK(mlir::failed(manifest));
    CHECK(fixture.errors.find("2 outputs") != std::string::npos);
  }
}

namespace {

/// A chain of four launches through three temporaries: %t1 and %t3
/// (64 bytes each) are never alive together, %t2 (128 bytes) overlaps both.
const char *kChain = R"mlir(
module attributes {gpu.container_module} {
  func.func @main(%X: memref<2x8xf32>, %Y: memref<2x8xf32>)
      attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["Y"]} {
    %c1 = arith.constant 1 : index
    %t1 = memref.alloc() : memref<2x8xf32>
    %t2 = memref.alloc() : memref<4x8xf32>
    %t3 = memref.alloc() : memref<2x8xf32>
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%X : memref<2x8xf32>, %t1 : memref<2x8xf32>)
    gpu.launch_func @k::@widen blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%t1 : memref<2x8xf32>, %t2 : memref<4x8xf32>)
    gpu.launch_func @k::@narrow blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%t2 : memref<4x8xf32>, %t3 : memref<2x8xf32>)
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%t3 : memref<2x8xf32>, %Y : memref<2x8xf32>)
    memref.dealloc %t1 : memref<2x8xf32>
    memref.dealloc %t2 : memref<4x8xf32>
    memref.dealloc %t3 : memref<2x8xf32>
    return
  }
  gpu.module @k {
    gpu.func @copy(%a: memref<2x8xf32>, %b: memref<2x8xf32>) kernel
        attributes {tilec.fingerprint = "00000000000000c1"} {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0, %c0] : memref<2x8xf32>
      memref.store %v, %b[%c0, %c0] : memref<2x8xf32>
      gpu.return
    }
    gpu.func @widen(%a: memref<2x8xf32>, %b: memref<4x8xf32>) kernel
        attributes {tilec.fingerprint = "00000000000000c2"} {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0, %c0] : memref<2x8xf32>
      memref.store %v, %b[%c0, %c0] : memref<4x8xf32>
      gpu.return
    }
    gpu.func @narrow(%a: memref<4x8xf32>, %b: memref<2x8xf32>) kernel
        attributes {tilec.fingerprint = "00000000000000c3"} {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0, %c0] : memref<4x8xf32>
      memref.store %v, %b[%c0, %c0] : memref<2x8xf32>
      gpu.return
    }
  }
}
)mlir";

} // namespace

TEST_CASE("manifest temporaries: one buffer per slot of the plan",
          "[manifest-builder]") {
  ManifestFixture fixture;
  auto manifest = fixture.build(kChain);
  REQUIRE(mlir::succeeded(manifest));
  // X and Y, then the slots largest first: %t2's, then %t1's and %t3's.
  REQUIRE(manifest->buffers.size() == 4);
  CHECK(manifest->buffers[2].id == 2);
  CHECK(manifest->buffers[2].role == rt::BufferRole::Temporary);
  CHECK(manifest->buffers[2].bytes == 128);
  CHECK(manifest->buffers[3].id == 3);
  CHECK(manifest->buffers[3].role == rt::BufferRole::Temporary);
  CHECK(manifest->buffers[3].bytes == 64);
  CHECK(manifest->peakTemporaryBytes == 192);
  REQUIRE(manifest->kernels.size() == 4);
  CHECK(manifest->kernels[0].args[1].buffer == 3); // %t1
  CHECK(manifest->kernels[1].args[0].buffer == 3);
  CHECK(manifest->kernels[1].args[1].buffer == 2); // %t2
  CHECK(manifest->kernels[2].args[0].buffer == 2);
  CHECK(manifest->kernels[2].args[1].buffer == 3); // %t3 takes %t1's slot
  CHECK(manifest->kernels[3].args[0].buffer == 3);
  CHECK(manifest->kernels[3].args[1].buffer == 1);
  // A launch's bytes are those of its temporaries, not of their slots.
  CHECK(manifest->kernels[1].bytes == 64 + 128);
  // What the manifest says, a reader accepts.
  manifest->artefact = "chain.cl";
  auto parsed = rt::parseManifest(rt::printManifest(*manifest), "m.json");
  if (!parsed)
    FAIL(parsed.message());
}
