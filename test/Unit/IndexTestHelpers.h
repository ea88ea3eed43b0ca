//===- IndexTestHelpers.h - Shorthand for affine index expressions -*- C++ -*-//
//
// Builds rationals, affine expressions and index variables in a line, for
// the unit tests (AffineTest, IndexSolverTest, InterpreterTest) and the
// interpreter benchmark (bench/interp/ConvBench.cpp), which write contractions
// by hand.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_INDEXTESTHELPERS_H
#define TILEC_TEST_UNIT_INDEXTESTHELPERS_H

#include "tilec/Frontend/TypedAST.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tilec::test {

/// num/den, which must be valid (den != 0, no overflow).
inline Rational q(int64_t num, int64_t den = 1) {
  return *Rational::make(num, den);
}

/// constant + sum(coeffs[v] * v).
inline Affine lin(std::vector<Rational> coeffs,
                  Rational constant = Rational()) {
  Affine a;
  a.coeffs = std::move(coeffs);
  a.constant = constant;
  return a;
}

/// c0 + sum(coeffs[v] * v) with integer coefficients.
inline Affine aff(int64_t c0, std::vector<int64_t> coeffs) {
  Affine a;
  a.constant = Rational(c0);
  for (int64_t c : coeffs)
    a.coeffs.push_back(Rational(c));
  return a;
}

/// An index variable ranging over [lo, hi].
inline typed::IndexVar var(const char *name, int64_t lo, int64_t hi) {
  typed::IndexVar v;
  v.name = name;
  v.lo = lo;
  v.hi = hi;
  return v;
}

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_INDEXTESTHELPERS_H
