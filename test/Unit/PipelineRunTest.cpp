//===- PipelineRunTest.cpp - How a compile runs its pipelines -------------===//
//
// Target/PipelineRun.h: a pipeline whose result verifies succeeds; one that
// leaves invalid IR (a block without its terminator) fails with the
// verifier's diagnostic, although no pass verified after itself.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PipelineRun.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

/// Erases every func.return: the functions' blocks lose their terminators.
struct DropReturnsPass
    : mlir::PassWrapper<DropReturnsPass, mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DropReturnsPass)
  void runOnOperation() override {
    getOperation().walk([](mlir::func::ReturnOp op) { op.erase(); });
  }
};

/// Changes nothing.
struct KeepPass
    : mlir::PassWrapper<KeepPass, mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KeepPass)
  void runOnOperation() override {}
};

constexpr const char *kModule = R"mlir(
func.func @f(%x: f32) -> f32 {
  return %x : f32
}
)mlir";

} // namespace

TEST_CASE("a compile pipeline verifies its result once", "[pipeline-run]") {
  mlir::MLIRContext context;
  context.loadDialect<mlir::func::FuncDialect>();
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    diagnostics += d.str();
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kModule, &context);
  REQUIRE(module);

  SECTION("valid IR passes") {
    mlir::PassManager pm(&context);
    pm.addPass(std::make_unique<KeepPass>());
    CHECK(mlir::succeeded(tilec::runCompilePipeline(pm, *module)));
    CHECK(diagnostics.empty());
  }
  SECTION("invalid IR fails, with the verifier's diagnostic") {
    mlir::PassManager pm(&context);
    pm.addPass(std::make_unique<DropReturnsPass>());
    pm.addPass(std::make_unique<KeepPass>());
    CHECK(mlir::failed(tilec::runCompilePipeline(pm, *module)));
    CHECK(diagnostics.find("terminator") != std::string::npos);
  }
}
