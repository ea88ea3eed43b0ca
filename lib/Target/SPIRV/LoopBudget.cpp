//===- LoopBudget.cpp - Loop iterations one invocation runs ---------------===//

#include "LoopBudget.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#include <limits>

using namespace mlir;

namespace {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

uint64_t saturatingMul(uint64_t a, uint64_t b) {
  if (a != 0 && b > kSaturated / a)
    return kSaturated;
  return a * b;
}

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return b > kSaturated - a ? kSaturated : a + b;
}

/// The constant bound of `value` of `type` (closed), if one can be derived.
std::optional<int64_t> constantBound(presburger::BoundType type, Value value) {
  FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
      type, ValueBoundsConstraintSet::Variable(value),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
  if (failed(bound))
    return std::nullopt;
  return *bound;
}

/// An upper bound on the trip count of `loop`: its static trip count, or
/// (ub's largest value - lb's smallest) / step for bounds that depend on
/// values whose ranges are known.
std::optional<uint64_t> tripCountBound(scf::ForOp loop) {
  if (std::optional<APInt> count = loop.getStaticTripCount())
    return count->getZExtValue();
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  std::optional<int64_t> upper =
      constantBound(presburger::BoundType::UB, loop.getUpperBound());
  std::optional<int64_t> lower =
      constantBound(presburger::BoundType::LB, loop.getLowerBound());
  if (!step || *step <= 0 || !upper || !lower)
    return std::nullopt;
  if (*upper < *lower)
    return 0;
  // The closed upper bound is a value ub may take; the loop runs while
  // iv < ub, so (ub - lb) / step rounded up iterations at most.
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
    total = saturatingAdd(total, saturatingMul(*trips, saturatingAdd(1, *inner)));
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
