//===- F32Builder.h - arith ops on f32 scalars or vectors alike -*- C++ -*-===//
//
// What the f32 functions of F32Math.h build with: every op on the shape of
// the argument, so one expansion serves a scalar and a vector.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_MATH_F32BUILDER_H
#define TILEC_LIB_TARGET_MATH_F32BUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tilec::f32math {

/// Builds ops on values shaped as `like` (an f32 or a vector of f32): its
/// constants are splats of that shape, its integers i32 of that shape.
class F32Builder {
public:
  F32Builder(mlir::OpBuilder &b, mlir::Location loc, mlir::Type like)
      : b(b), loc(loc), f32Type(like),
        i32Type(shaped(like, b.getI32Type())) {}
  mlir::Value c(float value) {
    return constant(f32Type, b.getF32FloatAttr(value));
  }
  mlir::Value ci(int32_t value) {
    return constant(i32Type, b.getI32IntegerAttr(value));
  }
  mlir::Value fma(mlir::Value x, mlir::Value y, mlir::Value z) {
    return mlir::math::FmaOp::create(b, loc, x, y, z);
  }
  mlir::Value mul(mlir::Value x, mlir::Value y) { return mlir::arith::MulFOp::create(b, loc, x, y); }
  mlir::Value cmp(mlir::arith::CmpFPredicate p, mlir::Value x, mlir::Value y) {
    return mlir::arith::CmpFOp::create(b, loc, p, x, y);
  }
  mlir::Value add(mlir::Value x, mlir::Value y) { return mlir::arith::AddFOp::create(b, loc, x, y); }
  mlir::Value sub(mlir::Value x, mlir::Value y) { return mlir::arith::SubFOp::create(b, loc, x, y); }
  mlir::Value div(mlir::Value x, mlir::Value y) { return mlir::arith::DivFOp::create(b, loc, x, y); }
  mlir::Value abs(mlir::Value x) { return mlir::math::AbsFOp::create(b, loc, x); }
  mlir::Value copySign(mlir::Value magnitude, mlir::Value sign) {
    return mlir::math::CopySignOp::create(b, loc, magnitude, sign);
  }
  /// p(u) for the coefficients `highestFirst`, by Horner with fmas.
  mlir::Value horner(mlir::Value u, llvm::ArrayRef<float> highestFirst) {
    mlir::Value p = c(highestFirst.front());
    for (float coefficient : highestFirst.drop_front())
      p = fma(p, u, c(coefficient));
    return p;
  }
  mlir::Value select(mlir::Value c, mlir::Value x, mlir::Value y) {
    return mlir::arith::SelectOp::create(b, loc, c, x, y);
  }
  /// 2^n for an i32 n in [-126, 127], from its bits.
  mlir::Value powerOfTwo(mlir::Value n) {
    mlir::Value biased = mlir::arith::AddIOp::create(b, loc, n, ci(127));
    mlir::Value bits = mlir::arith::ShLIOp::create(b, loc, biased, ci(23));
    return mlir::arith::BitcastOp::create(b, loc, f32Type, bits);
  }
  mlir::Value toI32(mlir::Value x) { return mlir::arith::FPToSIOp::create(b, loc, i32Type, x); }

private:
  static mlir::Type shaped(mlir::Type like, mlir::Type element) {
    if (auto vector = mlir::dyn_cast<mlir::VectorType>(like))
      return vector.clone(element);
    return element;
  }
  mlir::Value constant(mlir::Type type, mlir::TypedAttr scalar) {
    if (auto vector = mlir::dyn_cast<mlir::VectorType>(type))
      return mlir::arith::ConstantOp::create(
          b, loc, mlir::DenseElementsAttr::get(vector, mlir::Attribute(scalar)));
    return mlir::arith::ConstantOp::create(b, loc, scalar);
  }

  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::Type f32Type, i32Type;
};

} // namespace tilec::f32math

#endif // TILEC_LIB_TARGET_MATH_F32BUILDER_H
