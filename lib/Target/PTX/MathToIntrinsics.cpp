//===- MathToIntrinsics.cpp - tilec-ptx-math-to-intrinsics ----------------===//
//
// The math ops NVPTX computes exactly, as calls of LLVM intrinsics rather
// than of libdevice (Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/TypeSwitch.h"

namespace tilec {
#define GEN_PASS_DEF_TILECPTXMATHTOINTRINSICSPASS
#include "tilec/Target/PTX/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// The LLVM intrinsic that computes `op`, or "" for an op this pass does
/// not know.
llvm::StringRef intrinsicFor(Operation *op) {
  return llvm::TypeSwitch<Operation *, llvm::StringRef>(op)
      .Case<math::SqrtOp>([](auto) { return "llvm.sqrt"; })
      .Case<math::FloorOp>([](auto) { return "llvm.floor"; })
      .Case<math::CeilOp>([](auto) { return "llvm.ceil"; })
      .Case<math::AbsFOp>([](auto) { return "llvm.fabs"; })
      .Case<math::RoundOp>([](auto) { return "llvm.round"; })
      .Case<math::RoundEvenOp>([](auto) { return "llvm.roundeven"; })
      .Case<math::TruncOp>([](auto) { return "llvm.trunc"; })
      .Case<math::CopySignOp>([](auto) { return "llvm.copysign"; })
      .Case<math::FmaOp>([](auto) { return "llvm.fma"; })
      .Case<arith::MaxNumFOp>([](auto) { return "llvm.maxnum"; })
      .Case<arith::MinNumFOp>([](auto) { return "llvm.minnum"; })
      .Case<arith::MaximumFOp>([](auto) { return "llvm.maximum"; })
      .Case<arith::MinimumFOp>([](auto) { return "llvm.minimum"; })
      .Default([](Operation *) { return ""; });
}

struct MathToIntrinsicsPass
    : tilec::impl::TilecPTXMathToIntrinsicsPassBase<MathToIntrinsicsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<math::MathDialect>(op->getDialect()) ||
          isa<arith::MaxNumFOp, arith::MinNumFOp, arith::MaximumFOp,
              arith::MinimumFOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      llvm::StringRef intrinsic = intrinsicFor(op);
      if (intrinsic.empty()) {
        op->emitError("'") << op->getName()
                           << "' has no PTX lowering without libdevice";
        return signalPassFailure();
      }
      OpBuilder b(op);
      auto call = LLVM::CallIntrinsicOp::create(
          b, op->getLoc(), op->getResult(0).getType(),
          b.getStringAttr(intrinsic), op->getOperands());
      op->getResult(0).replaceAllUsesWith(call.getResult(0));
      op->erase();
    }
  }
};

} // namespace
