//===- FourierMotzkin.cpp - Projection of the index solver's systems ------===//
//
// Eliminates the columns of a LinearSystem from the last to the first. The
// rows that mention a column when it is eliminated are kept: with the earlier
// columns fixed they are exactly the bounds of that column over the rational
// projection, which both decides boundedness (7.9) and limits the integer
// search. Growth is kept in check by merging rows with the same direction,
// by eliminating through an equality when one exists, and by a hard cap.
//
//===----------------------------------------------------------------------===//

#include "LinearSystem.h"

#include <map>

using namespace tilec;
using namespace tilec::solver;

namespace {
/// Rows after one elimination step beyond this make the system TooLarge.
constexpr size_t kMaxRows = 20000;

/// A row being formed, before it is normalised back into 64 bits.
struct WideRow {
  std::vector<Wide> coeffs;
  Wide constant = 0;
  bool strict = false;
};

/// Like fitsInt64 but excluding INT64_MIN, so that every value of a
/// normalised row can be negated in int64_t.
bool fitsNegatableInt64(Wide v) { return v >= INT64_MIN + 1 && v <= INT64_MAX; }

enum class RowKind { Keep, Trivial, Violated, Overflow };

/// Divides out common factors and, in the Integer domain, rounds the
/// constant down (sum(a*x) >= -c with gcd(a) = g implies sum(a/g*x) >=
/// ceil(-c/g) for integer x). INT64_MIN is excluded so rows can be negated.
RowKind normalize(WideRow &row, Domain domain, Inequality &out) {
  Wide g = 0;
  for (Wide c : row.coeffs)
    g = gcdWide(g, c);
  if (g == 0) {
    bool holds = row.strict ? row.constant > 0 : row.constant >= 0;
    return holds ? RowKind::Trivial : RowKind::Violated;
  }
  if (domain == Domain::Integer) {
    if (row.strict) {
      row.constant -= 1;
      row.strict = false;
    }
    row.constant = floorDiv(row.constant, g);
  } else {
    g = gcdWide(g, row.constant);
    row.constant /= g;
  }
  out.coeffs.resize(row.coeffs.size());
  for (size_t c = 0; c < row.coeffs.size(); ++c) {
    Wide v = row.coeffs[c] / g;
    if (!fitsNegatableInt64(v))
      return RowKind::Overflow;
    out.coeffs[c] = static_cast<int64_t>(v);
  }
  if (!fitsNegatableInt64(row.constant))
    return RowKind::Overflow;
  out.constant = static_cast<int64_t>(row.constant);
  out.strict = row.strict;
  return RowKind::Keep;
}

/// Collects normalised rows, keeping only the tightest row of each
/// direction.
class RowSet {
public:
  explicit RowSet(Domain domain) : domain(domain) {}

  /// Returns false (and records why) if the row is violated or overflows.
  bool add(WideRow row) {
    Inequality ineq;
    switch (normalize(row, domain, ineq)) {
    case RowKind::Trivial:
      return true;
    case RowKind::Violated:
      status = Projection::Status::Empty;
      return false;
    case RowKind::Overflow:
      status = Projection::Status::TooLarge;
      return false;
    case RowKind::Keep:
      break;
    }
    // Rows with the same primitive direction d say d.x >= -constant/g: the
    // one with the smallest constant/g (strict on a tie) implies the others.
    int64_t g = 0;
    for (int64_t c : ineq.coeffs)
      g = static_cast<int64_t>(gcdWide(g, c));
    std::vector<int64_t> direction = ineq.coeffs;
    for (int64_t &c : direction)
      c /= g;
    auto [it, inserted] = index.emplace(std::move(direction), rows.size());
    if (inserted) {
      rows.push_back(std::move(ineq));
      scales.push_back(g);
      return true;
    }
    Inequality &old = rows[it->second];
    Wide lhs = static_cast<Wide>(ineq.constant) * scales[it->second];
    Wide rhs = static_cast<Wide>(old.constant) * g;
    if (lhs < rhs || (lhs == rhs && ineq.strict && !old.strict)) {
      old = std::move(ineq);
      scales[it->second] = g;
    }
    return true;
  }

  bool add(const Inequality &ineq) {
    WideRow row;
    row.coeffs.assign(ineq.coeffs.begin(), ineq.coeffs.end());
    row.constant = ineq.constant;
    row.strict = ineq.strict;
    return add(std::move(row));
  }

