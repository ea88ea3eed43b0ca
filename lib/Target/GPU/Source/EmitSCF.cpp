//===- EmitSCF.cpp - Structured control flow as C statements --------------===//
//
// Part of SourceEmitter.h, shared by the OpenCL and GLSL targets. scf.for
// is a C `for` loop whose loop-carried values are variables declared before
// it (`acc0`) and assigned at the end of each iteration; scf.if declares its
// results before the `if` and each branch assigns them. The loop's or if's results are those variables.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/SourceEmitter.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::source;

/// Assigns the operands of `yield` to the variables of `targets`. If one
/// operand is another target (loop-carried values that swap places), all
/// are first copied, so that every assignment reads the old values.
static LogicalResult assignYield(SourceEmitter &e, scf::YieldOp yield,
                                 ValueRange targets) {
  llvm::SmallPtrSet<void *, 4> targetValues;
  for (Value target : targets)
    targetValues.insert(target.getAsOpaquePointer());
  bool copyFirst = false;
  for (auto [operand, target] : llvm::zip(yield.getOperands(), targets))
    copyFirst |= operand != target &&
                 targetValues.contains(operand.getAsOpaquePointer());
  std::vector<std::string> values;
  for (Value operand : yield.getOperands()) {
    if (!copyFirst) {
      values.push_back(e.get(operand));
      continue;
    }
    auto type = e.typeName(yield, operand.getType());
    if (failed(type))
      return failure();
    std::string name = e.freshName("next");
    e.line() << *type << " " << name << " = " << e.get(operand) << ";\n";
    values.push_back(name);
  }
  for (auto [value, target] : llvm::zip(values, targets))
    if (value != e.get(target))
      e.line() << e.get(target) << " = " << value << ";\n";
  return success();
}

static LogicalResult emitFor(SourceEmitter &e, scf::ForOp loop) {
  if (loop.getUnsignedCmp())
    return loop.emitError("scf.for with unsigned comparison cannot be "
                          "translated to ")
           << e.language();
  for (auto [init, arg, result] : llvm::zip(
           loop.getInitArgs(), loop.getRegionIterArgs(), loop.getResults())) {
    if (failed(e.define(loop, arg, e.get(init), "acc")))
      return failure();
    e.bind(result, e.get(arg));
  }
  Value iv = loop.getInductionVar();
  auto type = e.typeName(loop, iv.getType());
  if (failed(type))
    return failure();
  std::string name = e.freshName("i"), step = e.get(loop.getStep());
  e.line() << "for (" << *type << " " << name << " = "
           << e.get(loop.getLowerBound()) << "; " << name << " < "
           << e.get(loop.getUpperBound()) << "; "
           << (step == "1" ? "++" + name : name + " += " + step) << ") {\n";
  e.bind(iv, name);
  e.indent();
  Block *body = loop.getBody();
  if (failed(e.emitBlock(*body)) ||
      failed(assignYield(e, cast<scf::YieldOp>(body->getTerminator()),
                         loop.getRegionIterArgs())))
    return failure();
  e.dedent();
  e.line() << "}\n";
  return success();
}

/// Emits one branch of `op` (its ops, then its yield into `results`).
static LogicalResult emitBranch(SourceEmitter &e, Region &region,
                                ValueRange results) {
  e.indent();
  Block &block = region.front();
  if (failed(e.emitBlock(block)) ||
      failed(assignYield(e, cast<scf::YieldOp>(block.getTerminator()),
                         results)))
    return failure();
  e.dedent();
  return success();
}

static LogicalResult emitIf(SourceEmitter &e, scf::IfOp op) {
  for (Value result : op.getResults())
    if (failed(e.declare(op, result, "r")))
      return failure();
  e.line() << "if (" << e.get(op.getCondition()) << ") {\n";
  if (failed(emitBranch(e, op.getThenRegion(), op.getResults())))
    return failure();
  if (!op.getElseRegion().empty()) {
    e.line() << "} else {\n";
    if (failed(emitBranch(e, op.getElseRegion(), op.getResults())))
      return failure();
  }
  e.line() << "}\n";
  return success();
}

LogicalResult source::emitSCFOp(SourceEmitter &emitter, Operation &op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return emitFor(emitter, loop);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return emitIf(emitter, ifOp);
  return emitter.untranslatable(op);
}
