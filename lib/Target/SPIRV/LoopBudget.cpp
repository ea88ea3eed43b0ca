//===- LoopBudget.cpp - Loop iterations one invocation runs ---------------===//

#include "LoopBudget.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;

namespace {

/// A constant interval holding every value `value` takes, where the ops
/// that compute it give one: constants, the GPU ids (never negative),
/// + and * of bounded values, min and max, a loop's induction variable.
/// The staged loops of a kernel start at a thread's id and stop at a
/// constant or a min with one, so this is enough for what tilec emits.
struct Interval {
  std::optional<int64_t> lo, hi;
};

Interval intervalOf(Value value, unsigned depth = 0) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return {*c, *c};
  if (depth > 16)
    return {};
  auto of = [&](Value v) { return intervalOf(v, depth + 1); };
  if (auto iv = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(iv.getOwner()->getParentOp());
    if (!loop || iv != loop.getInductionVar())
      return {};
    Interval lb = of(loop.getLowerBound()), ub = of(loop.getUpperBound());
    return {lb.lo, ub.hi ? std::optional<int64_t>(*ub.hi - 1) : std::nullopt};
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return {};
  if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::GlobalIdOp, gpu::LaneIdOp,
          gpu::SubgroupIdOp>(op))
    return {0, std::nullopt};
  // Widening casts keep the value (the GPU pipeline narrows index
  // arithmetic to i32 where it fits, and casts it back for the loops).
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(op))
    return of(op->getOperand(0));
  auto both = [&](auto combine) -> Interval {
    Interval x = of(op->getOperand(0)), y = of(op->getOperand(1));
    return combine(x, y);
  };
  // Combines two ends; no end where either is missing or the result
  // overflows.
  auto join = [](std::optional<int64_t> a, std::optional<int64_t> b,
                 auto f) -> std::optional<int64_t> {
    if (a && b)
      return f(*a, *b);
    return std::nullopt;
  };
  auto plus = [](int64_t a, int64_t b) { return llvm::checkedAdd(a, b); };
  auto times = [](int64_t a, int64_t b) { return llvm::checkedMul(a, b); };
  auto least = [](int64_t a, int64_t b) { return std::optional(std::min(a, b)); };
  auto most = [](int64_t a, int64_t b) { return std::optional(std::max(a, b)); };
  if (isa<arith::AddIOp>(op))
    return both([&](Interval x, Interval y) {
      return Interval{join(x.lo, y.lo, plus), join(x.hi, y.hi, plus)};
    });
  if (isa<arith::MulIOp>(op))
    return both([&](Interval x, Interval y) -> Interval {
      if (!x.lo || !y.lo || *x.lo < 0 || *y.lo < 0)
        return {};
      return {join(x.lo, y.lo, times), join(x.hi, y.hi, times)};
    });
  if (isa<arith::MinSIOp, arith::MinUIOp>(op))
    return both([&](Interval x, Interval y) {
      std::optional<int64_t> hi = x.hi && y.hi ? std::min(*x.hi, *y.hi)
                                               : (x.hi ? x.hi : y.hi);
      return Interval{join(x.lo, y.lo, least), hi};
    });
  if (isa<arith::MaxSIOp, arith::MaxUIOp>(op))
    return both([&](Interval x, Interval y) {
      std::optional<int64_t> lo = x.lo && y.lo ? std::max(*x.lo, *y.lo)
                                               : (x.lo ? x.lo : y.lo);
      return Interval{lo, join(x.hi, y.hi, most)};
    });
  return {};
}

/// An upper bound on the trip count of `loop`: its static trip count, or
/// (ub's largest value - lb's smallest) / step.
std::optional<uint64_t> tripCountBound(scf::ForOp loop) {
  if (std::optional<APInt> count = loop.getStaticTripCount())
    return count->getZExtValue();
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  std::optional<int64_t> upper = intervalOf(loop.getUpperBound()).hi;
  std::optional<int64_t> lower = intervalOf(loop.getLowerBound()).lo;
  if (!step || *step <= 0 || !upper || !lower)
    return std::nullopt;
  // The loop runs while iv < ub, and ub is at most `upper`.
  if (*upper <= *lower)
    return 0;
  uint64_t span = uint64_t(*upper) - uint64_t(*lower);
  return (span + uint64_t(*step) - 1) / uint64_t(*step);
}

/// The iterations of the loops in `region`, each run once per call.
std::optional<uint64_t> iterationsIn(Region &region) {
  uint64_t total = 0;
  bool bounded = true;
  region.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    std::optional<uint64_t> trips = tripCountBound(loop);
    std::optional<uint64_t> inner = iterationsIn(loop.getRegion());
    if (!trips || !inner) {
      bounded = false;
      return WalkResult::interrupt();
    }
    total = llvm::SaturatingAdd(
        total, llvm::SaturatingMultiply(*trips, llvm::SaturatingAdd(uint64_t(1), *inner)));
    // The loops inside were counted through `inner`.
    return WalkResult::skip();
  });
  if (!bounded)
    return std::nullopt;
  return total;
}

} // namespace

std::optional<uint64_t>
tilec::spirv::loopIterationsPerInvocation(gpu::GPUFuncOp func) {
  return iterationsIn(func.getBody());
}
