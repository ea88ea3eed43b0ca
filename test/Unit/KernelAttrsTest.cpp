//===- KernelAttrsTest.cpp - #tilec.schedule and #tilec.gpu_target --------===//
//
// The schedule attribute against the plain data it stands for: every rule of
// validateSchedule is an error at the attribute's location, the text form
// reads back to the same attribute, and the one conversion to and from
// schedule::KernelSchedule loses nothing. The GPU target attribute the same
// against schedule::DeviceProfile, and the lookup passes use.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tilec;
using tilec::kernel::ScheduleAttr;
using tilec::schedule::KernelSchedule;

namespace {

/// A context with the dialect loaded that records the first error.
struct Context {
  Context() {
    context.loadDialect<kernel::KernelDialect>();
    handler = context.getDiagEngine().registerHandler(
        [this](mlir::Diagnostic &diagnostic) {
          if (message.empty()) {
            message = diagnostic.str();
            location = diagnostic.getLocation();
          }
          return mlir::success();
        });
  }
  ~Context() { context.getDiagEngine().eraseHandler(handler); }

  /// `schedule` through the verifier, at a location of its own.
  ScheduleAttr build(const KernelSchedule &schedule) {
    return ScheduleAttr::getChecked([&] { return mlir::emitError(here); },
                                    &context, schedule);
  }

  mlir::MLIRContext context;
  mlir::DiagnosticEngine::HandlerID handler;
  mlir::Location here = mlir::FileLineColLoc::get(&context, "sched.mlir", 3, 7);
  std::string message;
  std::optional<mlir::Location> location;
};

KernelSchedule sample() {
  KernelSchedule s;
  s.block = {64, 64, 0};
  s.thread = {4, 8};
  s.vector = 4;
  s.unroll = 2;
  s.stage = {true, false};
  s.order = {1, 0};
  return s;
}

} // namespace

TEST_CASE("schedule attribute: each rule is an error at its location",
          "[kernel-attrs]") {
  struct Case {
    const char *what;
    void (*breakIt)(KernelSchedule &);
    const char *message;
  };
  const Case cases[] = {
      {"negative block", [](KernelSchedule &s) { s.block = {-1}; },
       "'block' holds -1, below 0"},
      {"zero thread", [](KernelSchedule &s) { s.thread = {4, 0}; },
       "'thread' holds 0, below 1"},
      {"zero vector", [](KernelSchedule &s) { s.vector = 0; },
       "'vector' must be an integer >= 1"},
      {"zero unroll", [](KernelSchedule &s) { s.unroll = 0; },
       "'unroll' must be an integer >= 1"},
      {"order no permutation", [](KernelSchedule &s) { s.order = {0, 0}; },
       "'order' must be a permutation of 0..N-1"},
      {"negative order", [](KernelSchedule &s) { s.order = {-1, 0}; },
       "'order' holds -1, below 0"},
      {"zero warp", [](KernelSchedule &s) { s.warp = {0, 64}; },
       "'warp' holds 0, below 1"},
      {"three buffers", [](KernelSchedule &s) { s.buffers = 3; },
       "'buffers' must be 1 or 2"},
      {"zero split", [](KernelSchedule &s) { s.split = 0; },
       "'split' must be an integer >= 1"},
      {"negative row", [](KernelSchedule &s) { s.row = -1; },
       "'row' must be an integer >= 0"},
      {"mma three", [](KernelSchedule &s) { s.mma = 3; },
       "'mma' must be 0, 1 or 2"},
      {"mma without warp", [](KernelSchedule &s) { s.mma = 1; },
       "'mma' needs the outer-product tiling's 'warp'"},
      {"two pipeline", [](KernelSchedule &s) { s.pipeline = 2; },
       "'pipeline' must be 0 or 3 to 6"},
      {"pipeline without mma", [](KernelSchedule &s) { s.pipeline = 3; },
       "'pipeline' needs 'mma' and replaces 'buffers'"},
      {"wgmma without pipeline",
       [](KernelSchedule &s) {
         s.warp = {64, 64};
         s.mma = 2;
       },
       "'mma' 2 (wgmma) needs a 'pipeline'"},
  };
  for (const Case &c : cases) {
    INFO(c.what);
    Context ctx;
    KernelSchedule s = sample();
    c.breakIt(s);
    CHECK_FALSE(ctx.build(s));
    CHECK(ctx.message == std::string("invalid #tilec.schedule: ") + c.message);
    REQUIRE(ctx.location);
    CHECK(*ctx.location == ctx.here);
  }
}

