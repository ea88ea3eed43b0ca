//===- IndexSolver.cpp - Index ranges and duplicate '=' writes ------------===//
//
// Range inference (docs/language.md 7.9) and the '=' uniqueness check
// (7.6) on top of the linear systems of LinearSystem.h. Both questions are
// answered exactly over the integer points of 7.3:
//
// - the rational relaxation, projected once, decides emptiness and
//   boundedness;
// - the least (greatest) value of variable v is found by putting v in the
//   first column and searching upward (downward) for the first integer point;
// - a duplicate write is a pair x, x' of valid points with equal outputs
//   that agree on variables 0..k-1 and have x'_k > x_k, for some k; each k
//   is one search over the doubled system.
//
//===----------------------------------------------------------------------===//

#include "LinearSystem.h"

#include <algorithm>
#include <tuple>

using namespace tilec;
using namespace tilec::solver;

namespace {
/// Search steps one computeRanges or checkDuplicateWrites call may take.
constexpr uint64_t kStepBudget = 1000000;

using Ranges = std::vector<std::pair<int64_t, int64_t>>;

/// The number of variables, counting any that an expression mentions beyond
/// numVars so that a malformed system cannot index out of bounds.
unsigned variableCount(const IndexSystem &system,
                       const std::vector<Affine> &outputs) {
  size_t n = system.numVars;
  auto widen = [&](const Affine &e) {
    for (size_t v = e.coeffs.size(); v-- > n;)
      if (!e.coeffs[v].isZero()) {
        n = v + 1;
        break;
      }
  };
  for (const RangeConstraint &rc : system.constraints)
    widen(rc.expr);
  for (const Affine &e : outputs)
    widen(e);
  return static_cast<unsigned>(n);
}

/// `expr` with variable v moved to column colOf[v]; variables that share a
/// column are added. nullopt on overflow.
std::optional<Affine> toColumns(const Affine &expr,
                                const std::vector<unsigned> &colOf,
                                unsigned numCols) {
  Affine out;
  out.constant = expr.constant;
  out.coeffs.assign(numCols, Rational());
  for (unsigned v = 0; v < expr.coeffs.size(); ++v) {
    if (expr.coeffs[v].isZero())
      continue;
    std::optional<Rational> sum = add(out.coeffs[colOf[v]], expr.coeffs[v]);
    if (!sum)
      return std::nullopt;
    out.coeffs[colOf[v]] = *sum;
  }
  return out;
}

/// Adds every range constraint of `system` with variables placed by colOf.
void addConstraints(LinearSystem &ls, const IndexSystem &system,
                    const std::vector<unsigned> &colOf, Domain domain) {
  for (const RangeConstraint &rc : system.constraints) {
    std::optional<Affine> e = toColumns(rc.expr, colOf, ls.numCols);
    if (!e) {
      ls.overflow = true;
      return;
    }
    addRange(ls, *e, rc.upper, domain);
  }
}

/// The affine function 1 * x_col + offset.
Affine column(unsigned col, unsigned numCols, int64_t offset = 0) {
  Affine a;
  a.constant = Rational(offset);
  a.coeffs.assign(numCols, Rational());
  a.coeffs[col] = Rational(1);
  return a;
}

/// Adds lo <= x_col <= hi.
void addBox(LinearSystem &ls, unsigned col, std::pair<int64_t, int64_t> range) {
  if (range.first == INT64_MIN || range.second == INT64_MIN) {
    ls.overflow = true;
    return;
  }
  addNonNegative(ls, column(col, ls.numCols, -range.first));
  std::optional<Affine> upper = scale(column(col, ls.numCols, -range.second),
                                      Rational(-1));
  if (!upper) {
    ls.overflow = true;
    return;
  }
  addNonNegative(ls, *upper);
}

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

RangeResult withStatus(RangeResult::Status status, unsigned var = 0) {
  RangeResult r;
  r.status = status;
  r.var = var;
  return r;
}

RangeResult::Status toRangeStatus(SearchStatus s) {
  return s == SearchStatus::TooLarge ? RangeResult::Status::TooLarge
                                     : RangeResult::Status::Infeasible;
}

/// Decides emptiness and boundedness of the rational relaxation. Returns Ok
/// when it is non-empty and bounded.
RangeResult checkRelaxation(const IndexSystem &system, unsigned n) {
  std::vector<unsigned> identity(n);
  for (unsigned v = 0; v < n; ++v)
    identity[v] = v;
  LinearSystem relaxed;
  relaxed.numCols = n;
  addConstraints(relaxed, system, identity, Domain::Rational);
  Projection p = project(relaxed, Domain::Rational);
  if (p.status == Projection::Status::TooLarge)
    return withStatus(RangeResult::Status::TooLarge);
  if (p.status == Projection::Status::Empty)
    return withStatus(RangeResult::Status::Infeasible);
  // Variables 0..v-1 are bounded, so a bound of v in terms of them keeps v
  // bounded; a missing one lets v grow within the non-empty projection.
  for (unsigned v = 0; v < n; ++v) {
    bool lower = false, upper = false;
    for (const Inequality &row : p.bounds[v])
      (row.coeffs[v] > 0 ? lower : upper) = true;
    if (!lower || !upper)
      return withStatus(RangeResult::Status::Unbounded, v);
  }
  return withStatus(RangeResult::Status::Ok);
}
} // namespace

