//===- FuseRowChains.cpp - One row nest per chain of row kernels ----------===//
//
// Softmax in Tile is four statements, and so four kernels at the loop
// level: a row maximum, exp(L - max), a row sum, the division. Each reads
// or writes the whole matrix, and the reductions run one row per
// work-item, which reads memory with a stride of a row: about a tenth of
// the bandwidth a softmax needs. On a GPU the chain belongs in one kernel
// with one work-group per row (../shared/design/GPU-CPU-TILING.md, §5):
// the row is read once, kept in registers, reduced by the work-group, and
// written once. On a CPU the same nest keeps the row in L1 between its
// steps, and its temporaries become one row each (tilec-cpu-row-kernels).
//
// fuseRowChains builds that kernel's nest: from each row reduction on, it
// takes the kernels that follow it over the same rows (reductions over
// columns of the same length, loops over those columns, work on row
// scalars), as long as the result is a row nest (RowNest.h: no work-item
// would read a column another wrote), and makes one nest of them, the row
// loops shared and each kernel's row body in order inside. A lone row
// reduction becomes such a nest too. The rows of different kernels were
// independent before (each kernel's rows write disjoint parts of what the
// later ones read at the same row), so one row's work in order is the same
// computation. The fused nest is named after its first and last kernels
// and fingerprinted afresh (as tilec-kernel-fingerprint-kernels would).
//
// Only nests without a schedule take part: a schedule was chosen for the
// kernel as it stood.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Transforms/FuseRowChains.h"

#include "tilec/Dialect/Kernel/Transforms/ComposeAccesses.h"
#include "tilec/Dialect/Kernel/Analysis/ContractionNest.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/Analysis/RowNest.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Kernel/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::affine;
using namespace tilec;

