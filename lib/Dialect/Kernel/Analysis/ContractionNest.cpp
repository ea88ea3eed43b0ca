//===- ContractionNest.cpp - A kernel nest read as a contraction ----------===//
//
// See ContractionNest.h. Which loop an access moves with is read off its
// affine map: the loop level passes every enclosing induction variable to
// a load, used or not, so a loop is read by a load when its dimension
// occurs in one of the map's results.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/ContractionNest.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <numeric>

using namespace mlir;
using namespace mlir::affine;
using namespace tilec;

namespace {

/// An op that computes a value from values: no memory effects, no regions,
/// one result.
bool isPureValueOp(Operation *op) {
  return op->getNumRegions() == 0 && op->getNumResults() == 1 &&
         isMemoryEffectFree(op);
}

/// The dimensions of `load`'s map that hold `value`.
SmallVector<unsigned> dimsOf(AffineLoadOp load, Value value) {
  SmallVector<unsigned> dims;
  AffineMap map = load.getAffineMap();
  for (auto [i, operand] : llvm::enumerate(load.getMapOperands()))
    if (operand == value && i < map.getNumDims())
      dims.push_back(i);
  return dims;
}

/// Whether `load` reads a different element when `value` changes.
bool movesWith(AffineLoadOp load, Value value) {
  if (llvm::is_contained(load.getMapOperands().drop_front(
                             load.getAffineMap().getNumDims()),
                         value))
    return true; // a symbol: no stride to reason about, assume it moves
  for (unsigned dim : dimsOf(load, value))
    for (AffineExpr result : load.getAffineMap().getResults())
      if (result.isFunctionOfDim(dim))
        return true;
  return false;
}

/// How far `expr` moves when `value`'s dimensions grow by one, if it is a
/// constant (it is for any expression linear in them).
std::optional<int64_t> strideAlong(AffineLoadOp load, AffineExpr expr,
                                   Value value) {
  AffineMap map = load.getAffineMap();
  DenseMap<AffineExpr, AffineExpr> shift;
  for (unsigned dim : dimsOf(load, value)) {
    AffineExpr d = getAffineDimExpr(dim, expr.getContext());
    shift[d] = d + 1;
  }
  AffineExpr delta = simplifyAffineExpr(expr.replace(shift) - expr,
                                        map.getNumDims(), map.getNumSymbols());
  if (auto constant = dyn_cast<AffineConstantExpr>(delta))
    return constant.getValue();
  return std::nullopt;
}

/// Whether neighbouring values of `free` read neighbouring elements of
/// `load`'s row-major memref.
bool contiguousAlong(AffineLoadOp load, Value free) {
  auto type = cast<MemRefType>(load.getMemRef().getType());
  AffineMap map = load.getAffineMap();
  if (!type.getLayout().isIdentity() || map.getNumResults() == 0)
    return false;
  for (auto [i, result] : llvm::enumerate(map.getResults())) {
    std::optional<int64_t> stride = strideAlong(load, result, free);
    int64_t wanted = i + 1 == map.getNumResults() ? 1 : 0;
    if (stride != wanted)
      return false;
  }
  return true;
}

/// Whether `expr` is a multiple of `run` wherever dimension `dim` is: sums
/// and constant multiples of such parts, and their remainders modulo a
/// multiple of `run` (`(s * 144 + k) mod 256`, a split reduction's
/// channel).
static bool multipleAtRunStarts(AffineExpr expr, unsigned dim, int64_t run) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue() % run == 0;
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return d.getPosition() == dim;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return multipleAtRunStarts(binary.getLHS(), dim, run) &&
           multipleAtRunStarts(binary.getRHS(), dim, run);
  case AffineExprKind::Mul:
    return factor && (factor.getValue() % run == 0 ||
                      multipleAtRunStarts(binary.getLHS(), dim, run));
  case AffineExprKind::Mod:
    return factor && factor.getValue() % run == 0 &&
           multipleAtRunStarts(binary.getLHS(), dim, run);
  default:
    return false;
  }
}