TEST_CASE("schedule attribute: a valid schedule builds without error",
          "[kernel-attrs]") {
  Context ctx;
  CHECK(ctx.build(sample()));
  CHECK(ctx.build(KernelSchedule()));
  CHECK(ctx.message.empty());
}

TEST_CASE("schedule attribute: the plain data round-trips",
          "[kernel-attrs]") {
  Context ctx;
  ScheduleAttr attr = ScheduleAttr::get(&ctx.context, sample());
  CHECK(attr.getSchedule() == sample());
  CHECK(ScheduleAttr::get(&ctx.context, KernelSchedule()).getSchedule() ==
        KernelSchedule());
  KernelSchedule tiled = sample();
  tiled.warp = {32, 64};
  tiled.buffers = 2;
  tiled.split = 8;
  CHECK(ScheduleAttr::get(&ctx.context, tiled).getSchedule() == tiled);
  tiled.mma = 1;
  CHECK(ScheduleAttr::get(&ctx.context, tiled).getSchedule() == tiled);
  tiled.buffers = 1;
  tiled.pipeline = 4;
  CHECK(ScheduleAttr::get(&ctx.context, tiled).getSchedule() == tiled);
  KernelSchedule rows;
  rows.row = 256;
  CHECK(ScheduleAttr::get(&ctx.context, rows).getSchedule() == rows);
}

TEST_CASE("schedule attribute: the text form reads back",
          "[kernel-attrs]") {
  Context ctx;
  for (const KernelSchedule &s : {sample(), KernelSchedule()}) {
    ScheduleAttr attr = ScheduleAttr::get(&ctx.context, s);
    std::string text;
    llvm::raw_string_ostream(text) << attr;
    INFO(text);
    mlir::Attribute parsed = mlir::parseAttribute(text, &ctx.context);
    CHECK(parsed == attr);
  }
  // Defaults are left out when printed, so a new field changes no old IR.
  std::string text;
  llvm::raw_string_ostream(text)
      << ScheduleAttr::get(&ctx.context, KernelSchedule());
  CHECK(text == "#tilec.schedule<>");
  text.clear();
  llvm::raw_string_ostream(text) << ScheduleAttr::get(&ctx.context, sample());
  CHECK(text == "#tilec.schedule<block = [64, 64, 0], thread = [4, 8], "
                "vector = 4, unroll = 2, stage = [true, false], "
                "order = [1, 0]>");
  // The outer-product fields, printed only when set.
  KernelSchedule tiled = sample();
  tiled.warp = {32, 64};
  tiled.buffers = 2;
  tiled.split = 8;
  text.clear();
  llvm::raw_string_ostream(text) << ScheduleAttr::get(&ctx.context, tiled);
  CHECK(text == "#tilec.schedule<block = [64, 64, 0], thread = [4, 8], "
                "vector = 4, unroll = 2, stage = [true, false], "
                "order = [1, 0], warp = [32, 64], buffers = 2, split = 8>");
  CHECK(mlir::parseAttribute(text, &ctx.context) ==
        ScheduleAttr::get(&ctx.context, tiled));
  // A row nest's field likewise.
  KernelSchedule rows;
  rows.row = 128;
  text.clear();
  llvm::raw_string_ostream(text) << ScheduleAttr::get(&ctx.context, rows);
  CHECK(text == "#tilec.schedule<row = 128>");
  CHECK(mlir::parseAttribute(text, &ctx.context) ==
        ScheduleAttr::get(&ctx.context, rows));
}

TEST_CASE("schedule attribute: fields in any order, and errors located",
          "[kernel-attrs]") {
  Context ctx;
  mlir::Attribute parsed = mlir::parseAttribute(
      "#tilec.schedule<order = [1, 0], vector = 4, block = [64, 64, 0], "
      "thread = [4, 8], stage = [true, false], unroll = 2>",
      &ctx.context);
  CHECK(parsed == ScheduleAttr::get(&ctx.context, sample()));
  CHECK_FALSE(mlir::parseAttribute("#tilec.schedule<thread = [0]>",
                                   &ctx.context));
  CHECK(ctx.message == "invalid #tilec.schedule: 'thread' holds 0, below 1");
}

