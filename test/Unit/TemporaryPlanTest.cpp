//===- TemporaryPlanTest.cpp - Lifetimes and slots of temporaries ---------===//
//
// planTemporaries on small loop-level functions: live intervals over the
// top-level ops, slots shared only by temporaries never alive together (of
// one type, for same-type sharing), sizes rounded to the alignment, and
// what is left unplanned.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/TemporaryPlan.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace tilec;

namespace {

/// Parses `text` and plans its function @f.
struct PlanFixture {
  explicit PlanFixture(const char *text,
                       TemporarySharing sharing = TemporarySharing::Bytes) {
    context.loadDialect<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                        mlir::func::FuncDialect,
                        mlir::memref::MemRefDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    REQUIRE(module);
    auto func = module->lookupSymbol<mlir::func::FuncOp>("f");
    REQUIRE(func);
    plan = planTemporaries(func, sharing);
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  TemporaryPlan plan;
};

} // namespace

TEST_CASE("temporary plan: intervals and slots of a chain",
          "[temporary-plan]") {
  // Top-level ops: 0-3 the allocations, 4 the constant, 5-8 the kernels.
  PlanFixture fixture(R"mlir(
func.func @f(%out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<100xi8>
  %c = memref.alloc() : memref<8xf32>
  %unused = memref.alloc() : memref<2xi1>
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %one, %a[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xf32>
    %w = arith.fptosi %v : f32 to i8
    affine.store %w, %b[%i] : memref<100xi8>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %b[%i] : memref<100xi8>
    %w = arith.sitofp %v : i8 to f32
    affine.store %w, %c[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %c[%i] : memref<8xf32>
    affine.store %v, %out[%i] : memref<8xf32>
  }
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<100xi8>
  memref.dealloc %c : memref<8xf32>
  memref.dealloc %unused : memref<2xi1>
  return
}
)mlir");
  const TemporaryPlan &plan = fixture.plan;
  REQUIRE(plan.temporaries.size() == 4);
  const PlannedTemporary &a = plan.temporaries[0], &b = plan.temporaries[1],
                         &c = plan.temporaries[2], &unused = plan.temporaries[3];
  CHECK(a.first == 5);
  CHECK(a.last == 6);
  CHECK(b.first == 6);
  CHECK(b.last == 7);
  CHECK(c.first == 7);
  CHECK(c.last == 8);
  CHECK(unused.first == 3);
  CHECK(unused.last == 3);
  // Rounded up to 64 bytes: 100 i8 take 128, 8 f32 and 2 i1 take 64.
  CHECK(b.bytes == 128);
  CHECK(a.bytes == 64);
  CHECK(unused.bytes == 64);
  // %b opens slot 0; %a opens slot 1 and %c, born after %a died, joins it;
  // the unused one is never alive with anything.
  CHECK(b.slot == 0);
  CHECK(a.slot == 1);
  CHECK(c.slot == 1);
  CHECK(unused.slot == 0);
  CHECK(plan.slotBytes == std::vector<uint64_t>{128, 64});
  CHECK(plan.peakBytes() == 192);
  CHECK(plan.unsharedBytes() == 64 + 128 + 64 + 64);
  CHECK(plan.slotOf(mlir::memref::AllocOp(b.alloc).getResult()) == 0u);
  CHECK(plan.slotOf(mlir::Value()) == std::nullopt);
}

TEST_CASE("temporary plan: what is no temporary", "[temporary-plan]") {
  PlanFixture fixture(R"mlir(
func.func @f(%n: index) -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  %v = memref.alloc() : memref<2x2xf32>
  %flat = memref.collapse_shape %v [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  %s = memref.alloc() : memref<4xf32, 1>
  memref.dealloc %flat : memref<4xf32>
  memref.dealloc %d : memref<?xf32>
  memref.dealloc %s : memref<4xf32, 1>
  return %r : memref<4xf32>
}
)mlir");
  CHECK(fixture.plan.temporaries.empty());
  CHECK(fixture.plan.slotBytes.empty());
  CHECK(fixture.plan.peakBytes() == 0);
}

TEST_CASE("temporary plan: same-type slots", "[temporary-plan]") {
  // Top-level ops: 0-5 the allocations, 6 the constant, 7-10 the kernels.
  PlanFixture fixture(R"mlir(
func.func @f(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  %i = memref.alloc() : memref<4xi32>
  %kept = memref.alloc() : memref<4xf32>
  %unused = memref.alloc() : memref<4xf32>
  %one = arith.constant 1.0 : f32
  affine.for %n = 0 to 4 {
    affine.store %one, %a[%n] : memref<4xf32>
    affine.store %one, %kept[%n] : memref<4xf32>
  }
  affine.for %n = 0 to 4 {
    %v = affine.load %a[%n] : memref<4xf32>
    affine.store %v, %b[%n] : memref<4xf32>
  }
  affine.for %n = 0 to 4 {
    %v = affine.load %b[%n] : memref<4xf32>
    affine.store %v, %c[%n] : memref<4xf32>
  }
  affine.for %n = 0 to 4 {
    %v = affine.load %c[%n] : memref<4xf32>
    affine.store %v, %out[%n] : memref<4xf32>
    %w = arith.fptosi %v : f32 to i32
    affine.store %w, %i[%n] : memref<4xi32>
  }
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  memref.dealloc %i : memref<4xi32>
  memref.dealloc %unused : memref<4xf32>
  return
}
)mlir",
                      TemporarySharing::SameType);
  const TemporaryPlan &plan = fixture.plan;
  // %kept has no dealloc to drop and %unused no kernel: neither is planned.
  REQUIRE(plan.temporaries.size() == 4);
  const PlannedTemporary &a = plan.temporaries[0], &b = plan.temporaries[1],
                         &c = plan.temporaries[2], &i = plan.temporaries[3];
  CHECK(a.dealloc);
  CHECK(a.first == 7);
  CHECK(a.last == 8);
  // Taken in order of first use: %a opens slot 0, %b slot 1, and %c, born
  // after %a died, joins %a; %i, of another type, opens slot 2 although
  // %b's buffer, as large, is free by then.
  CHECK(a.slot == 0);
  CHECK(b.slot == 1);
  CHECK(c.slot == 0);
  CHECK(i.slot == 2);
  CHECK(plan.slotBytes == std::vector<uint64_t>{64, 64, 64});
}

TEST_CASE("temporary plan: storage bytes", "[temporary-plan]") {
  mlir::MLIRContext context;
  mlir::Builder builder(&context);
  CHECK(storageBytes(mlir::MemRefType::get({3, 5}, builder.getF16Type())) ==
        30);
  CHECK(storageBytes(mlir::MemRefType::get({7}, builder.getI1Type())) == 7);
  CHECK(storageBytes(mlir::MemRefType::get({2}, builder.getIndexType())) ==
        16);
  CHECK(storageBytes(mlir::MemRefType::get({}, builder.getF64Type())) == 8);
}
