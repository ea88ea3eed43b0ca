//===- TransposeLaneOperands.cpp - tilec-cpu-transpose-lane-operands ------===//
//
// A kernel that the lane dimension of one of its read-only operands keeps
// scalar gets a transposed copy of that operand (see the pass's
// description). The copy is its own kernel, so it is outlined, scheduled
// and timed like the others, and its buffer a temporary like the others.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/Transforms/Passes.h"

#include "tilec/Dialect/Kernel/Analysis/KernelNest.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Kernel/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/MapVector.h"

namespace tilec {
#define GEN_PASS_DEF_TRANSPOSELANEOPERANDSPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace mlir::affine;
using tilec::transforms::KernelNest;

namespace {

/// A copy is worth it when the kernel does at least this many innermost
/// iterations per element copied.
constexpr int64_t kIterationsPerCopiedElement = 8;

/// The loads of one memref in a kernel, and the dimension the lane moves
/// (none while only loads the lane does not move have been seen).
struct StridedOperand {
  SmallVector<AffineLoadOp> loads;
  std::optional<unsigned> laneDim;
};

/// The dimension `load` moves along with the lane by one element (and no
/// other), if it is not the last; -1 when the load does not move with the
/// lane; std::nullopt when it moves in another way.
std::optional<int> movedDimension(AffineLoadOp load, Value lane) {
  std::optional<SmallVector<int64_t>> strides = tilec::transforms::laneStrides(
      load.getAffineMap(), load.getMapOperands(), lane);
  if (!strides)
    return std::nullopt;
  int moved = -1;
  for (auto [i, stride] : llvm::enumerate(*strides)) {
    if (stride == 0)
      continue;
    if (stride != 1 || moved != -1)
      return std::nullopt;
    moved = static_cast<int>(i);
  }
  return moved;
}

/// The memrefs `kernel` reads but never writes whose lane-moving loads all
/// move one dimension other than the last, with those loads.
llvm::MapVector<Value, StridedOperand> stridedOperands(AffineForOp kernel,
                                                       Value lane) {
  llvm::MapVector<Value, StridedOperand> operands;
  DenseSet<Value> rejected;
  kernel.walk([&](Operation *op) {
    if (auto store = dyn_cast<AffineStoreOp>(op))
      rejected.insert(store.getMemRef());
    else if (isa<memref::StoreOp>(op))
      rejected.insert(op->getOperand(1));
  });
  kernel.walk([&](AffineLoadOp load) {
    Value memref = load.getMemRef();
    auto type = cast<MemRefType>(memref.getType());
    std::optional<int> moved = movedDimension(load, lane);
    if (rejected.contains(memref) || !moved || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() ||
        *moved + 1 == static_cast<int>(type.getRank())) {
      rejected.insert(memref);
      return;
    }
    StridedOperand &operand = operands[memref];
    if (*moved >= 0) {
      if (operand.laneDim && *operand.laneDim != unsigned(*moved)) {
        rejected.insert(memref);
        return;
      }
      operand.laneDim = *moved;
    }
    operand.loads.push_back(load);
  });
  llvm::MapVector<Value, StridedOperand> kept;
  for (auto &[memref, operand] : operands)
    if (!rejected.contains(memref) && operand.laneDim)
      kept.insert({memref, operand});
  return kept;
}

int64_t iterationsOf(AffineForOp loop);

/// The most iterations of the loops directly in `block` (or in the
/// branches of an affine.if there): 1 without loops, 0 when one has no
/// constant trip count.
int64_t innerIterations(Block &block) {
  int64_t most = 1;
  for (Operation &op : block) {
    if (auto loop = dyn_cast<AffineForOp>(op)) {
      int64_t iterations = iterationsOf(loop);
      if (iterations == 0)
        return 0;
      most = std::max(most, iterations);
    } else if (auto guard = dyn_cast<AffineIfOp>(op)) {
      for (Region *region : {&guard.getThenRegion(), &guard.getElseRegion()})
        for (Block &branch : *region) {
          int64_t iterations = innerIterations(branch);
          if (iterations == 0)
            return 0;
          most = std::max(most, iterations);
        }
    }
  }
  return most;
}

/// The iterations of the innermost loops of `loop` (constant trip counts
/// multiplied along each path), or 0 when one is not constant.
int64_t iterationsOf(AffineForOp loop) {
  std::optional<uint64_t> trips = getConstantTripCount(loop);
  if (!trips)
    return 0;
  return static_cast<int64_t>(*trips) * innerIterations(*loop.getBody());
}

/// `values` with the entry at `dim` moved last.
template <typename T>
SmallVector<T> moveLast(ArrayRef<T> values, unsigned dim) {
  SmallVector<T> moved(values);
  T value = moved[dim];
  moved.erase(moved.begin() + dim);
  moved.push_back(value);
  return moved;
}

/// What one transposition made, to be undone if it does not help.
struct Transposition {
  memref::AllocOp copy;
  AffineForOp copyKernel;
  memref::DeallocOp release;
  SmallVector<std::pair<AffineLoadOp, AffineMap>> originalMaps;
  Value original;

