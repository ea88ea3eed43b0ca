//===- LinearSystem.cpp - Building the index solver's linear systems ------===//
//
// Turns rational affine constraints into integer rows: each expression is
// multiplied by the common denominator D of its coefficients, so that
// "e integral" becomes a congruence modulo D and the bounds become integer
// inequalities.
//
//===----------------------------------------------------------------------===//

#include "LinearSystem.h"

using namespace tilec;
using namespace tilec::solver;

namespace {
/// expr * den == sum(coeffs[c] * x_c) + constant, with den > 0 the least
/// common denominator of expr.
struct IntegerForm {
  std::vector<int64_t> coeffs;
  int64_t constant = 0;
  int64_t den = 1;
};

std::optional<IntegerForm> toIntegerForm(const Affine &expr,
                                         unsigned numCols) {
  if (expr.coeffs.size() > numCols)
    for (unsigned c = numCols; c < expr.coeffs.size(); ++c)
      if (!expr.coeffs[c].isZero())
        return std::nullopt; // a column outside the system: malformed
  Wide den = expr.constant.den;
  for (const Rational &r : expr.coeffs) {
    den = den / gcdWide(den, r.den) * r.den;
    if (!fitsInt64(den))
      return std::nullopt;
  }
  auto scaled = [&](Rational r, int64_t &out) {
    Wide v = static_cast<Wide>(r.num) * (den / r.den);
    if (!fitsInt64(v))
      return false;
    out = static_cast<int64_t>(v);
    return true;
  };
  IntegerForm form;
  form.den = static_cast<int64_t>(den);
  form.coeffs.assign(numCols, 0);
  for (unsigned c = 0; c < expr.coeffs.size() && c < numCols; ++c)
    if (!scaled(expr.coeffs[c], form.coeffs[c]))
      return std::nullopt;
  if (!scaled(expr.constant, form.constant))
    return std::nullopt;
  return form;
}

/// Adds form == 0 (mod form.den), checking it at once when no column
/// survives the reduction.
void addIntegrality(LinearSystem &system, const IntegerForm &form) {
  Congruence cong;
  cong.modulus = form.den;
  cong.constant = static_cast<int64_t>(floorMod(form.constant, form.den));
  cong.coeffs.resize(form.coeffs.size());
  bool anyColumn = false;
  for (size_t c = 0; c < form.coeffs.size(); ++c) {
    cong.coeffs[c] = static_cast<int64_t>(floorMod(form.coeffs[c], form.den));
    anyColumn |= cong.coeffs[c] != 0;
  }
  if (!anyColumn) {
    if (cong.constant != 0)
      system.empty = true;
    return;
  }
  system.congruences.push_back(std::move(cong));
}

Inequality negated(const IntegerForm &form, Wide constant, bool &overflow) {
  Inequality row;
  row.coeffs.resize(form.coeffs.size());
  for (size_t c = 0; c < form.coeffs.size(); ++c)
    row.coeffs[c] = -form.coeffs[c]; // |coeff| < 2^63 after reduction
  overflow |= !fitsInt64(constant);
  row.constant = fitsInt64(constant) ? static_cast<int64_t>(constant) : 0;
  return row;
}
} // namespace

void solver::addRange(LinearSystem &system, const Affine &expr, int64_t upper,
                      Domain domain) {
  if (upper <= 0) {
    system.empty = true; // 0 <= e < upper has no solution at all
    return;
  }
  std::optional<IntegerForm> form = toIntegerForm(expr, system.numCols);
  if (!form) {
    system.overflow = true;
    return;
  }
  for (int64_t coeff : form->coeffs)
    if (coeff == INT64_MIN) { // cannot be negated
      system.overflow = true;
      return;
    }
  system.inequalities.push_back({form->coeffs, form->constant, false});
  // Integer: e <= upper - 1, i.e. den * (upper - 1) - den * e >= 0.
  // Rational: e < upper, i.e. den * upper - den * e > 0.
  bool integer = domain == Domain::Integer;
  Wide bound = static_cast<Wide>(form->den) * (integer ? upper - 1 : upper) -
               form->constant;
  bool overflow = false;
  Inequality upperRow = negated(*form, bound, overflow);
  upperRow.strict = !integer;
  system.overflow |= overflow;
  system.inequalities.push_back(std::move(upperRow));
  if (integer && form->den > 1)
    addIntegrality(system, *form);
}

void solver::addNonNegative(LinearSystem &system, const Affine &expr) {
  std::optional<IntegerForm> form = toIntegerForm(expr, system.numCols);
  if (!form) {
    system.overflow = true;
    return;
  }
  system.inequalities.push_back({form->coeffs, form->constant, false});
}

void solver::addZero(LinearSystem &system, const Affine &expr) {
  std::optional<IntegerForm> form = toIntegerForm(expr, system.numCols);
  if (!form || form->constant == INT64_MIN) {
    system.overflow = true;
    return;
  }
  for (int64_t coeff : form->coeffs)
    if (coeff == INT64_MIN) {
      system.overflow = true;
      return;
    }
  system.inequalities.push_back({form->coeffs, form->constant, false});
  bool overflow = false;
  system.inequalities.push_back(
      negated(*form, -static_cast<Wide>(form->constant), overflow));
  system.overflow |= overflow;
}
