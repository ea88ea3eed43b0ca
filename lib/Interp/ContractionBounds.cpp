//===- ContractionBounds.cpp - Radii of a contraction's cells -------------===//

#include "ContractionBounds.h"

using namespace tilec;
using namespace tilec::interp;
using ast::AggKind;
using ast::CombKind;

/// A product of two operands rounded or truncated to TF32 (10 of f32's 23
/// mantissa bits kept) is off by less than (2^-10 + 2^-10 + 2^-20) of
/// itself: half of that per count of an operation's own error
/// (plusOwnError counts it twice).
constexpr double kTF32HalfError = 0x1p-10 * (1 + 0x1p-11);

ContractionBounds::ContractionBounds(CombKind comb, AggKind agg, DType termType,
                                     DType outType, size_t cells, bool tf32)
    : comb(comb), agg(agg), termType(termType), outType(outType), tf32(tf32),
      termRounding(termType) {
  if (agg == AggKind::Sum)
    sums.resize(cells);
  else if (agg == AggKind::Prod)
    products.resize(cells);
  else
    widest.assign(cells, ErrorBound());
}

void ContractionBounds::term(const int64_t *off, double &t, ErrorBound &spread,
                             double &own) const {
  auto radiusOf = [&](int k) {
    return radius[k] ? radius[k][off[k]] : ErrorBound();
  };
  own = 0;
  switch (comb) {
  case CombKind::None:
    t = value[0][off[0]];
    spread = radiusOf(0);
    return;
  // The terms of Mul and Add are rounded once in termType (or fused into
  // the sum): the cheap bound of that rounding keeps this loop fast.
  case CombKind::Mul: {
    double a = value[0][off[0]], b = value[1][off[1]];
    t = a * b;
    spread = radius[0] || radius[1] ? mulSpread(a, b, radiusOf(0), radiusOf(1))
                                    : ErrorBound();
    own = termRounding.error(t);
    if (tf32)
      own += kTF32HalfError * std::abs(t);
    return;
  }
  case CombKind::Add: {
    t = value[0][off[0]] + value[1][off[1]];
    ErrorBound ea = radiusOf(0), eb = radiusOf(1);
    spread = {ea.worst + eb.worst, rootSumSquare(ea.likely, eb.likely)};
    own = termRounding.error(t);
    return;
  }
  case CombKind::Eq: // keys compare exactly
    t = key[0][off[0]] == key[1][off[1]];
    spread = ErrorBound();
    return;
  case CombKind::Cond: {
    bool taken = key[0][off[0]] == key[1][off[1]];
    t = taken ? value[2][off[2]] : 0;
    spread = taken ? radiusOf(2) : ErrorBound();
    return;
  }
  }
}

void ContractionBounds::add(const ContractionRun &run) {
  int64_t off[3] = {run.off[0], run.off[1], run.off[2]};
  int64_t out = run.out;
  for (int64_t k = 0; k < run.count; ++k) {
    double t, own;
    ErrorBound spread;
    term(off, t, spread, own);
    if (agg == AggKind::Sum)
      sums[out].add(t, spread, own);
    else if (agg == AggKind::Prod)
      products[out].add(t, plusOwnError(spread, own));
    else
      widest[out] = widerBound(widest[out], plusOwnError(spread, own));
    out += run.outStep;
    for (int o = 0; o < 3; ++o)
      off[o] += run.step[o];
  }
}

Radii ContractionBounds::finish(const Tensor &out,
                                const std::vector<uint8_t> &touched,
                                const Radii &defaults) const {
  size_t cells = touched.size();
  Radii radii(cells);
  for (size_t k = 0; k < cells; ++k) {
    if (!touched[k]) {
      radii[k] = defaults.empty() ? ErrorBound() : defaults[k];
      continue;
    }
    double v = out.getDouble(k);
    radii[k] = agg == AggKind::Sum    ? sums[k].bound(v, outType)
               : agg == AggKind::Prod ? products[k].bound(v, outType)
                                      : widest[k];
    // TF32 shrinks every product (truncation) or moves it at random
    // (rounding): the part common to all, at most 2 * kTF32HalfError of
    // the sum, is no independent error; the rest is, in `likely` above.
    if (tf32)
      radii[k].likely += 2 * kTF32HalfError * std::abs(v) / kLikelyFactor;
  }
  return radii;
}

Radii interp::convertRadii(const Tensor &src, const Radii &radii, DType to) {
  if (radii.empty())
    return {};
  DType from = src.type.dtype;
  Radii out(radii.size());
  bool any = false;
  for (size_t k = 0; k < radii.size(); ++k) {
    // Integers other than bools decided either way are exact (Bounds.h).
    out[k] = isFloat(from) && isFloat(to)
                 ? convertBound(src.getDouble(k), radii[k], from, to)
             : from == DType::Bool ? radii[k]
                                   : ErrorBound();
    any = any || !out[k].exact();
  }
  return any ? out : Radii();
}
