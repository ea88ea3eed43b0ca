//===- KernelModel.cpp - What the cost model sees of a kernel nest --------===//
//
// Reads a loop-level kernel nest into the few numbers the cost model
// needs: loop extents, which loops each memref's indices follow, how many
// arithmetic ops run, and how many bytes the kernel must move at least.
// A loop without constant bounds counts as one iteration (the loop level
// emits constant bounds; such a kernel gets no tiles anyway).
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/CostModel.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Kernel/Analysis/RowNest.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace tilec::schedule;

namespace {

int64_t tripCount(affine::AffineForOp loop) {
  std::optional<uint64_t> trips = affine::getConstantTripCount(loop);
  return trips ? std::max<int64_t>(int64_t(*trips), 1) : 1;
}

/// The loops directly below the band that the schedule numbers after it:
/// the first loop of the innermost band loop's body, the first loop of its
/// body, and so on.
SmallVector<affine::AffineForOp> reductionChain(Block *body) {
  SmallVector<affine::AffineForOp> chain;
  while (body) {
    auto loops = body->getOps<affine::AffineForOp>();
    if (loops.empty())
      break;
    chain.push_back(*loops.begin());
    body = chain.back().getBody();
  }
  return chain;
}

int64_t elementBytes(Type type) {
  Type element = cast<MemRefType>(type).getElementType();
  if (element.isIntOrFloat())
    return std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
  return 8; // index
}

/// An operation that the model counts as arithmetic: a scalar op of the
/// arith or math dialects that computes data, not indices or constants.
bool isArithmetic(Operation *op) {
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (dialect != "arith" && dialect != "math")
    return false;
  if (op->hasTrait<OpTrait::ConstantLike>() || op->getNumResults() != 1)
    return false;
  return !op->getResult(0).getType().isIndex();
}

/// Whether no floordiv, ceildiv or mod in `expr` reads dimension `dim`.
/// (`(d0 + 1) floordiv 2` grows by 1 from d0 = 0 to 1, but is no linear
/// function of d0: the staging plan, which flattens the access, refuses
/// it.)
bool noDivisionOf(AffineExpr expr, unsigned dim) {
  bool none = true;
  expr.walk([&](AffineExpr e) {
    auto binary = dyn_cast<AffineBinaryOpExpr>(e);
    if (binary && e.getKind() != AffineExprKind::Add &&
        e.getKind() != AffineExprKind::Mul &&
        binary.getLHS().isFunctionOfDim(dim))
      none = false;
  });
  return none;
}

/// The amount `expr` grows by when dimension `dim` grows by one, if that
/// is a constant (the expression is linear in it).
std::optional<int64_t> coefficientOf(AffineExpr expr, unsigned dim,
                                     AffineMap map) {
  if (!noDivisionOf(expr, dim))
    return std::nullopt;
  MLIRContext *context = expr.getContext();
  auto at = [&](int64_t value) {
    return expr.replace(getAffineDimExpr(dim, context),
                        getAffineConstantExpr(value, context));
  };
  AffineExpr step = simplifyAffineExpr(at(1) - at(0), map.getNumDims(),
                                       map.getNumSymbols());
  auto constant = dyn_cast<AffineConstantExpr>(step);
  if (!expr.isPureAffine() || !constant)
    return std::nullopt;
  return constant.getValue();
}

/// The value of `expr` with every dimension at zero, if constant.
std::optional<int64_t> offsetOf(AffineExpr expr, AffineMap map) {
  MLIRContext *context = expr.getContext();
  SmallVector<AffineExpr> zeros(map.getNumDims(),
                                getAffineConstantExpr(0, context));
  AffineExpr value = simplifyAffineExpr(
      expr.replaceDims(zeros), map.getNumDims(), map.getNumSymbols());
  if (auto constant = dyn_cast<AffineConstantExpr>(value))
    return constant.getValue();
  return std::nullopt;
}

/// One load or store of a memref.
struct Access {
  Operation *op;
  Value memref;
  bool write;
};

class KernelReader {
public:
  KernelReader(affine::AffineForOp kernel,
               ArrayRef<affine::AffineForOp> band)
      : kernel(kernel), band(band.begin(), band.end()) {}

  KernelModel read();

private:
  /// Loop number (band, then reductions) of `value`, or -1.
  int loopOf(Value value) const {
    auto it = loopNumbers.find(value);
    return it == loopNumbers.end() ? -1 : it->second;
  }
  void markDependences(const Access &access, KernelModel::Operand &operand,
                       bool &contiguous, bool &walksInner);
  /// Adds an access's coefficients and offsets to `operand`'s; clears
  /// `stageable` when the access is no affine load inside a register
  /// reduction, linear in numbered loops.
  void addStagingFacts(const Access &access, KernelModel::Operand &operand,
                       std::vector<std::pair<int64_t, int64_t>> &offsets);