  Domain domain;
  Projection::Status status = Projection::Status::Ok;
  std::vector<Inequality> rows;

private:
  std::vector<int64_t> scales; ///< gcd of each row's coefficients
  std::map<std::vector<int64_t>, size_t> index;
};

/// scaleA * a + scaleB * b in 128 bits (all coefficients stay below 2^127:
/// each product is below 2^126).
WideRow combine(const Inequality &a, Wide scaleA, const Inequality &b,
                Wide scaleB) {
  WideRow row;
  row.coeffs.resize(a.coeffs.size());
  for (size_t c = 0; c < a.coeffs.size(); ++c)
    row.coeffs[c] = scaleA * a.coeffs[c] + scaleB * b.coeffs[c];
  row.constant = scaleA * a.constant + scaleB * b.constant;
  row.strict = a.strict || b.strict;
  return row;
}

bool isNegation(const Inequality &a, const Inequality &b) {
  if (a.strict || b.strict || a.constant != -b.constant)
    return false;
  for (size_t c = 0; c < a.coeffs.size(); ++c)
    if (a.coeffs[c] != -b.coeffs[c])
      return false;
  return true;
}

/// Finds a row of `rows` whose negation is also present (an equality),
/// preferring the smallest coefficient of `col`. Returns rows.size() if
/// there is none.
size_t findEquality(const std::vector<Inequality> &rows, unsigned col) {
  size_t best = rows.size();
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].coeffs[col] <= 0)
      continue;
    if (best != rows.size() && rows[i].coeffs[col] >= rows[best].coeffs[col])
      continue;
    for (size_t j = 0; j < rows.size(); ++j)
      if (isNegation(rows[i], rows[j])) {
        best = i;
        break;
      }
  }
  return best;
}

/// For integer x_col, a*x_col + r == 0 implies r == 0 (mod a).
void addImpliedCongruence(const Inequality &equality, unsigned col,
                          Projection &result) {
  int64_t a = equality.coeffs[col];
  if (a <= 1)
    return;
  Congruence cong;
  cong.modulus = a;
  cong.coeffs.resize(equality.coeffs.size());
  bool anyColumn = false;
  auto reduce = [a](int64_t v) {
    int64_t r = v % a;
    return r < 0 ? r + a : r;
  };
  for (unsigned c = 0; c < col; ++c) {
    cong.coeffs[c] = reduce(equality.coeffs[c]);
    anyColumn |= cong.coeffs[c] != 0;
  }
  cong.constant = reduce(equality.constant);
  if (anyColumn)
    result.congruences.push_back(std::move(cong));
  else if (cong.constant != 0)
    result.status = Projection::Status::Empty;
}

/// Adds to `next` the projection along `col` of the rows that mention it.
void eliminate(const std::vector<Inequality> &mentioning, unsigned col,
               RowSet &next, Projection &result) {
  size_t eq = findEquality(mentioning, col);
  if (eq != mentioning.size()) {
    // Substitute through the equality e == 0 (e's coefficient a > 0): each
    // other row r becomes a*r - r_col*e, which is exact and adds no rows.
    const Inequality &e = mentioning[eq];
    if (next.domain == Domain::Integer)
      addImpliedCongruence(e, col, result);
    for (const Inequality &r : mentioning) {
      if (&r == &e || isNegation(e, r))
        continue;
      if (!next.add(combine(r, e.coeffs[col], e, -Wide(r.coeffs[col]))))
        return;
    }
    return;
  }
  std::vector<const Inequality *> lowers, uppers;
  for (const Inequality &r : mentioning)
    (r.coeffs[col] > 0 ? lowers : uppers).push_back(&r);
  if (lowers.size() * uppers.size() > kMaxRows * 4) {
    next.status = Projection::Status::TooLarge;
    return;
  }
  for (const Inequality *l : lowers)
    for (const Inequality *u : uppers)
      if (!next.add(combine(*l, -Wide(u->coeffs[col]), *u, l->coeffs[col])))
        return;
}
} // namespace

Projection solver::project(const LinearSystem &system, Domain domain) {
  Projection result;
  result.bounds.resize(system.numCols);
  if (system.overflow) {
    result.status = Projection::Status::TooLarge;
    return result;
  }
  if (system.empty) {
    result.status = Projection::Status::Empty;
    return result;
  }
  RowSet current(domain);
  for (const Inequality &ineq : system.inequalities)
    if (!current.add(ineq))
      break;
  for (unsigned col = system.numCols; col-- > 0;) {
    if (current.status != Projection::Status::Ok)
      break;
    RowSet next(domain);
    std::vector<Inequality> mentioning;
    for (Inequality &r : current.rows) {
      if (r.coeffs[col] != 0)
        mentioning.push_back(std::move(r));
      else if (!next.add(r))
        break;
    }
    if (next.status == Projection::Status::Ok)
      eliminate(mentioning, col, next, result);
    if (result.status != Projection::Status::Ok)
      return result;
    result.bounds[col] = std::move(mentioning);
    if (next.rows.size() > kMaxRows)
      next.status = Projection::Status::TooLarge;
    current = std::move(next);
  }
  result.status = current.status;
  return result;
}
