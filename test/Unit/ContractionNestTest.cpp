//===- ContractionNestTest.cpp - Kernel nests read as contractions --------===//
//
// matchContractionNest on small loop-level kernels: the role of every band
// loop from the index maps (free, batch, outer), the operands in the order
// the combination takes them, their contiguity and alignment along their
// free loop, and the nests that are not contractions of two operands.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/ContractionNest.h"
#include "tilec/Dialect/Kernel/Analysis/OuterProductTiling.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace tilec;

namespace {

/// Parses `text` and matches the first kernel nest of its function @f.
struct NestFixture {
  explicit NestFixture(const char *text) {
    context.loadDialect<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                        mlir::func::FuncDialect,
                        mlir::memref::MemRefDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    REQUIRE(module);
    auto func = module->lookupSymbol<mlir::func::FuncOp>("f");
    REQUIRE(func);
    kernel = *func.getOps<mlir::affine::AffineForOp>().begin();
    nest = matchContractionNest(kernel, getParallelBand(kernel));
  }

  /// The memref argument that operand `i` loads from, by position.
  unsigned argumentOf(unsigned i) {
    return mlir::cast<mlir::BlockArgument>(nest->operands[i].load.getMemRef())
        .getArgNumber();
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::affine::AffineForOp kernel;
  std::optional<ContractionNest> nest;
};

} // namespace

TEST_CASE("contraction nest: a matmul's rows, columns and operands",
          "[contraction-nest]") {
  NestFixture fixture(R"mlir(
func.func @f(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %k = 0 to 32 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %k] : memref<64x32xf32>
        %y = affine.load %b[%k, %j] : memref<32x64xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %c[%i, %j] : memref<64x64xf32>
    }
  }
  return
}
)mlir");
  REQUIRE(fixture.nest);
  const ContractionNest &nest = *fixture.nest;
  CHECK(nest.roles == llvm::SmallVector<BandRole>{BandRole::Free0,
                                                  BandRole::Free1});
  CHECK(nest.loopOf(BandRole::Free0) == 0);
  CHECK(nest.loopOf(BandRole::Free1) == 1);
  CHECK(nest.loopOf(BandRole::Batch) == -1);
  CHECK(fixture.argumentOf(0) == 0);
  CHECK(fixture.argumentOf(1) == 1);
  CHECK(mlir::isa<mlir::arith::MulFOp>(nest.combine));
  CHECK(mlir::isa<mlir::arith::AddFOp>(nest.aggregate));
  // A walks its rows 32 elements apart; B's row is contiguous, every
  // offset of a multiple of 16 columns a multiple of 16 elements.
  CHECK_FALSE(nest.operands[0].contiguousAlongFree);
  CHECK(nest.operands[1].contiguousAlongFree);
  CHECK(nest.operands[1].alignedElements == 16);
  CHECK(nest.prologue.size() == 1); // the constant
  CHECK(nest.epilogue.size() == 1); // the store
  // The sum starts at 0.0, its identity: it may be split in slices.
  ContractionShape shape = contractionShapeOf(nest);
  CHECK(shape.freeLoop[0] == 0);
  CHECK(shape.freeLoop[1] == 1);
  CHECK(shape.reduction == 32);
  CHECK(shape.startsAtIdentity);
}

