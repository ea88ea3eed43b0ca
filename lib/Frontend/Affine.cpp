//===- Affine.cpp - Exact rational affine index arithmetic ----------------===//
//
// Checked rational arithmetic for index polynomials (docs/language.md 7.2).
// Every intermediate product of two 64-bit values is formed in 128 bits and
// the result is reduced before it is narrowed, so a value is reported as
// overflow only when its reduced form does not fit in 64 bits.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Affine.h"
#include "tilec/Support/CheckedMath.h"

#include <cstdlib>

using namespace tilec;

//===----------------------------------------------------------------------===//
// 128-bit helpers
//===----------------------------------------------------------------------===//

namespace {
/// Reduces n/d (d != 0) to lowest terms with a positive denominator.
std::optional<Rational> makeWide(Wide n, Wide d) {
  if (d == 0)
    return std::nullopt;
  if (d < 0) {
    n = -n;
    d = -d;
  }
  Wide g = gcdWide(n, d);
  if (g > 1) {
    n /= g;
    d /= g;
  }
  if (!fitsInt64(n) || !fitsInt64(d))
    return std::nullopt;
  Rational r;
  r.num = static_cast<int64_t>(n);
  r.den = static_cast<int64_t>(d);
  return r;
}

/// The least common multiple of the denominators of `a` (constant
/// included), or nullopt if it does not fit in 64 bits.
std::optional<int64_t> commonDenominator(const Affine &a) {
  Wide lcm = a.constant.den;
  for (const Rational &c : a.coeffs) {
    lcm = lcm / gcdWide(lcm, c.den) * c.den;
    if (!fitsInt64(lcm))
      return std::nullopt;
  }
  return static_cast<int64_t>(lcm);
}

/// c * den as an integer (den a multiple of c.den), or nullopt on overflow.
std::optional<int64_t> scaledNumerator(Rational c, int64_t den) {
  Wide v = static_cast<Wide>(c.num) * (den / c.den);
  if (!fitsInt64(v))
    return std::nullopt;
  return static_cast<int64_t>(v);
}
} // namespace

//===----------------------------------------------------------------------===//
// Rational
//===----------------------------------------------------------------------===//

std::optional<Rational> Rational::make(int64_t num, int64_t den) {
  return makeWide(num, den);
}

std::string Rational::str() const {
  if (den == 1)
    return std::to_string(num);
  return std::to_string(num) + "/" + std::to_string(den);
}

std::optional<Rational> tilec::add(Rational a, Rational b) {
  Wide n = static_cast<Wide>(a.num) * b.den + static_cast<Wide>(b.num) * a.den;
  return makeWide(n, static_cast<Wide>(a.den) * b.den);
}

std::optional<Rational> tilec::sub(Rational a, Rational b) {
  Wide n = static_cast<Wide>(a.num) * b.den - static_cast<Wide>(b.num) * a.den;
  return makeWide(n, static_cast<Wide>(a.den) * b.den);
}

std::optional<Rational> tilec::mul(Rational a, Rational b) {
  return makeWide(static_cast<Wide>(a.num) * b.num,
                  static_cast<Wide>(a.den) * b.den);
}

std::optional<Rational> tilec::div(Rational a, Rational b) {
  if (b.num == 0)
    return std::nullopt;
  return makeWide(static_cast<Wide>(a.num) * b.den,
                  static_cast<Wide>(a.den) * b.num);
}

int tilec::compare(Rational a, Rational b) {
  Wide l = static_cast<Wide>(a.num) * b.den;
  Wide r = static_cast<Wide>(b.num) * a.den;
  return l < r ? -1 : (l > r ? 1 : 0);
}

int64_t tilec::floorOf(Rational a) {
  int64_t q = a.num / a.den;
  if (a.num % a.den != 0 && a.num < 0)
    --q;
  return q;
}

int64_t tilec::ceilOf(Rational a) {
  int64_t q = a.num / a.den;
  if (a.num % a.den != 0 && a.num > 0)
    ++q;
  return q;
}

//===----------------------------------------------------------------------===//
// Affine
//===----------------------------------------------------------------------===//

Affine Affine::variable(unsigned v) {
  Affine a;
  a.coeffs.resize(v + 1);
  a.coeffs[v] = Rational(1);
  return a;
}

bool Affine::isConstant() const {
  for (const Rational &c : coeffs)
    if (!c.isZero())
      return false;
  return true;
}

std::vector<unsigned> Affine::occurringVars() const {
  std::vector<unsigned> vars;
  for (unsigned v = 0; v < coeffs.size(); ++v)
    if (!coeffs[v].isZero())
      vars.push_back(v);
  return vars;
}

std::optional<Rational>
Affine::evaluate(const std::vector<int64_t> &point) const {
  Rational sum = constant;
  for (unsigned v = 0; v < coeffs.size(); ++v) {
    if (coeffs[v].isZero())
      continue;
    if (v >= point.size())
      return std::nullopt;
    std::optional<Rational> term = mul(coeffs[v], Rational(point[v]));
    if (!term)
      return std::nullopt;
    std::optional<Rational> next = add(sum, *term);
    if (!next)
      return std::nullopt;
    sum = *next;
  }
  return sum;
}

