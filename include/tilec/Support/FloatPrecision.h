//===- FloatPrecision.h - Roundoff and ulps of float types ------*- C++ -*-===//
//
// The constants of floating-point error analysis for each float type, as the
// reference interpreter's error bounds and the output comparison use them.
// No LLVM here: tilec-run compares outputs too.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_FLOATPRECISION_H
#define TILEC_SUPPORT_FLOATPRECISION_H

#include "tilec/Support/DType.h"

namespace tilec {

/// The unit roundoff u = 2^-p of float type `t` (p its significand bits,
/// the hidden one included): a correctly rounded operation's relative error.
double unitRoundoff(DType t);

/// The smallest positive normal number of float type `t`. A device that
/// flushes subnormal results to zero is off by less than this.
double smallestNormal(DType t);

/// One unit in the last place of `v` in float type `t`: the spacing of the
/// type's values at |v| (the subnormal spacing below the normal range).
/// Infinite for an infinite or NaN `v`.
double ulpOf(double v, DType t);

} // namespace tilec

#endif // TILEC_SUPPORT_FLOATPRECISION_H
