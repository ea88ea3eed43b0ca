//===- FingerprintKernelsPass.cpp - Attach tilec.fingerprint to kernels ---===//
//
// tilec-kernel-fingerprint-kernels: a kernel's fingerprint
// (docs/architecture.md, "Schedules and autotuning") hashes its canonical
// loop-level form: the generic printed form of the nest, without locations
// or tilec attributes (names, schedules), inside a function whose arguments
// stand for the values the nest uses from outside (its buffers), numbered in
// order of first use; constants defined outside are copied in.
// Shapes, element types, index maps, guards and the aggregation's
// arithmetic are all in that text, and so is which operands are one buffer
// (A * A reads one argument twice, A * B two); names and source positions
// are not.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Transforms/Passes.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"

#define DEBUG_TYPE "tilec-kernel-fingerprint-kernels"

namespace tilec {
#define GEN_PASS_DEF_FINGERPRINTKERNELSPASS
#include "tilec/Dialect/Kernel/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// The values used inside `op` but defined outside it, in order of first
/// use.
static SmallVector<Value> externalValues(Operation *op) {
  SmallVector<Value> values;
  llvm::SmallDenseSet<Value> seen;
  op->walk<WalkOrder::PreOrder>([&](Operation *inner) {
    for (Value operand : inner->getOperands()) {
      Region *region = operand.getParentRegion();
      bool isInside = region && op->isAncestor(region->getParentOp());
      if (!isInside && seen.insert(operand).second)
        values.push_back(operand);
    }
  });
  return values;
}

/// The canonical text of kernel `op`.
static std::string canonicalForm(Operation *op) {
  // A copy of the nest in a function that takes its outside values as
  // arguments, so that they print by position and type, not by name.
  // Constants from outside are copied in: their values matter.
  SmallVector<Value> buffers, constants;
  for (Value v : externalValues(op)) {
    Operation *def = v.getDefiningOp();
    (def && def->hasTrait<OpTrait::ConstantLike>() ? constants : buffers)
        .push_back(v);
  }
  MLIRContext *ctx = op->getContext();
  auto holder = func::FuncOp::create(
      UnknownLoc::get(ctx), "kernel",
      FunctionType::get(ctx, ValueRange(buffers).getTypes(), {}));
  Block *body = holder.addEntryBlock();
  IRMapping mapping;
  for (auto [value, arg] : llvm::zip(buffers, body->getArguments()))
    mapping.map(value, arg);
  OpBuilder builder = OpBuilder::atBlockEnd(body);
  for (Value constant : constants)
    builder.clone(*constant.getDefiningOp(), mapping);
  Operation *copy = builder.clone(*op, mapping);
  // Attributes of ours name or schedule a kernel; none changes what it
  // computes.
  copy->walk([](Operation *inner) {
    for (NamedAttribute attr : llvm::to_vector(inner->getAttrs()))
      if (kernel::isKernelDialectName(attr.getName().strref()))
        inner->removeAttr(attr.getName());
  });
  std::string text;
  llvm::raw_string_ostream os(text);
  holder->print(os, OpPrintingFlags().printGenericOpForm().enableDebugInfo(
                        false));
  holder->destroy();
  return text;
}

std::string tilec::fingerprintKernel(Operation *op) {
  uint64_t hash = llvm::xxh3_64bits(canonicalForm(op));
  std::string hex;
  llvm::raw_string_ostream(hex) << llvm::format_hex_no_prefix(hash, 16);
  return hex;
}

namespace {
struct FingerprintKernelsPass
    : tilec::impl::FingerprintKernelsPassBase<FingerprintKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    for (Operation &op : func.getBody().getOps()) {
      if (!kernel::KernelName(&getContext()).isAttrPresent(&op))
        continue;
      kernel::Fingerprint(&getContext())
          .setAttr(&op, StringAttr::get(&getContext(), fingerprintKernel(&op)));
    }
  }
};
} // namespace
