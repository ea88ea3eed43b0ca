//===- TrigReduction.cpp - Payne-Hanek reduction of f64 arguments ---------===//
//
// a = M 2^E with M < 2^53 an integer, split into three 24-bit limbs
// m0 + m1 2^24 + m2 2^48. 2/pi = sum_t T_t 2^(72 - 24(t + 1)) with 24-bit
// chunks T_t (kTwoOverPiChunks, three zero chunks first so that the index
// below is never negative). Then
//   a 2/pi = sum_k L_k 2^(e' - 24k),  L_k = m0 T_(I-1+k) + m1 T_(I+k)
//                                           + m2 T_(I+1+k),
// with I = (E + 70) / 24 and e' = E + 72 - 24 I in [2, 25]; the terms of
// k <= 0 are multiples of 4 and drop out (the quadrant only matters mod 4).
// Each L_k is an integer below 2^50, exact in a double, as is every step
// of the carry propagation and of the reduction mod 4 below; the fraction
// is then carried as a double-double and multiplied by pi/2.
//
//===----------------------------------------------------------------------===//

#include "TrigReduction.h"

using namespace mlir;

namespace tilec::f64math {
namespace {
#include "Constants.inc"

constexpr int kLimbs = 8;

/// x - 4 floor(x / 4), exact for the multiples of a power of two used here.
Value modFour(MathBuilder &b, Value x) {
  return b.sub(x, b.mul(b.c(4), b.floor(b.mul(x, b.c(0.25)))));
}

} // namespace

ReducedAngle reduceQuarterTurns(MathBuilder &b, Value a) {
  Value bits = b.bits(a);
  Value exponent = b.isub(b.ashr(bits, 52), b.ci(1075)); // E (a is normal)
  Value mantissa =
      b.ior(b.iand(bits, b.ci((int64_t(1) << 52) - 1)), b.ci(int64_t(1) << 52));
  Value limbMask = b.ci((1 << 24) - 1);
  Value m0 = b.toF64(b.iand(mantissa, limbMask));
  Value m1 = b.toF64(b.iand(b.ashr(mantissa, 24), limbMask));
  Value m2 = b.toF64(b.ashr(mantissa, 48));

  Value shifted = b.iadd(exponent, b.ci(72));
  Value index = b.idiv(b.isub(shifted, b.ci(2)), b.ci(24));
  Value ePrime = b.isub(shifted, b.imul(index, b.ci(24)));

  SmallVector<Value> chunk; // T_(I + j) for j = 0 .. kLimbs + 1
  for (int j = 0; j <= kLimbs + 1; ++j)
    chunk.push_back(b.lookup(kTwoOverPiChunks, b.iadd(index, b.ci(j))));
  SmallVector<Value> limb(kLimbs + 1); // limb[k], k = 1 .. kLimbs
  for (int k = 1; k <= kLimbs; ++k)
    limb[k] = b.add(b.add(b.mul(m0, chunk[k - 1]), b.mul(m1, chunk[k])),
                    b.mul(m2, chunk[k + 1]));
  for (int k = kLimbs; k >= 2; --k) {
    Value carry = b.floor(b.mul(limb[k], b.c(0x1p-24)));
    limb[k] = b.sub(limb[k], b.mul(carry, b.c(0x1p24)));
    limb[k - 1] = b.add(limb[k - 1], carry);
  }
  auto weight = [&](int k) { // 2^(e' - 24k)
    return b.pow2(b.isub(ePrime, b.ci(24 * k)));
  };
  // The integer part and the first fraction bits, mod 4: 48 bits at most.
  Value head =
      b.add(modFour(b, b.mul(limb[1], weight(1))), b.mul(limb[2], weight(2)));
  head = modFour(b, head);
  Value n = b.roundEven(head);
  Value fraction = b.sub(head, n); // in [-1/2, 1/2], exact
  DoubleDouble y = b.fastTwoSum(fraction, b.mul(limb[3], weight(3)));
  Value low = b.mul(limb[kLimbs], weight(kLimbs));
  for (int k = kLimbs - 1; k >= 4; --k)
    low = b.add(b.mul(limb[k], weight(k)), low);
  y = b.fastTwoSum(y.hi, b.add(y.lo, low));
  DoubleDouble r = b.mul(y, DoubleDouble{b.c(kPiOver2Hi), b.c(kPiOver2Lo)});
  return {r, b.iand(b.toI64(n), b.ci(3))};
}

} // namespace tilec::f64math
