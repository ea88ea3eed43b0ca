//===- Trig.cpp - f64 sin, cos and tan ------------------------------------===//
//
// |x| >= pi/4 is reduced to r + n pi/2 (TrigReduction.cpp, exact for every
// double), then sin and cos of r = rh + rl, |r| <= pi/4, by their Taylor
// series to r^23 and r^24 with the first-order terms of rl, picked and
// signed by the quadrant n mod 4. tan is sin / cos of r, or -cos / sin
// in odd quadrants.
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"
#include "TrigReduction.h"

using namespace mlir;

namespace tilec::f64math {
namespace {
#include "Constants.inc"

/// sin(rh + rl) = sin rh + rl cos rh, cos rh ~ 1 - rh^2/2.
Value sinKernel(MathBuilder &b, DoubleDouble r) {
  Value z = b.mul(r.hi, r.hi);
  Value cube = b.mul(z, r.hi);
  Value tail = b.add(b.mul(cube, b.horner(z, kSinTaylor)),
                     b.mul(r.lo, b.sub(b.c(1), b.mul(b.c(0.5), z))));
  return b.add(r.hi, tail);
}

/// cos(rh + rl) = cos rh - rl sin rh, with 1 - rh^2/2 compensated.
Value cosKernel(MathBuilder &b, DoubleDouble r) {
  Value z = b.mul(r.hi, r.hi);
  Value halfZ = b.mul(b.c(0.5), z);
  Value w = b.sub(b.c(1), halfZ);
  Value tail =
      b.sub(b.mul(b.mul(z, z), b.horner(z, kCosTaylor)), b.mul(r.hi, r.lo));
  return b.add(w, b.add(b.sub(b.sub(b.c(1), w), halfZ), tail));
}

/// sin and cos of the reduced |x|, and its quadrant.
struct Kernels {
  Value sin, cos, quadrant;
  Value a; ///< |x|
};

Kernels kernels(MathBuilder &b, Value x) {
  Value a = b.abs(x);
  Value reduce = b.andB(b.gt(a, b.c(kPiOver4Hi)), b.lt(a, b.c(INFINITY)));
  ReducedAngle reduced = reduceQuarterTurns(b, b.select(reduce, a, b.c(1)));
  DoubleDouble r{b.select(reduce, reduced.r.hi, a),
                 b.select(reduce, reduced.r.lo, b.c(0))};
  Value quadrant = b.select(reduce, reduced.quadrant, b.ci(0));
  return {sinKernel(b, r), cosKernel(b, r), quadrant, a};
}

Value quadrantIs(MathBuilder &b, Value quadrant, int64_t n) {
  return b.ieq(quadrant, b.ci(n));
}

/// sin, cos, -sin, -cos for quadrants 0 to 3 (rotated by `shift`).
Value byQuadrant(MathBuilder &b, const Kernels &k, int64_t shift) {
  Value values[] = {k.sin, k.cos, b.neg(k.sin), b.neg(k.cos)};
  Value result = values[(3 + shift) % 4];
  for (int64_t q = 2; q >= 0; --q)
    result =
        b.select(quadrantIs(b, k.quadrant, q), values[(q + shift) % 4], result);
  return result;
}

/// NaN for infinities (and NaN), else `result`.
Value finiteOnly(MathBuilder &b, const Kernels &k, Value x, Value result) {
  return b.nanPassthrough(x,
                          b.select(b.eq(k.a, b.c(INFINITY)), b.c(NAN), result));
}

} // namespace

Value buildSin(MathBuilder &b, Value x) {
  Kernels k = kernels(b, x);
  return finiteOnly(b, k, x, b.withSignOf(x, byQuadrant(b, k, 0)));
}

Value buildCos(MathBuilder &b, Value x) {
  Kernels k = kernels(b, x);
  return finiteOnly(b, k, x, byQuadrant(b, k, 1));
}

Value buildTan(MathBuilder &b, Value x) {
  Kernels k = kernels(b, x);
  Value odd = b.orB(quadrantIs(b, k.quadrant, 1), quadrantIs(b, k.quadrant, 3));
  Value result = b.select(odd, b.neg(b.div(k.cos, k.sin)), b.div(k.sin, k.cos));
  return finiteOnly(b, k, x, b.withSignOf(x, result));
}

} // namespace tilec::f64math
