//===- CheckedMath.h - 128-bit integer helpers ------------------*- C++ -*-===//
//
// Exact integer arithmetic for the index solver and the interpreter: values
// that are sums or products of two int64_t values are computed in 128 bits,
// where they cannot overflow, and checked before they are narrowed back.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_CHECKEDMATH_H
#define TILEC_SUPPORT_CHECKEDMATH_H

#include <cstdint>

namespace tilec {

/// Wide enough for the exact sum or product of two int64_t values.
using Wide = __int128;

inline Wide absWide(Wide v) { return v < 0 ? -v : v; }

/// The greatest common divisor of |a| and |b| (0 when both are 0).
inline Wide gcdWide(Wide a, Wide b) {
  a = absWide(a);
  b = absWide(b);
  while (b != 0) {
    Wide t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/// True when `v` is representable as an int64_t.
inline bool fitsInt64(Wide v) { return v >= INT64_MIN && v <= INT64_MAX; }

/// a / b rounded toward negative infinity (b != 0).
inline Wide floorDiv(Wide a, Wide b) {
  Wide q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

/// a modulo m in [0, m) (m > 0).
inline Wide floorMod(Wide a, Wide m) {
  Wide r = a % m;
  return r < 0 ? r + m : r;
}

/// The inverse of a modulo m, in [0, m), for gcd(a, m) == 1 and m >= 1.
inline Wide inverseMod(Wide a, Wide m) {
  Wide oldR = floorMod(a, m), r = m, oldS = 1, s = 0;
  while (r != 0) {
    Wide q = oldR / r;
    Wide t = oldR - q * r;
    oldR = r;
    r = t;
    t = oldS - q * s;
    oldS = s;
    s = t;
  }
  return floorMod(oldS, m);
}

} // namespace tilec

#endif // TILEC_SUPPORT_CHECKEDMATH_H