TEST_CASE("contraction nest: where the reduction starts", "[contraction-nest]") {
  struct Case {
    const char *init, *aggregate;
    bool identity;
  };
  const Case cases[] = {
      {"-0.0", "arith.addf", true},       {"1.0", "arith.addf", false},
      {"0xFF800000", "arith.maxnumf", true}, // -inf
      {"0xFF800000", "arith.maximumf", true},
      {"0.0", "arith.maximumf", false},   {"0x7F800000", "arith.minimumf", true},
      {"1.0", "arith.mulf", true},        {"2.0", "arith.mulf", false},
  };
  for (const Case &c : cases) {
    INFO(c.init << " " << c.aggregate);
    std::string text =
        std::string("func.func @f(%a: memref<4x8xf32>, %b: memref<8x4xf32>, "
                    "%c: memref<4x4xf32>) {\n"
                    "  affine.for %i = 0 to 4 {\n"
                    "    affine.for %j = 0 to 4 {\n"
                    "      %z = arith.constant ") +
        c.init +
        " : f32\n"
        "      %s = affine.for %k = 0 to 8 iter_args(%acc = %z) -> (f32) {\n"
        "        %x = affine.load %a[%i, %k] : memref<4x8xf32>\n"
        "        %y = affine.load %b[%k, %j] : memref<8x4xf32>\n"
        "        %p = arith.mulf %x, %y : f32\n"
        "        %n = " +
        c.aggregate +
        " %acc, %p : f32\n"
        "        affine.yield %n : f32\n"
        "      }\n"
        "      affine.store %s, %c[%i, %j] : memref<4x4xf32>\n"
        "    }\n"
        "  }\n"
        "  return\n"
        "}\n";
    NestFixture fixture(text.c_str());
    REQUIRE(fixture.nest);
    CHECK(contractionShapeOf(*fixture.nest).startsAtIdentity == c.identity);
  }
}

TEST_CASE("contraction nest: batch and output-only loops",
          "[contraction-nest]") {
  // C[n, i, j, r] = sum_k A[n, i, k] * B[n, k, j], the same for every r,
  // with a cast of A and an epilogue (a negation): the slice and the epilogue are kept.
  NestFixture fixture(R"mlir(
func.func @f(%a: memref<2x8x6xf16>, %b: memref<2x6x10xf32>, %c: memref<2x8x10x3xf32>) {
  affine.for %n = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 10 {
        affine.for %r = 0 to 3 {
          %zero = arith.constant 0.0 : f32
          %s = affine.for %k = 0 to 6 iter_args(%acc = %zero) -> (f32) {
            %x = affine.load %a[%n, %i, %k] : memref<2x8x6xf16>
            %xf = arith.extf %x : f16 to f32
            %y = affine.load %b[%n, %k, %j] : memref<2x6x10xf32>
            %p = arith.mulf %xf, %y : f32
            %q = arith.addf %acc, %p : f32
            affine.yield %q : f32
          }
          %t = arith.negf %s : f32
          affine.store %t, %c[%n, %i, %j, %r] : memref<2x8x10x3xf32>
        }
      }
    }
  }
  return
}
)mlir");
  REQUIRE(fixture.nest);
  const ContractionNest &nest = *fixture.nest;
  CHECK(nest.roles ==
        llvm::SmallVector<BandRole>{BandRole::Batch, BandRole::Free0,
                                    BandRole::Free1, BandRole::Outer});
  REQUIRE(nest.operands[0].slice.size() == 1);
  CHECK(mlir::isa<mlir::arith::ExtFOp>(nest.operands[0].slice.front()));
  CHECK(nest.operands[0].value.getType().isF32());
  // 10 columns: offsets of even columns are even, no more.
  CHECK(nest.operands[1].contiguousAlongFree);
  CHECK(nest.operands[1].alignedElements == 2);
  CHECK(nest.epilogue.size() == 2);
}

TEST_CASE("contraction nest: what is not a contraction of two operands",
          "[contraction-nest]") {
  SECTION("one operand") {
    NestFixture fixture(R"mlir(
func.func @f(%a: memref<8x4xf32>, %c: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %zero = arith.constant 0.0 : f32
    %s = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<8x4xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %s, %c[%i] : memref<8xf32>
  }
  return
}
)mlir");
    CHECK_FALSE(fixture.nest);
  }
  SECTION("no reduction") {
    NestFixture fixture(R"mlir(
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xf32>
    %y = affine.load %b[%i] : memref<8xf32>
    %p = arith.mulf %x, %y : f32
    affine.store %p, %c[%i] : memref<8xf32>
  }
  return
}
)mlir");
    CHECK_FALSE(fixture.nest);
  }
  SECTION("an operand that does not move with the reduction") {
    NestFixture fixture(R"mlir(
func.func @f(%a: memref<8x4xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %zero = arith.constant 0.0 : f32
    %s = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<8x4xf32>
      %y = affine.load %b[%i] : memref<8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      affine.yield %n : f32
    }
    affine.store %s, %c[%i] : memref<8xf32>
  }
  return
}
)mlir");
    CHECK_FALSE(fixture.nest);
  }
}