/// ContractionOperand::alignedRunsAlongReduction: within a run of `run`
/// iterations of `k` only the last memref dimension moves, by one per
/// iteration, and at each run's start the element offset is a multiple
/// of `run` (the last result's part, and the strides of the others, which
/// are multiples of the last extent).
bool alignedRunsAlong(AffineLoadOp load, Value k, int64_t run) {
  auto type = cast<MemRefType>(load.getMemRef().getType());
  AffineMap map = load.getAffineMap();
  SmallVector<unsigned> dims = dimsOf(load, k);
  if (!type.getLayout().isIdentity() || !type.hasStaticShape() ||
      map.getNumResults() == 0 || map.getNumSymbols() != 0 ||
      dims.size() != 1 || type.getShape().back() % run != 0)
    return false;
  for (auto [i, result] : llvm::enumerate(map.getResults())) {
    std::optional<int64_t> perR = coefficientOverRuns(result, dims[0], run);
    bool last = i + 1 == map.getNumResults();
    if (perR != (last ? 1 : 0))
      return false;
  }
  // The last result at a run's start: every term a multiple of `run` (the
  // iteration's own, run * q, and those of the other loops).
  AffineExpr lastResult = map.getResults().back();
  if (multipleAtRunStarts(lastResult, dims[0], run))
    return true;
  for (auto [i, operand] : llvm::enumerate(load.getMapOperands())) {
    if (operand == k)
      continue;
    std::optional<int64_t> stride = strideAlong(load, lastResult, operand);
    if (!stride || *stride % run != 0)
      return false;
  }
  SmallVector<AffineExpr> zeros(map.getNumDims(),
                                getAffineConstantExpr(0, map.getContext()));
  auto constant = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
      lastResult.replaceDims(zeros), map.getNumDims(), map.getNumSymbols()));
  return constant && constant.getValue() % run == 0;
}

/// The alignment of a contiguous `load` along `free` (ContractionOperand::
/// alignedElements): the offset of an element is the last result of the
/// map plus the other results times strides that are multiples of the last
/// extent, so what divides the last extent, the last result's constant and
/// its steps along every other loop divides every offset.
int64_t alignedElements(AffineLoadOp load, Value free) {
  auto type = cast<MemRefType>(load.getMemRef().getType());
  AffineMap map = load.getAffineMap();
  if (map.getNumSymbols() != 0 || !type.hasStaticShape())
    return 1;
  AffineExpr last = map.getResults().back();
  int64_t divisor = type.getShape().back();
  for (auto [i, operand] : llvm::enumerate(load.getMapOperands())) {
    if (operand == free)
      continue;
    std::optional<int64_t> stride = strideAlong(load, last, operand);
    if (!stride)
      return 1;
    divisor = std::gcd(divisor, *stride);
  }
  SmallVector<AffineExpr> zeros(map.getNumDims(),
                                getAffineConstantExpr(0, map.getContext()));
  auto constant = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
      last.replaceDims(zeros), map.getNumDims(), map.getNumSymbols()));
  if (!constant)
    return 1;
  divisor = std::gcd(divisor, constant.getValue());
  int64_t aligned = 1;
  while (aligned < 16 && (divisor == 0 || divisor % (aligned * 2) == 0))
    aligned *= 2;
  return aligned;
}

/// The operand whose value is `value`: the pure ops back from it to one
/// affine.load inside `body`, each taking one value made inside `body` (the
/// others come from outside: constants, the prologue).
std::optional<ContractionOperand> traceOperand(Value value, Block *body) {
  ContractionOperand operand;
  operand.value = value;
  Operation *op = value.getDefiningOp();
  while (op && op->getBlock() == body) {
    if (auto load = dyn_cast<AffineLoadOp>(op)) {
      operand.load = load;
      std::reverse(operand.slice.begin(), operand.slice.end());
      return operand;
    }
    if (!isPureValueOp(op))
      return std::nullopt;
    operand.slice.push_back(op);
    Operation *next = nullptr;
    for (Value input : op->getOperands()) {
      Operation *def = input.getDefiningOp();
      if (!def || def->getBlock() != body)
        continue;
      if (next)
        return std::nullopt; // two values made inside: not one operand's
      next = def;
    }
    op = next;
  }
  return std::nullopt;
}

/// Whether the reduction's body holds nothing but the two operands, the
/// combination, the aggregation and the yield.
bool onlyTheContraction(Block *body, const ContractionNest &nest) {
  llvm::SmallPtrSet<Operation *, 16> known = {nest.combine, nest.aggregate,
                                              body->getTerminator()};
  for (const ContractionOperand &operand : nest.operands) {
    known.insert(operand.load);
    known.insert(operand.slice.begin(), operand.slice.end());
  }
  return llvm::all_of(*body, [&](Operation &op) { return known.contains(&op); });
}

/// Splits the innermost band body around its one reduction loop.
bool splitBody(Block *body, ContractionNest &nest) {
  for (Operation &op : body->without_terminator()) {
    if (auto loop = dyn_cast<AffineForOp>(op)) {
      if (nest.reduction)
        return false;
      nest.reduction = loop;
      continue;
    }
    (nest.reduction ? nest.epilogue : nest.prologue).push_back(&op);
  }
  if (!nest.reduction || nest.epilogue.empty())
    return false;
  if (!llvm::all_of(nest.prologue, isPureValueOp))
    return false;
  // The epilogue computes the cell from the result (and loads such as a
  // bias) and stores it last, once.
  auto store = dyn_cast<AffineStoreOp>(nest.epilogue.back());
  if (!store)
    return false;
  for (Operation *op : ArrayRef(nest.epilogue).drop_back())
    if (!isPureValueOp(op) && !isa<AffineLoadOp>(op))
      return false;
  return true;
}

