//===- JITTest.cpp - The CPU JIT on a hand-written loop module ------------===//
//
// Runs tilec::JITProgram on a loop-level module parsed from text, without the
// front end: results, reuse of a compiled program, and the errors for
// tensors that do not match the entry's memrefs. Also the C symbol rule of
// model.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/JIT.h"
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