namespace {
/// Appends `coeff * name` (or the bare constant when name is empty) to `out`
/// with the sign written as a binary operator unless it is the first term.
void appendTerm(std::string &out, bool negative, const std::string &magnitude,
                const std::string &name) {
  if (out.empty())
    out = negative ? "-" : "";
  else
    out += negative ? " - " : " + ";
  if (name.empty())
    out += magnitude;
  else if (magnitude == "1")
    out += name;
  else
    out += magnitude + "*" + name;
}

/// |v| as decimal text; safe for INT64_MIN.
std::string magnitudeText(int64_t v) {
  uint64_t m = v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : v;
  return std::to_string(m);
}

std::string varName(const std::vector<std::string> &names, unsigned v) {
  return v < names.size() ? names[v] : "v" + std::to_string(v);
}

/// Fallback printing with a fraction per term, used only when the common
/// denominator does not fit in 64 bits.
std::string strPerTerm(const Affine &a, const std::vector<std::string> &names) {
  std::string out;
  for (unsigned v = 0; v < a.coeffs.size(); ++v) {
    Rational c = a.coeffs[v];
    if (c.isZero())
      continue;
    // Written "3*i/4": the fraction applies to the whole product.
    std::string mag = magnitudeText(c.num);
    std::string term = mag == "1" ? varName(names, v)
                                  : mag + "*" + varName(names, v);
    appendTerm(out, c.num < 0, term + "/" + std::to_string(c.den), "");
  }
  if (!a.constant.isZero() || out.empty()) {
    Rational c = a.constant;
    std::string mag = magnitudeText(c.num);
    if (c.den != 1)
      mag += "/" + std::to_string(c.den);
    appendTerm(out, c.num < 0, mag, "");
  }
  return out;
}

} // namespace

std::string Affine::str(const std::vector<std::string> &varNames) const {
  // Fractional coefficients print over the common denominator,
  // "(y - t + 1)/2" rather than "y/2 - t/2 + 1/2", mirroring how such indices
  // are written in Tile; a fraction in the constant alone stays there, as in
  // "i + 5/2" (N/2 + i with N = 5).
  Affine varsOnly = *this;
  varsOnly.constant = Rational();
  std::optional<int64_t> varDen = commonDenominator(varsOnly);
  std::optional<int64_t> den =
      varDen == 1 ? std::optional<int64_t>(1) : commonDenominator(*this);
  if (!den)
    return strPerTerm(*this, varNames);
  std::string body;
  unsigned terms = 0;
  for (unsigned v = 0; v < coeffs.size(); ++v) {
    if (coeffs[v].isZero())
      continue;
    std::optional<int64_t> n = scaledNumerator(coeffs[v], *den);
    if (!n)
      return strPerTerm(*this, varNames);
    appendTerm(body, *n < 0, magnitudeText(*n), varName(varNames, v));
    ++terms;
  }
  if (!constant.isZero() || terms == 0) {
    if (*den == 1) {
      std::string mag = magnitudeText(constant.num);
      if (constant.den != 1)
        mag += "/" + std::to_string(constant.den);
      appendTerm(body, constant.num < 0, mag, "");
      return body;
    }
    std::optional<int64_t> n = scaledNumerator(constant, *den);
    if (!n)
      return strPerTerm(*this, varNames);
    appendTerm(body, *n < 0, magnitudeText(*n), "");
    ++terms;
  }
  if (*den == 1)
    return body;
  if (terms == 1)
    return body + "/" + std::to_string(*den);
  return "(" + body + ")/" + std::to_string(*den);
}

namespace {
template <typename Op>
std::optional<Affine> combine(const Affine &a, const Affine &b, Op op) {
  Affine r;
  std::optional<Rational> c = op(a.constant, b.constant);
  if (!c)
    return std::nullopt;
  r.constant = *c;
  size_t n = std::max(a.coeffs.size(), b.coeffs.size());
  r.coeffs.resize(n);
  for (unsigned v = 0; v < n; ++v) {
    std::optional<Rational> cv = op(a.coeff(v), b.coeff(v));
    if (!cv)
      return std::nullopt;
    r.coeffs[v] = *cv;
  }
  return r;
}
} // namespace

std::optional<Affine> tilec::add(const Affine &a, const Affine &b) {
  return combine(a, b, [](Rational x, Rational y) { return add(x, y); });
}

std::optional<Affine> tilec::sub(const Affine &a, const Affine &b) {
  return combine(a, b, [](Rational x, Rational y) { return sub(x, y); });
}

std::optional<Affine> tilec::scale(const Affine &a, Rational factor) {
  Affine r;
  std::optional<Rational> c = mul(a.constant, factor);
  if (!c)
    return std::nullopt;
  r.constant = *c;
  r.coeffs.reserve(a.coeffs.size());
  for (const Rational &coeff : a.coeffs) {
    std::optional<Rational> cv = mul(coeff, factor);
    if (!cv)
      return std::nullopt;
    r.coeffs.push_back(*cv);
  }
  return r;
}

bool tilec::neverIntegral(const Affine &a) {
  // With D the common denominator, a = (n0 + sum(ni * vi)) / D is an integer
  // for some integer point exactly when gcd(n1, ..., nk, D) divides n0.
  std::optional<int64_t> den = commonDenominator(a);
  if (!den)
    return false; // undecidable in 64 bits: do not claim it never is
  Wide g = *den;
  for (const Rational &c : a.coeffs) {
    std::optional<int64_t> n = scaledNumerator(c, *den);
    if (!n)
      return false;
    g = gcdWide(g, *n);
  }
  std::optional<int64_t> n0 = scaledNumerator(a.constant, *den);
  if (!n0)
    return false;
  return static_cast<Wide>(*n0) % g != 0;
}
