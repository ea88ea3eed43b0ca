//===- SpeculateGuardedLoads.cpp - tilec-gpu-speculate-guarded-loads -----===//
//
// scf.if %c { a; x = load m[i]; yield f(x) } else { yield y } becomes
//   a; x = load m[i * c]; select(c, f(x), y)
// when every op of both regions is pure or a load of a statically shaped,
// non-empty memref: index 0 of such a memref exists, so the load is safe
// whatever %c is, and the select keeps the value the if would have given.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUSPECULATEGUARDEDLOADSPASS
#include "tilec/Target/GPU/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// Whether `load` reads a memref whose element 0 exists.
bool hasElementZero(memref::LoadOp load) {
  MemRefType type = load.getMemRefType();
  return type.hasStaticShape() && type.getNumElements() > 0;
}

/// Whether every op of `block` (its terminator aside) can run whatever the
/// condition: pure, or a load that speculate() makes safe.
bool canSpeculate(Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (op.getNumRegions() != 0)
      return false;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (!hasElementZero(load))
        return false;
      continue;
    }
    if (!isPure(&op))
      return false;
  }
  return true;
}

/// Clones `block`'s ops before `builder`'s point, each load reading index
/// i * `taken` (`taken`: 1 where the block would run, else 0); returns the
/// values it yields.
SmallVector<Value> speculate(OpBuilder &builder, Block &block, Value taken) {
  IRMapping mapping;
  for (Operation &op : block.without_terminator()) {
    Operation *copy = builder.clone(op, mapping);
    auto load = dyn_cast<memref::LoadOp>(copy);
    if (!load)
      continue;
    OpBuilder beforeLoad(load);
    SmallVector<Value> indices;
    for (Value index : load.getIndices())
      indices.push_back(
          arith::MulIOp::create(beforeLoad, load.getLoc(), index, taken));
    load.getIndicesMutable().assign(indices);
  }
  SmallVector<Value> yielded;
  for (Value value : block.getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(value));
  return yielded;
}

class SpeculateGuardedLoads
    : public tilec::impl::TilecGPUSpeculateGuardedLoadsPassBase<
          SpeculateGuardedLoads> {
public:
  void runOnOperation() override {
    SmallVector<scf::IfOp> ifs;
    getOperation()->walk([&](gpu::GPUFuncOp kernel) {
      kernel.walk([&](scf::IfOp op) {
        if (op.getNumResults() > 0 && !op.getElseRegion().empty() &&
            canSpeculate(*op.thenBlock()) && canSpeculate(*op.elseBlock()))
          ifs.push_back(op);
      });
    });
    for (scf::IfOp op : ifs) {
      OpBuilder builder(op);
      Location loc = op.getLoc();
      Value condition = op.getCondition();
      Value notCondition = arith::XOrIOp::create(
          builder, loc, condition,
          arith::ConstantIntOp::create(builder, loc, 1, 1));
      auto asIndex = [&](Value flag) -> Value {
        return arith::IndexCastUIOp::create(builder, loc,
                                            builder.getIndexType(), flag);
      };
      SmallVector<Value> thenValues =
          speculate(builder, *op.thenBlock(), asIndex(condition));
      SmallVector<Value> elseValues =
          speculate(builder, *op.elseBlock(), asIndex(notCondition));
      SmallVector<Value> results;
      for (auto [a, b] : llvm::zip(thenValues, elseValues))
        results.push_back(
            arith::SelectOp::create(builder, loc, condition, a, b));
      op.replaceAllUsesWith(results);
      op.erase();
    }
  }
};

} // namespace
