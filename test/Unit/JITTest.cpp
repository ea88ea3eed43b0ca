//===- JITTest.cpp - The CPU JIT on a hand-written loop module ------------===//
//
// Runs tilec::JITProgram on a loop-level module parsed from text, without the
// front end: results (the same at every -O level, with and without OpenMP),
// reuse of a compiled program, and the errors for tensors that do not match
// the entry's memrefs; then a module as an artefact of the host's
// rt::Runtime (JITRuntime.h). Also the C symbol rule of model.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Runtime/HostCpuRuntime.h"
#include "tilec/Runtime/JIT.h"
#include "tilec/Runtime/JITRuntime.h"
#include "tilec/Target/LLVM/CHeader.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace tilec;

namespace {

/// Y[i] = X[i] * X[i] + 1 over f32[8], with an scf.parallel outer loop.
const char *squareModule = R"mlir(
func.func @square(%X: memref<8xf32>, %Y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %x = memref.load %X[%i] : memref<8xf32>
    %sq = arith.mulf %x, %x : f32
    %y = arith.addf %sq, %one : f32
    memref.store %y, %Y[%i] : memref<8xf32>
  }
  return
}
)mlir";

std::unique_ptr<JITProgram> compileSquare(mlir::MLIRContext &context) {
  context.loadDialect<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                      mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(squareModule, &context);
  REQUIRE(module);
  auto program = JITProgram::compile(*module, "", JITOptions());
  REQUIRE(static_cast<bool>(program));
  return std::move(*program);
}

} // namespace

TEST_CASE("the JIT runs a loop module and can run it again", "[jit]") {
  mlir::MLIRContext context;
  std::unique_ptr<JITProgram> program = compileSquare(context);
  TensorType type{DType::F32, {8}};
  for (int round = 0; round < 2; ++round) {
    Tensor x(type);
    for (int i = 0; i < 8; ++i)
      x.setDouble(i, i - 3 + round);
    auto outputs = program->run({x}, {type});
    REQUIRE(static_cast<bool>(outputs));
    REQUIRE(outputs->size() == 1);
    for (int i = 0; i < 8; ++i) {
      double v = i - 3 + round;
      CHECK((*outputs)[0].getDouble(i) == v * v + 1);
    }
  }
}

TEST_CASE("the JIT rejects tensors that do not fit the entry", "[jit]") {
  mlir::MLIRContext context;
  std::unique_ptr<JITProgram> program = compileSquare(context);
  Tensor small(TensorType{DType::F32, {4}});
  auto wrongShape = program->run({small}, {TensorType{DType::F32, {8}}});
  REQUIRE(!wrongShape);
  CHECK(llvm::toString(wrongShape.takeError()).find("does not match") !=
        std::string::npos);
  auto wrongCount = program->run({}, {TensorType{DType::F32, {8}}});
  REQUIRE(!wrongCount);
  llvm::consumeError(wrongCount.takeError());
  Tensor doubles(TensorType{DType::F64, {8}});
  auto wrongType = program->run({doubles}, {TensorType{DType::F32, {8}}});
  REQUIRE(!wrongType);
  llvm::consumeError(wrongType.takeError());
}

namespace {

/// Two kernel nests: T = X + 1 over f32[64], then Y = T * 2; a top-level
/// loop without `tilec.kernel` is not timed.
const char *twoKernelModule = R"mlir(
func.func @two(%X: memref<64xf32>, %Y: memref<64xf32>) {
  %T = memref.alloc() : memref<64xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 64 {
    %x = affine.load %X[%i] : memref<64xf32>
    %t = arith.addf %x, %one : f32
    affine.store %t, %T[%i] : memref<64xf32>
  } {tilec.kernel = "add_one", tilec.fingerprint = "0000000000000001"}
  affine.for %i = 0 to 64 {
    %t = affine.load %T[%i] : memref<64xf32>
    %y = arith.mulf %t, %two : f32
    affine.store %y, %Y[%i] : memref<64xf32>
  } {tilec.kernel = "times_two", tilec.fingerprint = "0000000000000002"}
  affine.for %i = 0 to 1 {
  }
  memref.dealloc %T : memref<64xf32>
  return
}
)mlir";

mlir::OwningOpRef<mlir::ModuleOp> parseTwoKernels(mlir::MLIRContext &context) {
  context.loadDialect<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                      mlir::func::FuncDialect, mlir::memref::MemRefDialect>();
  return mlir::parseSourceString<mlir::ModuleOp>(twoKernelModule, &context);
}

} // namespace

