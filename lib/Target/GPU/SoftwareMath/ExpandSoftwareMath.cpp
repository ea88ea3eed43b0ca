//===- ExpandSoftwareMath.cpp - tilec-gpu-expand-software-math ------------===//
//
// GLSL.std.450 defines Exp, Log, Sin, Atan, Pow, ... on 16- and 32-bit
// floats only, and NVIDIA's accurate versions come in libdevice, a part of
// the CUDA toolkit that tilec does not need. As GPU math libraries do, the
// kernel computes them in software instead: each such math op on f64 (or a
// vector of f64, one lane at a time) becomes the arith ops of F64Math.h,
// accurate to a few ulps, with C's results for the special values. The math
// ops every GPU has exactly (abs, floor, sqrt, ...) stay.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/Passes.h"

#include "F64Math.h"

#include "tilec/Target/Math/F32Math.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/TypeSwitch.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUEXPANDSOFTWAREMATHPASS
#include "tilec/Target/GPU/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec::f64math;

namespace {

using Unary = Value (*)(MathBuilder &, Value);

/// The expansion of a unary math op, or null if it is not one of them.
Unary unaryExpansion(Operation *op) {
  return llvm::TypeSwitch<Operation *, Unary>(op)
      .Case<math::ExpOp>([](auto) { return &buildExp; })
      .Case<math::LogOp>([](auto) { return &buildLog; })
      .Case<math::SinOp>([](auto) { return &buildSin; })
      .Case<math::CosOp>([](auto) { return &buildCos; })
      .Case<math::TanOp>([](auto) { return &buildTan; })
      .Case<math::AsinOp>([](auto) { return &buildAsin; })
      .Case<math::AcosOp>([](auto) { return &buildAcos; })
      .Case<math::AtanOp>([](auto) { return &buildAtan; })
      .Case<math::SinhOp>([](auto) { return &buildSinh; })
      .Case<math::CoshOp>([](auto) { return &buildCosh; })
      .Case<math::TanhOp>([](auto) { return &buildTanh; })
      .Case<math::AsinhOp>([](auto) { return &buildAsinh; })
      .Case<math::AcoshOp>([](auto) { return &buildAcosh; })
      .Case<math::AtanhOp>([](auto) { return &buildAtanh; })
      .Default([](Operation *) { return nullptr; });
}

bool isF64(Type type) { return getElementTypeOrSelf(type).isF64(); }
bool isF32(Type type) { return getElementTypeOrSelf(type).isF32(); }

/// The scalar result of `op` on scalar f64 operands.
Value expandScalar(MathBuilder &b, Operation *op, ValueRange operands) {
  if (isa<math::PowFOp>(op))
    return buildPow(b, operands[0], operands[1]);
  return unaryExpansion(op)(b, operands[0]);
}

/// Whether `op` is an exp of f32, which is computed in f32 (F32Math.h).
bool isF32Exp(Operation *op) {
  return isa<math::ExpOp>(op) && isF32(op->getResult(0).getType());
}

/// The scalar result of `op` on scalar operands of its own type: f64
/// directly, exp of f32 in f32, the other f32 functions in f64 and rounded
/// once (as the interpreter computes).
Value expandLane(OpBuilder &builder, MathBuilder &b, Operation *op,
                 ValueRange operands) {
  if (!isF32(op->getResult(0).getType()))
    return expandScalar(b, op, operands);
  if (isF32Exp(op))
    return tilec::f32math::buildExp(builder, op->getLoc(), operands[0]);
  SmallVector<Value> wide;
  for (Value operand : operands)
    wide.push_back(arith::ExtFOp::create(builder, op->getLoc(),
                                         builder.getF64Type(), operand));
  return arith::TruncFOp::create(builder, op->getLoc(), builder.getF32Type(),
                                 expandScalar(b, op, wide));
}

} // namespace

bool tilec::f64math::isSoftwareF64MathOp(Operation *op) {
  return (unaryExpansion(op) || isa<math::PowFOp>(op)) &&
         op->getNumResults() == 1 && isF64(op->getResult(0).getType());
}

namespace {

struct ExpandSoftwareMathPass
    : tilec::impl::TilecGPUExpandSoftwareMathPassBase<ExpandSoftwareMathPass> {
  using TilecGPUExpandSoftwareMathPassBase::TilecGPUExpandSoftwareMathPassBase;

  void runOnOperation() override {
    // f32 too where the device can: GLSL.std.450's f32 functions are as
    // loose as Vulkan allows (4096 ulps for atan, sinh only absolutely
    // accurate, sin of a large argument anything in [-1, 1]), and lavapipe
    // uses that freedom; PTX has only approximations (ex2.approx, ...).
    tilec::schedule::DeviceProfile device =
        tilec::kernel::getGPUTarget(getOperation());
    bool f32InF64 = f32Math && device.fp64 && device.int64;
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isSoftwareF64MathOp(op) || (f32Math && isF32Exp(op)) ||
          (f32InF64 && (unaryExpansion(op) || isa<math::PowFOp>(op)) &&
           op->getNumResults() == 1 && isF32(op->getResult(0).getType())))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder builder(op);
      Location loc = op->getLoc();
      MathBuilder b(builder, loc);
      auto vector = dyn_cast<VectorType>(op->getResult(0).getType());
      Value result;
      if (!vector) {
        result = expandLane(builder, b, op, op->getOperands());
      } else {
        // One lane at a time: the expansions are scalar code.
        SmallVector<Value> lanes;
        for (int64_t i = 0; i < vector.getNumElements(); ++i) {
          SmallVector<Value> operands;
          for (Value operand : op->getOperands())
            operands.push_back(
                vector::ExtractOp::create(builder, loc, operand, i));
          lanes.push_back(expandLane(builder, b, op, operands));
        }
        result = vector::FromElementsOp::create(builder, loc, vector, lanes);
      }
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace
