//===- RowKernels.cpp - tilec-cpu-row-kernels -----------------------------===//
//
// The row kernels tilec-cpu-fuse-rows made, readied to run: the
// temporaries only the kernel uses shrink to one row on the thread's stack,
// so they never reach memory; the steps over the columns run on vectors
// (ColumnVectorizer.h); the row loop runs on threads.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/Transforms/Passes.h"

#include "ColumnVectorizer.h"

#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/Analysis/RowNest.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/SetVector.h"

namespace tilec {
#define GEN_PASS_DEF_ROWKERNELSPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace mlir::affine;
using namespace tilec;
using namespace tilec::transforms;

namespace {

/// The most bytes of row temporaries one row keeps on its thread's stack
/// (OpenMP's worker threads have a few MiB of it).
constexpr int64_t kMaxPrivateRowBytes = 64 * 1024;
/// Vector accumulators per reduction: enough to cover the add's latency
/// with the row in L1 (two loads per cycle, four cycles per add).
constexpr int64_t kReductionAccumulators = 4;

/// The buffers of `nest` (in program order) that hold a column per row and
/// that nothing outside `fused` uses but a dealloc: each row needs only its
/// own row of them.
SmallVector<memref::AllocOp> rowTemporaries(const RowNest &nest,
                                            AffineForOp fused) {
  llvm::SetVector<Value> stored;
  fused.walk([&](AffineStoreOp store) { stored.insert(store.getMemRef()); });
  SmallVector<memref::AllocOp> temporaries;
  for (Value buffer : stored) {
    auto alloc = buffer.getDefiningOp<memref::AllocOp>();
    auto use = nest.written.find(buffer);
    if (!alloc || use == nest.written.end() ||
        use->second != RowBuffer::Columns ||
        alloc->getBlock() != fused->getBlock() ||
        !alloc.getType().getLayout().isIdentity())
      continue;
    bool onlyHere = llvm::all_of(alloc->getUsers(), [&](Operation *user) {
      return isa<memref::DeallocOp>(user) || fused->isAncestor(user);
    });
    if (onlyHere)
      temporaries.push_back(alloc);
  }
  return temporaries;
}

/// The accesses of `fused` to `buffer` read `row` instead: the row indices
/// dropped, the column kept.
void redirectToRow(AffineForOp fused, Value buffer, Value row) {
  SmallVector<Operation *> accesses;
  fused.walk([&](Operation *op) {
    if (isa<AffineLoadOp, AffineStoreOp>(op) &&
        llvm::is_contained(op->getOperands(), buffer))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    OpBuilder b(op);
    auto columnOnly = [](AffineMap map) {
      return AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                            map.getResults().back());
    };
    if (auto load = dyn_cast<AffineLoadOp>(op)) {
      Value value =
          AffineLoadOp::create(b, load.getLoc(), row,
                               columnOnly(load.getAffineMap()),
                               load.getMapOperands());
      load.replaceAllUsesWith(value);
    } else {
      auto store = cast<AffineStoreOp>(op);
      AffineStoreOp::create(b, store.getLoc(), store.getValueToStore(), row,
                            columnOnly(store.getAffineMap()),
                            store.getMapOperands());
    }
    op->erase();
  }
}

/// Gives each row temporary of `nest` one row on the stack, inside a
/// memref.alloca_scope around the row's body (so that a loop of rows does
/// not grow the stack). Returns whether it made any.
bool privatizeRowTemporaries(const RowNest &nest, AffineForOp fused) {
  Block *rowBody = AffineForOp(nest.rows.back()).getBody();
  OpBuilder b = OpBuilder::atBlockBegin(rowBody);
  int64_t budget = kMaxPrivateRowBytes;
  bool made = false;
  for (memref::AllocOp alloc : rowTemporaries(nest, fused)) {
    Type element = alloc.getType().getElementType();
    int64_t bytes =
        nest.columns * llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
    if (bytes > budget)
      continue;
    budget -= bytes;
    Value row = memref::AllocaOp::create(
        b, alloc.getLoc(), MemRefType::get({nest.columns}, element),
        ValueRange{}, b.getI64IntegerAttr(64));
    redirectToRow(fused, alloc.getResult(), row);
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      user->erase(); // the deallocs
    alloc.erase();
    made = true;
  }
  return made;
}

/// Moves the body of `row` (terminator aside) into a memref.alloca_scope.
void scopeRowBody(AffineForOp row) {
  Block *body = row.getBody();
  OpBuilder b = OpBuilder::atBlockBegin(body);
  auto scope = memref::AllocaScopeOp::create(b, row.getLoc(), TypeRange{});
  Block *inner = new Block();
  scope.getBodyRegion().push_back(inner);
  inner->getOperations().splice(inner->end(), body->getOperations(),
                                std::next(scope->getIterator()),
                                std::prev(body->end()));
  b.setInsertionPointToEnd(inner);
  memref::AllocaScopeReturnOp::create(b, row.getLoc());
}

/// Whether `kernel` can still be rewritten here: tilec-cpu-fuse-rows made it
/// and no schedule was given to it since.
bool isRowKernel(Operation &op) {
  return tilec::kernel::RowKernel(op.getContext()).isAttrPresent(&op) &&
         !op.hasAttr(tilec::kernel::Schedule::getNameStr());
}

struct RowKernelsPass
    : public tilec::impl::RowKernelsPassBase<RowKernelsPass> {
  using RowKernelsPassBase::RowKernelsPassBase;

  void runOnOperation() override {
    int64_t bytes = transforms::vectorBytesOrHost(vectorBytes);
    SmallVector<AffineForOp> kernels;
    for (Operation &op : getOperation().getBody().getOps())
      if (auto kernel = dyn_cast<AffineForOp>(op); kernel && isRowKernel(op))
        kernels.push_back(kernel);
    for (AffineForOp kernel : kernels) {
      std::optional<RowNest> nest =
          matchRowNest(kernel, getParallelBand(kernel));
      // Vectorised already (the JIT runs the pipeline on the compiled
      // loop level), or made for a wider vector than this CPU's.
      if (!nest || !rowNestVectorizes(*nest, bytes))
        continue;
      bool scoped = privatizeRowTemporaries(*nest, kernel);
      for (const RowStep &step : nest->steps)
        if (AffineForOp loop = columnsLoopOf(step))
          vectorizeColumns(loop, step.aggregate,
                           *columnLanes(loop, step.aggregate, bytes),
                           kReductionAccumulators);
      if (scoped)
        scopeRowBody(nest->rows.back());
      // Rows are independent by construction: no dependence check needed.
      kernel->setAttr(tilec::kernel::Parallel::getNameStr(),
                      UnitAttr::get(kernel.getContext()));
    }
  }
};

} // namespace