TEST_CASE("the JIT times each kernel nest when asked", "[jit]") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = parseTwoKernels(context);
  REQUIRE(module);
  JITOptions options;
  options.timeKernels = true;
  auto program = JITProgram::compile(*module, "", options);
  REQUIRE(static_cast<bool>(program));
  CHECK((*program)->timedKernelCount() == 2);

  TensorType type{DType::F32, {64}};
  Tensor x(type);
  for (int i = 0; i < 64; ++i)
    x.setDouble(i, i);
  for (int round = 0; round < 2; ++round) {
    std::vector<double> seconds{42.0};
    auto outputs = (*program)->run({x}, {type}, &seconds);
    REQUIRE(static_cast<bool>(outputs));
    // Each run starts a fresh table: no time left over from the last one.
    REQUIRE(seconds.size() == 2);
    for (double kernel : seconds) {
      CHECK(kernel >= 0.0);
      CHECK(kernel < 1.0);
    }
    for (int i = 0; i < 64; ++i)
      CHECK((*outputs)[0].getDouble(i) == (i + 1.0) * 2.0);
  }
}

TEST_CASE("the JIT times nothing unless asked", "[jit]") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = parseTwoKernels(context);
  REQUIRE(module);
  auto program = JITProgram::compile(*module, "", JITOptions());
  REQUIRE(static_cast<bool>(program));
  CHECK((*program)->timedKernelCount() == 0);
  std::vector<double> seconds{1.0};
  TensorType type{DType::F32, {64}};
  auto outputs = (*program)->run({Tensor(type)}, {type}, &seconds);
  REQUIRE(static_cast<bool>(outputs));
  CHECK(seconds.empty());
}

TEST_CASE("the C symbol comes from the output file's stem", "[cheader]") {
  CHECK(cSymbolForOutput("out/model.o") == "model");
  CHECK(cSymbolForOutput("my-net.v2.o") == "my_net_v2");
  CHECK(cSymbolForOutput("main.o") == "tile_main");
  CHECK(cSymbolForOutput("3d.o") == "tile_3d");
  CHECK(cSymbolForOutput("-") == "tile_model");
  CHECK(cElementType(DType::BF16) == "uint16_t");
  CHECK(cElementType(DType::Bool) == "uint8_t");
}

namespace {

/// Loop-level C = A x B (f32[2,3] x f32[3,2]) as convert-tile-to-loops
/// writes it: affine loops, a reduction in iter_args, an outer parallel
/// loop, a kernel the default CPU schedule tiles.
const char *matmulModule = R"mlir(
func.func @main(%A: memref<2x3xf32>, %B: memref<3x2xf32>, %C: memref<2x2xf32>)
    attributes {tilec.entry} {
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 2 {
      %zero = arith.constant 0.0 : f32
      %sum = affine.for %k = 0 to 3 iter_args(%acc = %zero) -> f32 {
        %a = affine.load %A[%i, %k] : memref<2x3xf32>
        %b = affine.load %B[%k, %j] : memref<3x2xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%i, %j] : memref<2x2xf32>
    }
  } {tilec.kernel = "C", tilec.fingerprint = "0"}
  return
}
)mlir";

/// Q = X / (X - 3) with the division by zero guarded by selects, as the
/// loop level guards it, and W = 2 X, in i8.
const char *int8Module = R"mlir(
func.func @ints(%X: memref<11xi8>, %Q: memref<11xi8>, %W: memref<11xi8>)
    attributes {tilec.entry} {
  affine.for %i = 0 to 11 {
    %x = affine.load %X[%i] : memref<11xi8>
    %three = arith.constant 3 : i8
    %zero = arith.constant 0 : i8
    %d = arith.subi %x, %three : i8
    %isZero = arith.cmpi eq, %d, %zero : i8
    %one = arith.constant 1 : i8
    %safe = arith.select %isZero, %one, %d : i8
    %q = arith.divsi %x, %safe : i8
    %r = arith.select %isZero, %zero, %q : i8
    affine.store %r, %Q[%i] : memref<11xi8>
    %w = arith.addi %x, %x : i8
    affine.store %w, %W[%i] : memref<11xi8>
  }
  return
}
)mlir";

/// Parses `text`, compiles it with `options` and runs it on `inputs`.
std::vector<Tensor> runLoopModule(const char *text, const JITOptions &options,
                                  const std::vector<Tensor> &inputs,
                                  const std::vector<TensorType> &outputs) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                      mlir::func::FuncDialect, mlir::memref::MemRefDialect,
                      mlir::scf::SCFDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  REQUIRE(module);
  auto program = JITProgram::compile(*module, "", options);
  if (!program)
    FAIL(llvm::toString(program.takeError()));
  auto results = (*program)->run(inputs, outputs);
  if (!results)
    FAIL(llvm::toString(results.takeError()));
  return std::move(*results);
}

