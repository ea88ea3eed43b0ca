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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

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

/// x / y as PTX's div.full.f32: within 2 ulps over the whole range (the
/// interpreter's bound grants division 2.5, OpenCL 1.2's accuracy), where
/// the IEEE div.rn.f32 that NVPTX selects is a long sequence with a slow
/// path, which made row normalisations (softmax, layer norm) slower than
/// NVIDIA's OpenCL, whose division is approximate too.
Value fullRangeDivide(OpBuilder &b, Location loc, Value x, Value y) {
  return LLVM::InlineAsmOp::create(
             b, loc, b.getF32Type(), ValueRange{x, y},
             b.getStringAttr("div.full.f32 $0, $1, $2;"),
             b.getStringAttr("=f,f,f"), /*has_side_effects=*/nullptr,
             /*is_align_stack=*/nullptr, LLVM::TailCallKindAttr(),
             /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr)
      .getResult(0);
}

/// Rewrites an f32 (or vector of f32, lane by lane) arith.divf.
void rewriteDivision(arith::DivFOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value result;
  if (auto vector = dyn_cast<VectorType>(op.getType())) {
    SmallVector<Value> lanes;
    for (int64_t i = 0; i < vector.getNumElements(); ++i)
      lanes.push_back(fullRangeDivide(
          b, loc, vector::ExtractOp::create(b, loc, op.getLhs(), i),
          vector::ExtractOp::create(b, loc, op.getRhs(), i)));
    result = vector::FromElementsOp::create(b, loc, vector, lanes);
  } else {
    result = fullRangeDivide(b, loc, op.getLhs(), op.getRhs());
  }
  op.replaceAllUsesWith(result);
  op.erase();
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
    SmallVector<arith::DivFOp> divisions;
    getOperation().walk([&](arith::DivFOp op) {
      if (getElementTypeOrSelf(op.getType()).isF32())
        divisions.push_back(op);
    });
    for (arith::DivFOp op : divisions)
      rewriteDivision(op);
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