namespace {

/// A kernel nest seen as one part of a row chain.
struct RowPart {
  AffineForOp kernel;
  SmallVector<AffineForOp> band;
  /// How many band loops are rows; the rest is the columns loop or loops
  /// of one iteration.
  unsigned rowCount = 0;
};

bool fromZeroUnitStep(AffineForOp loop) {
  return loop.hasConstantBounds() && loop.getConstantLowerBound() == 0 &&
         loop.getStepAsInt() == 1;
}

/// The one reduction loop directly in `body`, if it has one.
AffineForOp reductionIn(Block *body) {
  AffineForOp found;
  for (Operation &op : body->without_terminator()) {
    auto loop = dyn_cast<AffineForOp>(op);
    if (!loop)
      continue;
    if (found || loop.getNumIterOperands() != 1 || !fromZeroUnitStep(loop))
      return {};
    found = loop;
  }
  return found;
}

/// Whether `kernel` is a contraction with a free loop on each side (a
/// matmul), which the outer-product tiling maps with reuse that a
/// work-group per output cannot have.
bool takesOuterProducts(AffineForOp kernel, ArrayRef<AffineForOp> band) {
  std::optional<ContractionNest> nest = matchContractionNest(kernel, band);
  return nest && llvm::is_contained(nest->roles, BandRole::Free0) &&
         llvm::is_contained(nest->roles, BandRole::Free1);
}

/// `kernel` as the first part of a chain: a row reduction (its band the
/// rows, then loops of one iteration, then the reduction); with the length
/// of its rows.
std::optional<std::pair<RowPart, int64_t>> startingPart(AffineForOp kernel) {
  RowPart part{kernel, getParallelBand(kernel)};
  if (part.band.empty() || !llvm::all_of(part.band, fromZeroUnitStep))
    return std::nullopt;
  unsigned rows = part.band.size();
  while (rows > 0 && part.band[rows - 1].getConstantUpperBound() == 1)
    --rows;
  AffineForOp reduction = reductionIn(part.band.back().getBody());
  if (rows == 0 || !reduction ||
      reduction.getConstantUpperBound() < kMinRowColumns ||
      takesOuterProducts(kernel, part.band))
    return std::nullopt;
  part.rowCount = rows;
  return std::make_pair(part, reduction.getConstantUpperBound());
}

/// `kernel` as a later part of a chain over rows of `rowExtents` and
/// `columns` columns: a reduction, a loop over the columns, or row scalars.
std::optional<RowPart> laterPart(AffineForOp kernel,
                                 ArrayRef<int64_t> rowExtents,
                                 int64_t columns) {
  RowPart part{kernel, getParallelBand(kernel)};
  unsigned rows = rowExtents.size();
  if (part.band.size() < rows || !llvm::all_of(part.band, fromZeroUnitStep))
    return std::nullopt;
  for (unsigned r = 0; r < rows; ++r)
    if (part.band[r].getConstantUpperBound() != rowExtents[r])
      return std::nullopt;
  part.rowCount = rows;
  SmallVector<AffineForOp> tail(ArrayRef(part.band).drop_front(rows));
  bool unitTail = llvm::all_of(tail, [](AffineForOp loop) {
    return loop.getConstantUpperBound() == 1;
  });
  if (!unitTail) {
    // The columns loop itself, innermost.
    if (tail.size() != 1 || tail[0].getConstantUpperBound() != columns)
      return std::nullopt;
    return part;
  }
  return part;
}

/// Builds the nest of `parts` before the last of them; returns its root.
AffineForOp buildFusedNest(ArrayRef<RowPart> parts) {
  AffineForOp last = parts.back().kernel;
  RowPart first = parts.front();
  Location loc = last.getLoc();
  OpBuilder b(last);
  SmallVector<AffineForOp> rows;
  for (unsigned r = 0; r < first.rowCount; ++r) {
    rows.push_back(
        AffineForOp::create(b, loc, 0, first.band[r].getConstantUpperBound()));
    b.setInsertionPointToStart(rows.back().getBody());
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (RowPart part : parts) {
    IRMapping mapping;
    for (unsigned r = 0; r < part.rowCount; ++r)
      mapping.map(part.band[r].getInductionVar(), rows[r].getInductionVar());
    SmallVector<AffineForOp> tail(ArrayRef(part.band).drop_front(part.rowCount));
    if (!tail.empty() && tail.back().getConstantUpperBound() != 1) {
      b.clone(*tail.back(), mapping); // the columns loop
      continue;
    }
    for (AffineForOp unit : tail)
      mapping.map(unit.getInductionVar(), zero);
    for (Operation &op : part.band.back().getBody()->without_terminator())
      b.clone(op, mapping);
  }
  // The constant indices of the loops of one iteration go into the maps.
  composeAccesses(rows.front());
  if (zero.use_empty())
    zero.getDefiningOp()->erase();

  auto nameOf = [](AffineForOp kernel) {
    return kernel->getAttrOfType<StringAttr>(
                     tilec::kernel::KernelName::getNameStr())
        .getValue();
  };
  std::string name = nameOf(first.kernel).str();
  if (parts.size() > 1)
    name += ".." + nameOf(last).str();
  rows.front()->setAttr(tilec::kernel::KernelName::getNameStr(),
                        b.getStringAttr(name));
  return rows.front();
}

/// Whether the ops between the kernels of a chain may stay before the
/// fused nest, which takes the last kernel's place: buffers and constants.
bool onlyDefinitions(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (!isa<memref::AllocOp, arith::ConstantOp>(op))
      return false;
  return true;
}

/// Whether `nest` is a row nest that `accept` takes.
bool acceptable(AffineForOp nest, RowNestFilter accept) {
  std::optional<RowNest> row = matchRowNest(nest, getParallelBand(nest));
  return row && (!accept || accept(*row));
}

/// Fuses the longest row chain that starts at `start` that `accept` takes;
/// returns the op after what it replaced (or after `start` when nothing was
/// fused), and the fused nest in `fusedOut` (null when there is none).
Operation *fuseFrom(AffineForOp start, RowNestFilter accept,
                    AffineForOp &fusedOut) {
  fusedOut = {};
  std::optional<std::pair<RowPart, int64_t>> first = startingPart(start);
  if (!first)
    return start->getNextNode();
  auto [firstPart, columns] = *first;
  SmallVector<int64_t> rowExtents;
  for (unsigned r = 0; r < firstPart.rowCount; ++r)
    rowExtents.push_back(firstPart.band[r].getConstantUpperBound());

  SmallVector<RowPart> parts{firstPart};
  AffineForOp fused = buildFusedNest(parts);
  if (!acceptable(fused, accept)) {
    fused.erase();
    return start->getNextNode();
  }
  for (Operation *op = start->getNextNode(); op; op = op->getNextNode()) {
    auto kernel = dyn_cast<AffineForOp>(op);
    if (!kernel || !kernel->hasAttr(tilec::kernel::KernelName::getNameStr()))
      continue;
    if (kernel->hasAttr(tilec::kernel::Schedule::getNameStr()) ||
        !onlyDefinitions(parts.back().kernel, kernel))
      break;
    std::optional<RowPart> next = laterPart(kernel, rowExtents, columns);
    if (!next)
      break;
    parts.push_back(*next);
    AffineForOp longer = buildFusedNest(parts);
    if (!acceptable(longer, accept)) {
      longer.erase();
      parts.pop_back();
      break;
    }
    fused.erase();
    fused = longer;
  }
  // The fused nest already sits in the last part's place.
  fused->setAttr(tilec::kernel::Fingerprint::getNameStr(),
                 StringAttr::get(fused.getContext(), fingerprintKernel(fused)));
  Operation *after = parts.back().kernel->getNextNode();
  for (RowPart part : parts)
    part.kernel.erase();
  fusedOut = fused;
  return after;
}

} // namespace

SmallVector<AffineForOp> tilec::fuseRowChains(func::FuncOp function,
                                              RowNestFilter accept) {
  SmallVector<AffineForOp> fusedNests;
  if (function.isExternal())
    return fusedNests;
  Block &body = function.getBody().front();
  for (Operation *op = &body.front(); op;) {
    auto kernel = dyn_cast<AffineForOp>(op);
    if (!kernel || !kernel->hasAttr(tilec::kernel::KernelName::getNameStr()) ||
        kernel->hasAttr(tilec::kernel::Schedule::getNameStr())) {
      op = op->getNextNode();
      continue;
    }
    AffineForOp fused;
    op = fuseFrom(kernel, accept, fused);
    if (fused)
      fusedNests.push_back(fused);
  }
  return fusedNests;
}