Tensor tensorOf(TensorType type, const std::vector<double> &values) {
  Tensor tensor(type);
  for (size_t i = 0; i < values.size(); ++i)
    tensor.setDouble(i, values[i]);
  return tensor;
}

} // namespace

TEST_CASE("the JIT computes the same at every -O level, with and without "
          "OpenMP",
          "[jit]") {
  Tensor a = tensorOf({DType::F32, {2, 3}}, {-5, 2, -2, 5, 1, -3});
  Tensor b = tensorOf({DType::F32, {3, 2}}, {-2, 5, 1, -3, 4, 0});
  for (unsigned optLevel : {0u, 2u, 3u}) {
    for (bool parallel : {true, false}) {
      INFO("-O" << optLevel << (parallel ? "" : " without OpenMP"));
      JITOptions options;
      options.optLevel = optLevel;
      options.parallel = parallel;
      std::vector<Tensor> c =
          runLoopModule(matmulModule, options, {a, b}, {{DType::F32, {2, 2}}});
      REQUIRE(c.size() == 1);
      std::vector<double> expected{4, -31, -21, 22};
      for (size_t i = 0; i < expected.size(); ++i)
        CHECK(c[0].getDouble(i) == expected[i]);
    }
  }
}

TEST_CASE("the JIT keeps the loop level's integer semantics", "[jit]") {
  TensorType type{DType::I8, {11}};
  std::vector<double> x{-5, 2, -2, 5, 1, -3, 4, 0, -4, 3, -1};
  std::vector<Tensor> outputs =
      runLoopModule(int8Module, JITOptions(), {tensorOf(type, x)}, {type, type});
  REQUIRE(outputs.size() == 2);
  // X = 3 divides by zero: the guard gives 0. Both outputs are i8.
  std::vector<int64_t> quotient{0, -2, 0, 2, 0, 0, 4, 0, 0, 0, 0};
  std::vector<int64_t> twice{-10, 4, -4, 10, 2, -6, 8, 0, -8, 6, -2};
  for (size_t i = 0; i < x.size(); ++i) {
    CHECK(outputs[0].getInt(i) == quotient[i]);
    CHECK(outputs[1].getInt(i) == twice[i]);
  }
}

namespace {

/// One buffer of a manifest: its name, role and f32 shape.
struct ManifestEntry {
  const char *name;
  rt::BufferRole role;
  std::vector<int64_t> shape;
};

/// The manifest the JIT runtime reads for a module with `buffers` (inputs
/// and outputs, f32) and kernel nests `kernels`.
rt::Manifest jitManifest(const std::vector<ManifestEntry> &buffers,
                         const std::vector<const char *> &kernels) {
  rt::Manifest manifest;
  manifest.target = "llvm-x86";
  manifest.artefact = "<memory>";
  for (const ManifestEntry &entry : buffers) {
    rt::ManifestBuffer buffer;
    buffer.id = static_cast<int>(manifest.buffers.size());
    buffer.role = entry.role;
    buffer.name = entry.name;
    buffer.dtype = DType::F32;
    buffer.shape = entry.shape;
    buffer.bytes = uint64_t(TensorType{DType::F32, entry.shape}.numElements()) * 4;
    manifest.buffers.push_back(buffer);
    (entry.role == rt::BufferRole::Input ? manifest.inputs : manifest.outputs)
        .push_back({entry.name, buffer.id});
  }
  for (const char *name : kernels) {
    rt::ManifestKernel kernel;
    kernel.name = name;
    manifest.kernels.push_back(kernel);
  }
  return manifest;
}

/// The manifest of twoKernelModule: X in, Y out, f32[64] each, and its
/// two kernel nests.
rt::Manifest twoKernelManifest() {
  return jitManifest({{"X", rt::BufferRole::Input, {64}},
                      {"Y", rt::BufferRole::Output, {64}}},
                     {"add_one", "times_two"});
}

} // namespace