/// Whether `loop` is a reduction loop of the header's form: constant bounds
/// from 0, unit step, one iter_arg.
bool isReductionLoop(AffineForOp loop) {
  return loop.hasConstantBounds() && loop.getConstantLowerBound() == 0 &&
         loop.getStepAsInt() == 1 && loop.getNumIterOperands() == 1 &&
         loop.getConstantUpperBound() > 0;
}

/// The loops of the reduction from its outermost one: each but the
/// innermost holds only the next, which starts from its iter_arg and whose
/// result it yields.
bool matchChain(ContractionNest &nest) {
  AffineForOp loop = nest.reduction;
  while (true) {
    if (!isReductionLoop(loop))
      return false;
    nest.reductionChain.push_back(loop);
    Block *body = loop.getBody();
    auto inner = dyn_cast<AffineForOp>(&body->front());
    if (!inner || &body->front() != &*std::prev(body->end(), 2) ||
        inner.getNumIterOperands() != 1 ||
        inner.getInits()[0] != loop.getRegionIterArgs()[0] ||
        body->getTerminator()->getOperand(0) != inner.getResult(0))
      return true;
    loop = inner;
  }
}

/// The block of the innermost reduction loop that computes the step: its
/// body, or the then-block of the guard that is all its body holds (an
/// affine.if whose else keeps the accumulator: a step that only some
/// iterations take, such as a convolution's window inside the image).
Block *stepBlock(ContractionNest &nest, Value acc) {
  Block *body = nest.innermost().getBody();
  Value yielded = body->getTerminator()->getOperand(0);
  auto guard = yielded.getDefiningOp<AffineIfOp>();
  if (!guard || guard->getBlock() != body)
    return body;
  if (&body->front() != guard.getOperation() || guard->getNumResults() != 1 ||
      !guard.hasElse())
    return nullptr;
  Block *otherwise = guard.getElseBlock();
  if (otherwise->getOperations().size() != 1 ||
      otherwise->getTerminator()->getOperand(0) != acc)
    return nullptr;
  nest.guard = guard;
  return guard.getThenBlock();
}

/// Whether the reduction has the form of the header: a chain of loops
/// (matchChain) whose innermost aggregates one combined value into its
/// iter_arg, guarded or not.
bool matchReduction(ContractionNest &nest) {
  if (!matchChain(nest))
    return false;
  AffineForOp loop = nest.innermost();
  Value acc = loop.getRegionIterArgs()[0];
  Block *body = stepBlock(nest, acc);
  if (!body)
    return false;
  nest.aggregate = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!nest.aggregate || nest.aggregate->getBlock() != body ||
      !isPureValueOp(nest.aggregate) || nest.aggregate->getNumOperands() != 2)
    return false;
  Value lhs = nest.aggregate->getOperand(0), rhs = nest.aggregate->getOperand(1);
  if ((lhs == acc) == (rhs == acc))
    return false;
  nest.combine = (lhs == acc ? rhs : lhs).getDefiningOp();
  if (!nest.combine || nest.combine->getBlock() != body ||
      !isPureValueOp(nest.combine) || nest.combine->getNumOperands() != 2 ||
      llvm::is_contained(nest.combine->getOperands(), acc))
    return false;
  for (unsigned i = 0; i < 2; ++i) {
    std::optional<ContractionOperand> operand =
        traceOperand(nest.combine->getOperand(i), body);
    if (!operand ||
        llvm::none_of(nest.reductionChain, [&](AffineForOp reduction) {
          return movesWith(operand->load, reduction.getInductionVar());
        }))
      return false;
    nest.operands[i] = std::move(*operand);
  }
  return onlyTheContraction(body, nest);
}

} // namespace