  void undo() {
    for (auto [load, map] : originalMaps) {
      load->setOperand(load.getMemRefOperandIndex(), original);
      load->setAttr(AffineLoadOp::getMapAttrStrName(), AffineMapAttr::get(map));
    }
    release.erase();
    copyKernel.erase();
    copy.erase();
  }
};

/// Copies `memref` into a new temporary with dimension `dim` last, by a
/// kernel placed before `kernel`, and points `loads` at the copy.
Transposition transpose(AffineForOp kernel, Value memref, unsigned dim,
                        ArrayRef<AffineLoadOp> loads, unsigned index) {
  auto type = cast<MemRefType>(memref.getType());
  Location loc = kernel.getLoc();
  OpBuilder builder(kernel);
  Transposition made;
  made.original = memref;
  auto copyType = MemRefType::get(moveLast(type.getShape(), dim),
                                  type.getElementType());
  made.copy = memref::AllocOp::create(builder, loc, copyType);

  // for j in the copy's shape: copy[j] = memref[j with its last index put
  // back at `dim`].
  SmallVector<Value> ivs;
  AffineForOp outermost;
  for (int64_t extent : copyType.getShape()) {
    auto loop = AffineForOp::create(builder, loc, 0, extent);
    if (!outermost)
      outermost = loop;
    ivs.push_back(loop.getInductionVar());
    builder.setInsertionPointToStart(loop.getBody());
  }
  SmallVector<Value> source(ivs.begin(), ivs.end() - 1);
  source.insert(source.begin() + dim, ivs.back());
  Value value = AffineLoadOp::create(builder, loc, memref, source);
  AffineStoreOp::create(builder, loc, value, made.copy, ivs);
  made.copyKernel = outermost;
  auto name = kernel->getAttrOfType<StringAttr>(
      tilec::kernel::KernelName::getNameStr());
  outermost->setAttr(tilec::kernel::KernelName::getNameStr(),
                     builder.getStringAttr(name.getValue() + ".lanes_" +
                                           std::to_string(index)));
  outermost->setAttr(
      tilec::kernel::Fingerprint::getNameStr(),
      builder.getStringAttr(tilec::fingerprintKernel(outermost)));

  builder.setInsertionPointAfter(kernel);
  made.release = memref::DeallocOp::create(builder, loc, made.copy);

  for (AffineLoadOp load : loads) {
    AffineMap map = load.getAffineMap();
    made.originalMaps.push_back({load, map});
    AffineMap moved = AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                                     moveLast(map.getResults(), dim),
                                     map.getContext());
    load->setOperand(load.getMemRefOperandIndex(), made.copy);
    load->setAttr(AffineLoadOp::getMapAttrStrName(), AffineMapAttr::get(moved));
  }
  return made;
}

/// Transposes the operands that keep `kernel` scalar, if that makes it
/// vectorisable at a small enough cost.
void vectorizeByTransposing(AffineForOp kernel) {
  std::optional<KernelNest> nest = tilec::transforms::matchKernelNest(kernel);
  if (!nest || nest->vectorizable)
    return;
  int64_t iterations = iterationsOf(kernel);
  SmallVector<Transposition> made;
  for (auto &[memref, operand] : stridedOperands(kernel, nest->laneIV())) {
    auto type = cast<MemRefType>(memref.getType());
    if (iterations == 0 ||
        type.getNumElements() * kIterationsPerCopiedElement > iterations)
      continue;
    made.push_back(transpose(kernel, memref, *operand.laneDim, operand.loads,
                             made.size()));
  }
  if (made.empty())
    return;
  nest = tilec::transforms::matchKernelNest(kernel);
  if (nest && nest->vectorizable)
    return;
  for (Transposition &transposition : llvm::reverse(made))
    transposition.undo();
}

struct TransposeLaneOperandsPass
    : public tilec::impl::TransposeLaneOperandsPassBase<
          TransposeLaneOperandsPass> {
  void runOnOperation() override {
    SmallVector<AffineForOp> kernels;
    for (auto loop : getOperation().getBody().getOps<AffineForOp>())
      if (loop->hasAttr(tilec::kernel::KernelName::getNameStr()))
        kernels.push_back(loop);
    for (AffineForOp kernel : kernels)
      vectorizeByTransposing(kernel);
  }
};

} // namespace
