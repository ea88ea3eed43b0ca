//===- KernelAttrsTest.cpp - #tilec.schedule: verifier and round trip -----===//
//
// The schedule attribute against the plain data it stands for: every rule of
// validateSchedule is an error at the attribute's location, the text form
// reads back to the same attribute, and the one conversion to and from
// schedule::KernelSchedule loses nothing.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/AsmParser/AsmParser.h"
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