TEST_CASE("the host JIT is an rt::Runtime that loads loop-level artefacts",
          "[jit][runtime]") {
  std::string artefact;
  {
    // The module's context ends before loading: the artefact is all the
    // runtime gets, as with OpenCL C or SPIR-V.
    mlir::MLIRContext context;
    mlir::OwningOpRef<mlir::ModuleOp> module = parseTwoKernels(context);
    REQUIRE(module);
    Result<std::string> written = rt::writeJITArtefact(*module);
    REQUIRE(written.ok());
    artefact = *written;
  }
  std::unique_ptr<rt::Runtime> runtime = rt::createJITRuntime();
  CHECK(runtime->name() == "cpu");
  std::vector<rt::DeviceInfo> devices = runtime->devices();
  REQUIRE(devices.size() == 1);
  CHECK(devices[0].runtime == "cpu");

  auto loaded = runtime->load(devices[0].id, twoKernelManifest(), artefact);
  REQUIRE(loaded.ok());
  Tensor x(TensorType{DType::F32, {64}});
  for (int i = 0; i < 64; ++i)
    x.setDouble(i, i);
  for (int round = 0; round < 2; ++round) {
    std::map<std::string, Tensor> outputs;
    std::vector<rt::KernelTiming> timings;
    Status ran = (*loaded)->run({{"X", x}}, outputs, &timings);
    REQUIRE(ran.ok());
    REQUIRE(outputs.count("Y") == 1);
    for (int i = 0; i < 64; ++i)
      CHECK(outputs["Y"].getDouble(i) == (i + 1.0) * 2.0);
    REQUIRE(timings.size() == 2);
    CHECK(timings[0].kernel == "add_one");
    CHECK(timings[1].kernel == "times_two");
    CHECK(timings[0].seconds >= 0.0);
  }

  // Inputs are checked against the manifest, as on every runtime.
  std::map<std::string, Tensor> outputs;
  Status wrong =
      (*loaded)->run({{"X", Tensor(TensorType{DType::F32, {8}})}}, outputs);
  REQUIRE(!wrong.ok());
  CHECK(wrong.message().find("input 'X' must be f32[64]") != std::string::npos);
}

TEST_CASE("the host JIT refuses what does not match its artefact",
          "[jit][runtime]") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = parseTwoKernels(context);
  REQUIRE(module);
  Result<std::string> artefact = rt::writeJITArtefact(*module);
  REQUIRE(artefact.ok());
  std::unique_ptr<rt::Runtime> runtime = rt::createJITRuntime();
  std::string host = runtime->devices().at(0).id;

  rt::Manifest oneKernel = twoKernelManifest();
  oneKernel.kernels.pop_back();
  auto miscounted = runtime->load(host, oneKernel, *artefact);
  REQUIRE(!miscounted.ok());
  CHECK(miscounted.message().find("1 kernels, 2 timed") != std::string::npos);

  auto garbage = runtime->load(host, twoKernelManifest(), "not mlir");
  REQUIRE(!garbage.ok());
  CHECK(garbage.message().find("not a loop-level module") != std::string::npos);

  auto elsewhere =
      runtime->load("cpu:host:other:0", twoKernelManifest(), *artefact);
  REQUIRE(!elsewhere.ok());

  // Without the JIT (the runtime-only build), the host lists but loads
  // nothing.
  auto listed =
      rt::createHostCpuRuntime()->load(host, twoKernelManifest(), *artefact);
  REQUIRE(!listed.ok());
  CHECK(listed.message().find("--target=llvm-x86") != std::string::npos);
}

namespace {

/// C = A x B, f32[6,8] x f32[8,16], with a schedule whose lane tiles pack
/// B's panels: B is an input, so tilec-cpu-keep-packed-inputs keeps them.
/// Two full tiles of 3 rows: no remainder row, which reads B itself.
const char *packedMatmulModule = R"mlir(
func.func @main(%A: memref<6x8xf32>, %B: memref<8x16xf32>, %C: memref<6x16xf32>)
    attributes {tilec.entry, tilec.input_names = ["A", "B"],
                tilec.output_names = ["C"]} {
  affine.for %m = 0 to 6 {
    affine.for %n = 0 to 16 {
      %zero = arith.constant 0.0 : f32
      %sum = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> f32 {
        %a = affine.load %A[%m, %k] : memref<6x8xf32>
        %b = affine.load %B[%k, %n] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<6x16xf32>
    }
  } {tilec.kernel = "C", tilec.fingerprint = "0",
     tilec.schedule = #tilec.schedule<block = [0, 8], thread = [3, 8],
                                      vector = 4, order = [1, 0]>}
  return
}
)mlir";

const TensorType packedA{DType::F32, {6, 8}}, packedB{DType::F32, {8, 16}},
    packedC{DType::F32, {6, 16}};

/// Small integers that `shift` varies (the sums stay exact), written into
/// `tensor` where its data is.
void fillPacked(Tensor &tensor, int shift) {
  for (int64_t i = 0; i < tensor.type.numElements(); ++i)
    tensor.setDouble(i, double((i * 7 + shift) % 11) - 5);
}

Tensor packedInput(const TensorType &type, int shift) {
  Tensor tensor(type);
  fillPacked(tensor, shift);
  return tensor;
}

/// Whether `c` is a x b.
bool isProduct(const Tensor &c, const Tensor &a, const Tensor &b) {
  for (int m = 0; m < 6; ++m)
    for (int n = 0; n < 16; ++n) {
      double sum = 0;
      for (int k = 0; k < 8; ++k)
        sum += a.getDouble(m * 8 + k) * b.getDouble(k * 16 + n);
      if (c.getDouble(m * 16 + n) != sum)
        return false;
    }
  return true;
}

mlir::OwningOpRef<mlir::ModuleOp> parsePackedMatmul(mlir::MLIRContext &context) {
  context.loadDialect<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                      mlir::func::FuncDialect, mlir::memref::MemRefDialect,
                      tilec::kernel::KernelDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(packedMatmulModule, &context);
  REQUIRE(module);
  return module;
}

std::string packedMatmulArtefact() {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = parsePackedMatmul(context);
  Result<std::string> written = rt::writeJITArtefact(*module);
  REQUIRE(written.ok());
  return *written;
}

rt::Manifest packedMatmulManifest() {
  return jitManifest({{"A", rt::BufferRole::Input, packedA.shape},
                      {"B", rt::BufferRole::Input, packedB.shape},
                      {"C", rt::BufferRole::Output, packedC.shape}},
                     {"C"});
}

} // namespace

