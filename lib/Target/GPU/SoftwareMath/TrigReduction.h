//===- TrigReduction.h - x mod pi/2 for f64 sin, cos and tan ----*- C++ -*-===//

#ifndef TILEC_LIB_TARGET_GPU_SOFTWAREMATH_TRIGREDUCTION_H
#define TILEC_LIB_TARGET_GPU_SOFTWAREMATH_TRIGREDUCTION_H

#include "F64MathBuilder.h"

namespace tilec::f64math {

/// a = n pi/2 + r with |r| <= pi/4 (a little more at most), r as a
/// double-double, n mod 4 as an i64.
struct ReducedAngle {
  DoubleDouble r;
  mlir::Value quadrant;
};

/// The reduction of a finite a >= pi/4 (Payne-Hanek). The fraction of
/// a 2/pi is carried to 2^-143 at least, while for no double is it closer
/// to an integer than about 2^-62, so r keeps 53 bits and more.
ReducedAngle reduceQuarterTurns(MathBuilder &b, mlir::Value a);

} // namespace tilec::f64math

#endif // TILEC_LIB_TARGET_GPU_SOFTWAREMATH_TRIGREDUCTION_H