RangeResult tilec::computeRanges(const IndexSystem &system) {
  unsigned n = variableCount(system, {});
  RangeResult relaxation = checkRelaxation(system, n);
  if (relaxation.status != RangeResult::Status::Ok)
    return relaxation;

  Budget budget{kStepBudget};
  RangeResult result;
  result.ranges.resize(n);
  if (n == 0) {
    // Constant constraints: only integrality is left to check.
    LinearSystem ls;
    addConstraints(ls, system, {}, Domain::Integer);
    if (ls.overflow)
      return withStatus(RangeResult::Status::TooLarge);
    if (ls.empty)
      return withStatus(RangeResult::Status::Infeasible);
    return result;
  }
  for (unsigned v = 0; v < n; ++v) {
    // Column 0 holds v; the others keep their relative order.
    std::vector<unsigned> colOf(n);
    for (unsigned u = 0; u < n; ++u)
      colOf[u] = u == v ? 0 : (u < v ? u + 1 : u);
    LinearSystem ls;
    ls.numCols = n;
    addConstraints(ls, system, colOf, Domain::Integer);
    Projection p = project(ls, Domain::Integer);
    std::vector<int64_t> point;
    SearchStatus low = findFirstPoint(ls, p, false, budget, point);
    if (low != SearchStatus::Found)
      return withStatus(toRangeStatus(low));
    result.ranges[v].first = point[0];
    SearchStatus high = findFirstPoint(ls, p, true, budget, point);
    if (high != SearchStatus::Found)
      return withStatus(toRangeStatus(high));
    result.ranges[v].second = point[0];
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Duplicate writes
//===----------------------------------------------------------------------===//

namespace {
/// Rank over the rationals of columns first..n-1 of the output matrix, or
/// nullopt on overflow.
std::optional<unsigned> rankOfColumns(const std::vector<Affine> &outputs,
                                      unsigned first, unsigned n) {
  std::vector<std::vector<Rational>> rows;
  for (const Affine &e : outputs) {
    std::vector<Rational> row;
    for (unsigned v = first; v < n; ++v)
      row.push_back(e.coeff(v));
    rows.push_back(std::move(row));
  }
  unsigned rank = 0;
  for (unsigned c = 0; c + first < n && rank < rows.size(); ++c) {
    size_t pivot = rank;
    while (pivot < rows.size() && rows[pivot][c].isZero())
      ++pivot;
    if (pivot == rows.size())
      continue;
    std::swap(rows[rank], rows[pivot]);
    for (size_t r = rank + 1; r < rows.size(); ++r) {
      if (rows[r][c].isZero())
        continue;
      std::optional<Rational> f = div(rows[r][c], rows[rank][c]);
      if (!f)
        return std::nullopt;
      for (unsigned k = c; k + first < n; ++k) {
        std::optional<Rational> prod = mul(*f, rows[rank][k]);
        std::optional<Rational> diff =
            prod ? sub(rows[r][k], *prod) : std::nullopt;
        if (!diff)
          return std::nullopt;
        rows[r][k] = *diff;
      }
    }
    ++rank;
  }
  return rank;
}

/// Whether some rational d with equal outputs has d_0..d_{k-1} = 0 and
/// d_k = 1, i.e. column k is in the span of the later columns. Overflow
/// answers yes, which only costs a search.
bool kernelReaches(const std::vector<Affine> &outputs, unsigned k,
                   unsigned n) {
  std::optional<unsigned> withK = rankOfColumns(outputs, k, n);
  std::optional<unsigned> withoutK = rankOfColumns(outputs, k + 1, n);
  return !withK || !withoutK || *withK == *withoutK;
}

/// The system of pairs (x, x') for one k: both valid, equal outputs,
/// x'_i = x_i for i < k (shared columns), x'_k >= x_k + 1. Columns 0..n-1
/// hold x, columns n..2n-k-1 hold x'_k..x'_{n-1}.
LinearSystem pairSystem(const IndexSystem &system,
                        const std::vector<Affine> &outputs,
                        const Ranges &ranges, unsigned n, unsigned k,
                        std::vector<unsigned> &primeCol) {
  LinearSystem ls;
  ls.numCols = 2 * n - k;
  std::vector<unsigned> xCol(n);
  primeCol.assign(n, 0);
  for (unsigned v = 0; v < n; ++v) {
    xCol[v] = v;
    primeCol[v] = v < k ? v : n + (v - k);
  }
  addConstraints(ls, system, xCol, Domain::Integer);
  addConstraints(ls, system, primeCol, Domain::Integer);
  // The ranges are implied but give the projection much tighter bounds.
  if (ranges.size() == n)
    for (unsigned v = 0; v < n; ++v) {
      addBox(ls, xCol[v], ranges[v]);
      if (v >= k)
        addBox(ls, primeCol[v], ranges[v]);
    }
  for (const Affine &out : outputs) {
    std::optional<Affine> a = toColumns(out, xCol, ls.numCols);
    std::optional<Affine> b = toColumns(out, primeCol, ls.numCols);
    std::optional<Affine> diff = a && b ? sub(*b, *a) : std::nullopt;
    if (!diff) {
      ls.overflow = true;
      return ls;
    }
    addZero(ls, *diff);
  }
  std::optional<Affine> order =
      sub(column(primeCol[k], ls.numCols, -1), column(k, ls.numCols));
  if (!order)
    ls.overflow = true;
  else
    addNonNegative(ls, *order);
  return ls;
}
} // namespace

DuplicateWriteResult
tilec::checkDuplicateWrites(const IndexSystem &system,
                            const std::vector<Affine> &outputs,
                            const Ranges &ranges) {
  DuplicateWriteResult result;
  unsigned n = variableCount(system, outputs);
  // Outputs that determine every variable cannot repeat a cell.
  std::optional<unsigned> rank = rankOfColumns(outputs, 0, n);
  if (rank && *rank == n)
    return result;

  Budget budget{kStepBudget};
  bool found = false, tooLarge = false;
  for (unsigned k = 0; k < n; ++k) {
    if (!kernelReaches(outputs, k, n))
      continue;
    std::vector<unsigned> primeCol;
    LinearSystem ls = pairSystem(system, outputs, ranges, n, k, primeCol);
    Projection p = project(ls, Domain::Integer);
    std::vector<int64_t> point;
    SearchStatus s = findFirstPoint(ls, p, false, budget, point);
    if (s == SearchStatus::TooLarge)
      tooLarge = true;
    if (s != SearchStatus::Found)
      continue;
    DuplicateWrite pair;
    pair.first.assign(point.begin(), point.begin() + n);
    for (unsigned v = 0; v < n; ++v)
      pair.second.push_back(point[primeCol[v]]);
    if (!found || std::tie(pair.first, pair.second) <
                      std::tie(result.pair.first, result.pair.second))
      result.pair = std::move(pair);
    found = true;
  }
  if (found)
    result.status = DuplicateWriteResult::Status::Duplicate;
  else if (tooLarge)
    result.status = DuplicateWriteResult::Status::TooLarge;
  return result;
}

std::optional<DuplicateWrite>
tilec::findDuplicateWrite(const IndexSystem &system,
                          const std::vector<Affine> &outputs,
                          const Ranges &ranges) {
  DuplicateWriteResult r = checkDuplicateWrites(system, outputs, ranges);
  if (r.status != DuplicateWriteResult::Status::Duplicate)
    return std::nullopt;
  return std::move(r.pair);
}