TEST_CASE("the JIT packs an input again unless it is unchanged",
          "[jit][packing]") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = parsePackedMatmul(context);
  auto compiled = JITProgram::compile(*module, "", JITOptions());
  if (!compiled)
    FAIL(llvm::toString(compiled.takeError()));
  JITProgram &program = **compiled;
  Tensor a = packedInput(packedA, 0), b = packedInput(packedB, 3);
  Tensor first = b;
  std::vector<Tensor> c{Tensor(packedC)};
  REQUIRE(!program.runInto({&a, &b}, c));
  CHECK(isProduct(c[0], a, b));
  // B's data changes where it is. Said unchanged, the kernel multiplies by
  // the panels it kept (the old B): the packing was skipped.
  fillPacked(b, 5);
  REQUIRE(!program.runInto({&a, &b}, c, nullptr, {true, true}));
  CHECK(isProduct(c[0], a, first));
  CHECK(!isProduct(c[0], a, b));
  // Said changed (or with no word), it is packed again.
  REQUIRE(!program.runInto({&a, &b}, c, nullptr, {true, false}));
  CHECK(isProduct(c[0], a, b));
}

TEST_CASE("the host runtime reuses packed inputs only as promised",
          "[jit][runtime][packing]") {
  std::unique_ptr<rt::Runtime> runtime = rt::createJITRuntime();
  std::vector<rt::DeviceInfo> devices = runtime->devices();
  REQUIRE(devices.size() == 1);
  auto loaded = runtime->load(devices[0].id, packedMatmulManifest(),
                              packedMatmulArtefact());
  REQUIRE(loaded.ok());
  rt::Program &program = **loaded;
  std::map<std::string, Tensor> inputs{{"A", packedInput(packedA, 0)},
                                       {"B", packedInput(packedB, 3)}};
  Tensor first = inputs["B"];
  std::map<std::string, Tensor> outputs;
  REQUIRE(program.run(inputs, outputs).ok());
  CHECK(isProduct(outputs["C"], inputs["A"], first));

  // The promise broken on purpose (B changed in place): the kept panels
  // show that the promise was taken.
  fillPacked(inputs["B"], 5);
  program.reuseInputs();
  REQUIRE(program.run(inputs, outputs).ok());
  CHECK(isProduct(outputs["C"], inputs["A"], first));

  // No promise: packed again; and a promise holds for one run only.
  REQUIRE(program.run(inputs, outputs).ok());
  CHECK(isProduct(outputs["C"], inputs["A"], inputs["B"]));
  Tensor second = inputs["B"];
  fillPacked(inputs["B"], 7);
  program.reuseInputs();
  REQUIRE(program.run(inputs, outputs).ok());
  CHECK(isProduct(outputs["C"], inputs["A"], second));
  REQUIRE(program.run(inputs, outputs).ok());
  CHECK(isProduct(outputs["C"], inputs["A"], inputs["B"]));

  // Promised, but the tensors are elsewhere (another map): packed again.
  std::map<std::string, Tensor> moved{{"A", inputs["A"]},
                                      {"B", packedInput(packedB, 9)}};
  program.reuseInputs();
  REQUIRE(program.run(moved, outputs).ok());
  CHECK(isProduct(outputs["C"], moved["A"], moved["B"]));
}
