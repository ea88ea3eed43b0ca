//===- InferOverflowFlags.cpp - tilec-gpu-infer-overflow-flags ------------===//
//
// Marks the integer additions, subtractions and multiplications of the
// kernels that the ranges of their operands prove cannot wrap with the
// `nsw` / `nuw` overflow flags. MLIR's integers wrap, so a C emitter must
// otherwise compute them on unsigned types; a flagged op may be printed as
// C's signed arithmetic, whose overflow is undefined, which tells NVIDIA's
// OpenCL compiler that `base + 32 * k` does not wrap and lets it fold the
// constant into a shared-memory address instead of widening every index
// (three instructions per fragment load of the outer-product tiling).
//
// The ranges are arith's integer range analysis: thread and work-group
// ids bounded by the kernel's known sizes, loop induction variables by
// their bounds, constants.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUINFEROVERFLOWFLAGSPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// The range of `value`, when the analysis knows one.
std::optional<ConstantIntRanges> rangeOf(DataFlowSolver &solver, Value value) {
  auto *lattice =
      solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return std::nullopt;
  return lattice->getValue().getValue();
}

/// Whether `combine` (an APInt operation reporting overflow) overflows for
/// any pair of the given bounds.
template <typename Combine>
bool anyOverflow(ArrayRef<APInt> lhs, ArrayRef<APInt> rhs, Combine combine) {
  for (const APInt &a : lhs)
    for (const APInt &b : rhs) {
      bool overflow = false;
      (void)combine(a, b, overflow);
      if (overflow)
        return true;
    }
  return false;
}

/// The flags an op `kind` on operands of ranges `a` and `b` may carry.
arith::IntegerOverflowFlags flagsFor(Operation *op, const ConstantIntRanges &a,
                                     const ConstantIntRanges &b) {
  using Flags = arith::IntegerOverflowFlags;
  SmallVector<APInt> as = {a.smin(), a.smax()}, bs = {b.smin(), b.smax()};
  SmallVector<APInt> au = {a.umin(), a.umax()}, bu = {b.umin(), b.umax()};
  bool signedWraps = true, unsignedWraps = true;
  if (isa<arith::AddIOp>(op)) {
    signedWraps = anyOverflow(as, bs, [](auto &x, auto &y, bool &o) {
      return x.sadd_ov(y, o);
    });
    unsignedWraps = anyOverflow(au, bu, [](auto &x, auto &y, bool &o) {
      return x.uadd_ov(y, o);
    });
  } else if (isa<arith::SubIOp>(op)) {
    signedWraps = anyOverflow(as, bs, [](auto &x, auto &y, bool &o) {
      return x.ssub_ov(y, o);
    });
    unsignedWraps = a.umin().ult(b.umax());
  } else if (isa<arith::MulIOp>(op)) {
    signedWraps = anyOverflow(as, bs, [](auto &x, auto &y, bool &o) {
      return x.smul_ov(y, o);
    });
    unsignedWraps = anyOverflow(au, bu, [](auto &x, auto &y, bool &o) {
      return x.umul_ov(y, o);
    });
  }
  Flags flags = Flags::none;
  if (!signedWraps)
    flags = flags | Flags::nsw;
  if (!unsignedWraps)
    flags = flags | Flags::nuw;
  return flags;
}

struct InferOverflowFlagsPass
    : tilec::impl::TilecGPUInferOverflowFlagsPassBase<InferOverflowFlagsPass> {
  void runOnOperation() override {
    gpu::GPUFuncOp func = getOperation();
    DataFlowSolver solver;
    dataflow::loadBaselineAnalyses(solver);
    solver.load<dataflow::IntegerRangeAnalysis>();
    if (failed(solver.initializeAndRun(func)))
      return signalPassFailure();
    func.walk([&](Operation *op) {
      if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op) ||
          !op->getResult(0).getType().isSignlessInteger())
        return;
      auto flagged = cast<arith::ArithIntegerOverflowFlagsInterface>(op);
      std::optional<ConstantIntRanges> a =
          rangeOf(solver, op->getOperand(0));
      std::optional<ConstantIntRanges> b =
          rangeOf(solver, op->getOperand(1));
      if (!a || !b)
        return;
      arith::IntegerOverflowFlags flags =
          flagged.getOverflowAttr().getValue() | flagsFor(op, *a, *b);
      op->setAttr(flagged.getIntegerOverflowAttrName(),
                  arith::IntegerOverflowFlagsAttr::get(op->getContext(),
                                                       flags));
    });
  }
};

} // namespace
