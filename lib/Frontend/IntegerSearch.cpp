//===- IntegerSearch.cpp - Depth-first search for integer points ----------===//
//
// Fixes the columns of a projected system one at a time. With columns
// 0..c-1 fixed, the projection's rows bound column c to an interval, and the
// congruences whose last column is c restrict it to an arithmetic
// progression, so the search only visits values that the bounds and the
// integrality conditions allow. Every original row is among the bounds of
// its last column (or implied by rows that are), so a point reached at the
// last column satisfies the whole system. The search is iterative, and a
// shared step budget stops it on pathological systems.
//
//===----------------------------------------------------------------------===//

#include "LinearSystem.h"

using namespace tilec;
using namespace tilec::solver;

namespace {
/// Partial sums beyond this magnitude are reported as TooLarge; it leaves
/// room to add one more 126-bit product without overflowing 128 bits.
constexpr Wide kSumLimit = Wide(1) << 125;
/// A progression step beyond this is reported as TooLarge.
constexpr Wide kStepLimit = Wide(1) << 62;

class Search {
public:
  Search(const LinearSystem &system, const Projection &projection,
         bool descendFirst, Budget &budget)
      : system(system), projection(projection), descendFirst(descendFirst),
        budget(budget), n(system.numCols), value(n), lo(n), hi(n), step(n),
        congruencesAt(n) {}

  SearchStatus run(std::vector<int64_t> &point);

private:
  enum class LevelStatus { Ready, Empty, TooLarge };

  bool ascending(unsigned col) const { return col != 0 || !descendFirst; }
  LevelStatus enter(unsigned col);
  LevelStatus advance(unsigned col);
  LevelStatus computeInterval(unsigned col);
  LevelStatus computeProgression(unsigned col, Wide &residue, Wide &stride);
  bool attachCongruences();

  const LinearSystem &system;
  const Projection &projection;
  bool descendFirst;
  Budget &budget;
  unsigned n;
  std::vector<Wide> value, lo, hi, step;
  std::vector<std::vector<const Congruence *>> congruencesAt;
};

bool Search::attachCongruences() {
  std::vector<const Congruence *> all;
  for (const Congruence &cong : system.congruences)
    all.push_back(&cong);
  for (const Congruence &cong : projection.congruences)
    all.push_back(&cong);
  for (const Congruence *congPtr : all) {
    const Congruence &cong = *congPtr;
    unsigned last = n;
    for (unsigned c = 0; c < n; ++c)
      if (cong.coeffs[c] % cong.modulus != 0)
        last = c;
    if (last == n) {
      if (floorMod(cong.constant, cong.modulus) != 0)
        return false;
      continue;
    }
    congruencesAt[last].push_back(&cong);
  }
  return true;
}

Search::LevelStatus Search::computeInterval(unsigned col) {
  bool hasLower = false, hasUpper = false;
  Wide low = INT64_MIN, high = INT64_MAX;
  for (const Inequality &row : projection.bounds[col]) {
    // row: a * x_col + s >= 0, s the constant plus the fixed columns.
    Wide s = row.constant;
    for (unsigned c = 0; c < col; ++c) {
      s += static_cast<Wide>(row.coeffs[c]) * value[c];
      if (s > kSumLimit || s < -kSumLimit)
        return LevelStatus::TooLarge;
    }
    Wide a = row.coeffs[col];
    if (a > 0) {
      hasLower = true;
      low = std::max(low, -floorDiv(s, a)); // ceil(-s / a)
    } else {
      hasUpper = true;
      high = std::min(high, floorDiv(s, -a));
    }
  }
  // The relaxation was checked to be bounded, so a missing bound means the
  // system is not one the solver can search; it is not a user error.
  if (!hasLower || !hasUpper)
    return LevelStatus::TooLarge;
  lo[col] = std::max<Wide>(low, INT64_MIN);
  hi[col] = std::min<Wide>(high, INT64_MAX);
  return lo[col] <= hi[col] ? LevelStatus::Ready : LevelStatus::Empty;
}

Search::LevelStatus Search::computeProgression(unsigned col, Wide &residue,
                                               Wide &stride) {
  residue = 0;
  stride = 1;
  for (const Congruence *cong : congruencesAt[col]) {
    Wide m = cong->modulus;
    Wide s = floorMod(cong->constant, m);
    for (unsigned c = 0; c < col; ++c)
      s = floorMod(s + floorMod(cong->coeffs[c], m) * floorMod(value[c], m), m);
    // coeff * (residue + stride * t) + s == 0 (mod m), solved for t.
    Wide coeff = floorMod(cong->coeffs[col], m);
    Wide alpha = floorMod(coeff * floorMod(stride, m), m);
    Wide beta = floorMod(-(s + coeff * floorMod(residue, m)), m);
    Wide g = gcdWide(alpha, m);
    if (beta % g != 0)
      return LevelStatus::Empty;
    Wide reduced = m / g;
    Wide t = 0;
    if (reduced > 1)
      t = floorMod((beta / g) * inverseMod(alpha / g, reduced), reduced);
    residue += stride * t;
    stride *= reduced;
    if (stride > kStepLimit)
      return LevelStatus::TooLarge;
    residue = floorMod(residue, stride);
  }
  return LevelStatus::Ready;
}

Search::LevelStatus Search::enter(unsigned col) {
  if (budget.stepsLeft == 0)
    return LevelStatus::TooLarge;
  --budget.stepsLeft;
  LevelStatus status = computeInterval(col);
  if (status != LevelStatus::Ready)
    return status;
  Wide residue, stride;
  status = computeProgression(col, residue, stride);
  if (status != LevelStatus::Ready)
    return status;
  step[col] = stride;
  if (ascending(col))
    value[col] = lo[col] + floorMod(residue - lo[col], stride);
  else
    value[col] = hi[col] - floorMod(hi[col] - residue, stride);
  bool inside = value[col] >= lo[col] && value[col] <= hi[col];
  return inside ? LevelStatus::Ready : LevelStatus::Empty;
}

Search::LevelStatus Search::advance(unsigned col) {
  if (budget.stepsLeft == 0)
    return LevelStatus::TooLarge;
  --budget.stepsLeft;
  value[col] += ascending(col) ? step[col] : -step[col];
  bool inside = value[col] >= lo[col] && value[col] <= hi[col];
  return inside ? LevelStatus::Ready : LevelStatus::Empty;
}

SearchStatus Search::run(std::vector<int64_t> &point) {
  if (projection.status == Projection::Status::Empty || !attachCongruences())
    return SearchStatus::None;
  if (projection.status == Projection::Status::TooLarge)
    return SearchStatus::TooLarge;
  if (n == 0) {
    point.clear();
    return SearchStatus::Found;
  }
  unsigned col = 0;
  LevelStatus status = enter(0);
  while (true) {
    if (status == LevelStatus::TooLarge)
      return SearchStatus::TooLarge;
    if (status == LevelStatus::Ready) {
      if (col + 1 == n)
        break;
      ++col;
      status = enter(col);
      continue;
    }
    if (col == 0)
      return SearchStatus::None;
    --col;
    status = advance(col);
  }
  point.resize(n);
  for (unsigned c = 0; c < n; ++c)
    point[c] = static_cast<int64_t>(value[c]);
  return SearchStatus::Found;
}
} // namespace

SearchStatus solver::findFirstPoint(const LinearSystem &system,
                                    const Projection &projection,
                                    bool descendFirst, Budget &budget,
                                    std::vector<int64_t> &point) {
  return Search(system, projection, descendFirst, budget).run(point);
}