  affine::AffineForOp kernel;
  SmallVector<affine::AffineForOp> band;
  SmallVector<affine::AffineForOp> reductions;
  llvm::DenseMap<Value, int> loopNumbers;
};

void KernelReader::markDependences(const Access &access,
                                   KernelModel::Operand &operand,
                                   bool &contiguous, bool &walksInner) {
  unsigned loops = operand.dependsOn.size();
  int inner = band.empty() ? -1 : int(band.size()) - 1;
  AffineMap map;
  ValueRange operands;
  if (auto read = dyn_cast<affine::AffineReadOpInterface>(access.op)) {
    map = read.getAffineMap();
    operands = read.getMapOperands();
  } else if (auto write = dyn_cast<affine::AffineWriteOpInterface>(access.op)) {
    map = write.getAffineMap();
    operands = write.getMapOperands();
  }
  if (!map) {
    // A data-dependent access: it may touch anything.
    operand.dependsOn.assign(loops, true);
    contiguous = false;
    walksInner = true;
    return;
  }
  for (unsigned result = 0; result < map.getNumResults(); ++result) {
    AffineExpr expr = map.getResult(result);
    for (auto [position, value] : llvm::enumerate(operands)) {
      int loop = loopOf(value);
      if (loop < 0)
        continue;
      bool used = position < map.getNumDims()
                      ? expr.isFunctionOfDim(position)
                      : expr.isFunctionOfSymbol(position - map.getNumDims());
      if (!used)
        continue;
      operand.dependsOn[loop] = true;
      if (loop != inner)
        continue;
      walksInner = true;
      // Contiguous: only the last index follows the innermost band loop,
      // with a unit coefficient.
      contiguous &= result + 1 == map.getNumResults() &&
                    position < map.getNumDims() &&
                    coefficientOf(expr, position, map) == int64_t(1);
    }
  }
}

void KernelReader::addStagingFacts(
    const Access &access, KernelModel::Operand &operand,
    std::vector<std::pair<int64_t, int64_t>> &offsets) {
  auto load = dyn_cast<affine::AffineLoadOp>(access.op);
  if (!load || reductions.empty() ||
      !reductions.front()->isProperAncestor(access.op)) {
    operand.stageable = false;
    return;
  }
  AffineMap map = load.getAffineMap();
  unsigned loops = operand.dependsOn.size();
  operand.coefficients.resize(map.getNumResults(),
                              std::vector<int64_t>(loops, 0));
  offsets.resize(map.getNumResults(),
                 {std::numeric_limits<int64_t>::max(),
                  std::numeric_limits<int64_t>::min()});
  for (unsigned result = 0; result < map.getNumResults(); ++result) {
    AffineExpr expr = map.getResult(result);
    std::optional<int64_t> offset = offsetOf(expr, map);
    if (!offset) {
      operand.stageable = false;
      return;
    }
    offsets[result].first = std::min(offsets[result].first, *offset);
    offsets[result].second = std::max(offsets[result].second, *offset);
    for (auto [position, value] : llvm::enumerate(load.getMapOperands())) {
      bool used = position < map.getNumDims()
                      ? expr.isFunctionOfDim(position)
                      : expr.isFunctionOfSymbol(position - map.getNumDims());
      if (!used)
        continue;
      int loop = loopOf(value);
      std::optional<int64_t> coefficient =
          position < map.getNumDims() ? coefficientOf(expr, position, map)
                                      : std::nullopt;
      if (loop < 0 || !coefficient) {
        operand.stageable = false;
        return;
      }
      int64_t &entry = operand.coefficients[result][loop];
      entry = std::max(entry, std::abs(*coefficient));
    }
  }
}

KernelModel KernelReader::read() {
  KernelModel model;
  if (auto name = tilec::kernel::KernelName(kernel->getContext()).getAttr(kernel))
    model.name = name.str();
  if (auto print = tilec::kernel::Fingerprint(kernel->getContext()).getAttr(kernel))
    model.fingerprint = print.str();
  for (affine::AffineForOp loop : band) {
    loopNumbers[loop.getInductionVar()] = loopNumbers.size();
    model.parallelExtents.push_back(tripCount(loop));
  }
  if (!band.empty())
    reductions = reductionChain(band.back().getBody());
  for (affine::AffineForOp loop : reductions) {
    loopNumbers[loop.getInductionVar()] = loopNumbers.size();
    model.reductionExtents.push_back(tripCount(loop));
  }
  unsigned loops = loopNumbers.size();
  // The mapping stages only what getRegisterReduction finds; a chain
  // whose first loop is another (a kernel that writes before reducing, or
  // fused loops) reduces in memory.
  model.registerReduction =
      !reductions.empty() &&
      tilec::getRegisterReduction(band.back()) == reductions.front();

  // Accesses in program order; reads first-read order as the staging plan
  // numbers them.
  SmallVector<Access> accesses;
  SmallVector<Value> reads, writes;
  double flops = 0;
  kernel.walk([&](Operation *op) {
    Value memref;
    bool write = false;
    if (auto read = dyn_cast<affine::AffineReadOpInterface>(op))
      memref = read.getMemRef();
    else if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef();
    else if (auto store = dyn_cast<affine::AffineWriteOpInterface>(op))
      memref = store.getMemRef(), write = true;
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      memref = store.getMemRef(), write = true;
    if (memref) {
      accesses.push_back({op, memref, write});
      SmallVector<Value> &list = write ? writes : reads;
      if (!llvm::is_contained(list, memref))
        list.push_back(memref);
    }
    if (isArithmetic(op)) {
      double executions = 1;
      for (Operation *parent = op->getParentOp(); parent;
           parent = parent->getParentOp()) {
        if (auto loop = dyn_cast<affine::AffineForOp>(parent))
          executions *= double(tripCount(loop));
        if (parent == kernel.getOperation())
          break;
      }
      flops += executions;
    }
  });
  SmallVector<Value> memrefs(reads);
  for (Value memref : writes)
    if (!llvm::is_contained(memrefs, memref))
      memrefs.push_back(memref);

  double iterations = 1;
  for (int64_t extent : model.parallelExtents)
    iterations *= double(extent);
  for (int64_t extent : model.reductionExtents)
    iterations *= double(extent);
  model.totalFlops = flops;
  model.flopsPerIteration =
      std::max<int64_t>(1, int64_t(flops / std::max(iterations, 1.0) + 0.5));

  model.vectorizable = !band.empty();
  for (Value memref : memrefs) {
    KernelModel::Operand operand;
    operand.elementBytes = elementBytes(memref.getType());
    operand.written = llvm::is_contained(writes, memref);
    operand.dependsOn.assign(loops, false);
    bool contiguous = true, walksInner = false;
    // Staging needs the first reduction loop to carry its sum in
    // registers, as the mapping's staging plan does.
    operand.stageable = model.registerReduction && !operand.written &&
                        cast<MemRefType>(memref.getType())
                            .getElementType()
                            .isIntOrFloat();
    std::vector<std::pair<int64_t, int64_t>> offsets;
    for (const Access &access : accesses) {
      if (access.memref != memref)
        continue;
      markDependences(access, operand, contiguous, walksInner);
      if (operand.stageable)
        addStagingFacts(access, operand, offsets);
    }
    if (operand.stageable) {
      for (auto [low, high] : offsets)
        operand.offsetSpread.push_back(high - low);
    } else {
      operand.coefficients.clear();
    }
    operand.contiguousInner = walksInner && contiguous;
    // Lanes of the innermost loop load a vector only where it walks the
    // memref contiguously or not at all.
    model.vectorizable &= !walksInner || contiguous;

    // The elements it touches: the loops it follows span at most the
    // memref itself.
    double span = 1;
    for (unsigned loop = 0; loop < loops; ++loop)
      if (operand.dependsOn[loop])
        span *= double(loop < model.parallelExtents.size()
                           ? model.parallelExtents[loop]
                           : model.reductionExtents[loop -
                                                    model.parallelExtents
                                                        .size()]);
    auto type = cast<MemRefType>(memref.getType());
    if (type.hasStaticShape())
      span = std::min(span, double(type.getNumElements()));
    model.uniqueBytes += span * double(operand.elementBytes);
    model.operands.push_back(std::move(operand));
  }
  if (std::optional<tilec::ContractionNest> nest =
          tilec::matchContractionNest(kernel, band))
    model.contraction = tilec::contractionShapeOf(*nest);
  if (std::optional<tilec::RowNest> rows = tilec::matchRowNest(kernel, band)) {
    model.rowColumns = rows->columns;
    model.rowReductions = rows->reductionCount();
  }
  return model;
}

} // namespace

KernelModel
tilec::schedule::describeKernel(affine::AffineForOp kernel,
                                ArrayRef<affine::AffineForOp> band) {
  return KernelReader(kernel, band).read();
}