namespace {

/// A profile with every field away from its default.
schedule::DeviceProfile sampleDevice() {
  schedule::DeviceProfile p;
  p.id = "opencl:nvidia:nvidia-h200:0";
  p.isCPU = true;
  p.computeUnits = 132;
  p.clockMHz = 1980;
  p.maxWorkGroupSize = 1024;
  p.maxWorkItemSizes[0] = 1024;
  p.maxWorkItemSizes[1] = 512;
  p.maxWorkItemSizes[2] = 32;
  p.localMemBytes = 49152;
  p.subgroupSize = 64;
  p.preferredVectorWidth = 4;
  p.l1Bytes = 1;
  p.l2Bytes = 52428800;
  p.cacheLineBytes = 128;
  p.vectorBytes = 64;
  p.vectorRegisters = 32;
  p.peakBytesPerSecond = 4.17e12;
  p.peakFlopsPerSecond = 1.0 / 3.0 * 1e14; // not a short decimal
  p.spirvVersionMinor = 6;
  p.fp16 = p.fp64 = p.int8 = p.int16 = p.int64 = false;
  p.storage8Bit = p.storage16Bit = p.subgroups = false;
  p.subgroupShuffle = true;
  p.infNanPreserve16 = p.infNanPreserve32 = p.infNanPreserve64 = false;
  p.denormPreserve16 = p.denormPreserve32 = p.denormPreserve64 = true;
  p.maxLoopIterations = 65535;
  p.computeCapability = 90;
  p.sharedMemOptInBytes = 232448;
  return p;
}

} // namespace

TEST_CASE("GPU target attribute: the profile round-trips, in memory and as "
          "text",
          "[kernel-attrs]") {
  using kernel::GPUTargetAttr;
  Context ctx;
  for (const schedule::DeviceProfile &p :
       {sampleDevice(), schedule::DeviceProfile()}) {
    GPUTargetAttr attr = GPUTargetAttr::get(&ctx.context, p);
    CHECK(attr.getProfile() == p);
    std::string text;
    llvm::raw_string_ostream(text) << attr;
    INFO(text);
    CHECK(mlir::parseAttribute(text, &ctx.context) == attr);
  }
  std::string text;
  llvm::raw_string_ostream(text)
      << GPUTargetAttr::get(&ctx.context, schedule::DeviceProfile());
  CHECK(text == "#tilec.gpu_target<>");
}

TEST_CASE("GPU target attribute: passes find the nearest one, else the "
          "default profile",
          "[kernel-attrs]") {
  Context ctx;
  mlir::OwningOpRef<mlir::ModuleOp> outer =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&ctx.context));
  mlir::OpBuilder builder(&ctx.context);
  builder.setInsertionPointToEnd(outer->getBody());
  auto inner = mlir::ModuleOp::create(builder, outer->getLoc());
  CHECK(kernel::getGPUTarget(inner) == schedule::DeviceProfile());
  kernel::setGPUTarget(*outer, sampleDevice());
  CHECK(kernel::getGPUTarget(inner) == sampleDevice());
  schedule::DeviceProfile small;
  small.localMemBytes = 1024;
  kernel::setGPUTarget(inner, small);
  CHECK(kernel::getGPUTarget(inner) == small);
  CHECK(kernel::getGPUTarget(*outer) == sampleDevice());
}

TEST_CASE("GPU target attribute: an impossible device is an error",
          "[kernel-attrs]") {
  Context ctx;
  CHECK_FALSE(mlir::parseAttribute("#tilec.gpu_target<max_workgroup_size = 0>",
                                   &ctx.context));
  CHECK(ctx.message ==
        "invalid #tilec.gpu_target: 'max_workgroup_size' is 0, below 1");
  ctx.message.clear();
  CHECK_FALSE(
      mlir::parseAttribute("#tilec.gpu_target<spirv_version = 7>", &ctx.context));
  CHECK(ctx.message == "invalid #tilec.gpu_target: 'spirv_version' is 7, "
                       "above 6 (SPIR-V 1.6)");
  ctx.message.clear();
  CHECK_FALSE(mlir::parseAttribute(
      "#tilec.gpu_target<peak_bytes_per_second = -1.0>", &ctx.context));
  CHECK(ctx.message == "invalid #tilec.gpu_target: 'peak_bytes_per_second' "
                       "must be a finite number >= 0");
}