std::optional<int64_t> tilec::coefficientOverRuns(AffineExpr expr,
                                                  unsigned dim, int64_t run) {
  auto isDim = [&](AffineExpr e) {
    auto d = dyn_cast<AffineDimExpr>(e);
    return d && d.getPosition() == dim;
  };
  // `dim` plus a multiple of `run` that does not read it (a split
  // reduction's slice start, `s * 144 + k`): its runs are runs too.
  auto multipleOfRun = [&](AffineExpr e) {
    return !e.isFunctionOfDim(dim) && multipleAtRunStarts(e, dim, run);
  };
  auto isAlignedDim = [&](AffineExpr e) {
    if (isDim(e))
      return true;
    auto sum = dyn_cast<AffineBinaryOpExpr>(e);
    return sum && sum.getKind() == AffineExprKind::Add &&
           ((isDim(sum.getLHS()) && multipleOfRun(sum.getRHS())) ||
            (isDim(sum.getRHS()) && multipleOfRun(sum.getLHS())));
  };
  if (isDim(expr))
    return 1;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return 0;
  auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
  bool byRuns = divisor && divisor.getValue() > 0 &&
                divisor.getValue() % run == 0 && isAlignedDim(binary.getLHS());
  switch (binary.getKind()) {
  case AffineExprKind::FloorDiv:
  case AffineExprKind::Mod:
  case AffineExprKind::CeilDiv: {
    if (byRuns && binary.getKind() != AffineExprKind::CeilDiv)
      return binary.getKind() == AffineExprKind::Mod ? 1 : 0;
    // Of a part that r leaves alone (`(k floordiv 16) mod 3`): none.
    if (coefficientOverRuns(binary.getLHS(), dim, run) == 0 &&
        !binary.getRHS().isFunctionOfDim(dim))
      return 0;
    return std::nullopt;
  }
  case AffineExprKind::Add: {
    std::optional<int64_t> lhs =
        coefficientOverRuns(binary.getLHS(), dim, run);
    std::optional<int64_t> rhs =
        coefficientOverRuns(binary.getRHS(), dim, run);
    if (!lhs || !rhs)
      return std::nullopt;
    return *lhs + *rhs;
  }
  case AffineExprKind::Mul:
    if (auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS())) {
      std::optional<int64_t> lhs =
          coefficientOverRuns(binary.getLHS(), dim, run);
      if (!lhs)
        return std::nullopt;
      return *lhs * factor.getValue();
    }
    break;
  default:
    break;
  }
  // Anything else must not read the dimension at all.
  if (expr.isFunctionOfDim(dim))
    return std::nullopt;
  return 0;
}

int ContractionNest::loopOf(BandRole role) const {
  int found = -1;
  for (auto [i, candidate] : llvm::enumerate(roles)) {
    if (candidate != role)
      continue;
    if (found >= 0)
      return -1;
    found = static_cast<int>(i);
  }
  return found;
}

std::optional<ContractionNest>
tilec::matchContractionNest(AffineForOp kernel, ArrayRef<AffineForOp> band) {
  if (band.empty() || band.front() != kernel)
    return std::nullopt;
  for (AffineForOp loop : band)
    if (loop.getConstantLowerBound() != 0 || loop.getStepAsInt() != 1)
      return std::nullopt;
  ContractionNest nest;
  nest.band.assign(band.begin(), band.end());
  if (!splitBody(nest.band.back().getBody(), nest) || !matchReduction(nest))
    return std::nullopt;
  // The cell written must not be read by the reduction: its operands are
  // inputs of the contraction, not the output it accumulates into.
  Value output = cast<AffineStoreOp>(nest.epilogue.back()).getMemRef();
  for (ContractionOperand &operand : nest.operands)
    if (operand.load.getMemRef() == output)
      return std::nullopt;
  for (AffineForOp loop : nest.band) {
    Value iv = loop.getInductionVar();
    bool reads0 = movesWith(nest.operands[0].load, iv);
    bool reads1 = movesWith(nest.operands[1].load, iv);
    nest.roles.push_back(reads0 && reads1 ? BandRole::Batch
                         : reads0         ? BandRole::Free0
                         : reads1         ? BandRole::Free1
                                          : BandRole::Outer);
  }
  for (unsigned i = 0; i < 2; ++i) {
    int free = nest.loopOf(i == 0 ? BandRole::Free0 : BandRole::Free1);
    ContractionOperand &operand = nest.operands[i];
    if (free < 0)
      continue;
    Value iv = nest.band[free].getInductionVar();
    operand.contiguousAlongFree = contiguousAlong(operand.load, iv);
    if (operand.contiguousAlongFree)
      operand.alignedElements = alignedElements(operand.load, iv);
    Value k = nest.innermost().getInductionVar();
    operand.contiguousAlongReduction = contiguousAlong(operand.load, k);
    if (operand.contiguousAlongReduction)
      operand.alignedAlongReduction = alignedElements(operand.load, k);
    int64_t run = ContractionOperand::kReductionRun;
    operand.alignedRunsAlongReduction =
        operand.contiguousAlongReduction
            ? operand.alignedAlongReduction % run == 0
            : alignedRunsAlong(operand.load, k, run);
  }
  return nest;
}
