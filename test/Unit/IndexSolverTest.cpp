//===- IndexSolverTest.cpp - Index ranges and duplicate '=' writes --------===//
//
// Each system is written next to the Tile contraction it comes from. The
// binder numbers variables in order of first occurrence; these tests do the
// same and list one range constraint per output index, operand index and
// constraint.
//
//===----------------------------------------------------------------------===//

#include "IndexTestHelpers.h"

#include "tilec/Frontend/Affine.h"

#include <catch2/catch.hpp>

#include <chrono>

using namespace tilec;
using namespace tilec::test;

namespace {
using Ranges = std::vector<std::pair<int64_t, int64_t>>;
using Status = RangeResult::Status;
using DupStatus = DuplicateWriteResult::Status;

IndexSystem makeSystem(unsigned numVars,
                       std::vector<std::pair<Affine, int64_t>> constraints) {
  IndexSystem s;
  s.numVars = numVars;
  for (auto &[expr, upper] : constraints)
    s.constraints.push_back({expr, upper});
  return s;
}

template <typename F> double millisecondsOf(F &&f) {
  auto start = std::chrono::steady_clock::now();
  f();
  std::chrono::duration<double, std::milli> d =
      std::chrono::steady_clock::now() - start;
  return d.count();
}

/// O[n, y, x, co : N, OH, OW, CO] = +(I[n, s*y + d*ky - p, s*x + d*kx - p,
/// ci] * F[ky, kx, ci, co]); variables n y x co ky kx ci.
IndexSystem conv2d(int64_t n, int64_t h, int64_t w, int64_t ci, int64_t co,
                   int64_t k, int64_t stride, int64_t dil, int64_t pad) {
  int64_t oh = (h + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  int64_t ow = (w + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  return makeSystem(
      7, {{lin({1}), n},
          {lin({0, 1}), oh},
          {lin({0, 0, 1}), ow},
          {lin({0, 0, 0, 1}), co},
          {lin({1}), n},
          {lin({0, stride, 0, 0, dil}, -pad), h},
          {lin({0, 0, stride, 0, 0, dil}, -pad), w},
          {lin({0, 0, 0, 0, 0, 0, 1}), ci},
          {lin({0, 0, 0, 0, 1}), k},
          {lin({0, 0, 0, 0, 0, 1}), k},
          {lin({0, 0, 0, 0, 0, 0, 1}), ci},
          {lin({0, 0, 0, 1}), co}});
}
} // namespace

TEST_CASE("ranges of a matmul", "[solver]") {
  // C[i, j : M, N] = +(A[i, k] * B[k, j]); A[M, K], B[K, N].
  IndexSystem s = makeSystem(3, {{lin({1}), 4},
                                 {lin({0, 1}), 5},
                                 {lin({1}), 4},
                                 {lin({0, 0, 1}), 6},
                                 {lin({0, 0, 1}), 6},
                                 {lin({0, 1}), 5}});
  RangeResult r = computeRanges(s);
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 3}, {0, 4}, {0, 5}});
}

TEST_CASE("ranges of convolutions with padding, stride and dilation",
          "[solver]") {
  // O[y : 6] = +(I[y + k - 2] * F[k]); I[3], F[3]: the oversized output
  // leaves y = 5 without any valid assignment.
  IndexSystem s = makeSystem(
      2, {{lin({1}), 6}, {lin({1, 1}, -2), 3}, {lin({0, 1}), 3}});
  RangeResult r = computeRanges(s);
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 4}, {0, 2}});

  // The 7.11 conv: stride 2, padding 1, 3x3, on H = W = 7.
  r = computeRanges(conv2d(2, 7, 7, 3, 4, 3, 2, 1, 1));
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges ==
        Ranges{{0, 1}, {0, 3}, {0, 3}, {0, 3}, {0, 2}, {0, 2}, {0, 2}});

  // Dilation 2 and stride 3 on H = 10 without padding: OH = 2, and
  // 3*y + 2*ky < 10 always holds, so every ky is used.
  r = computeRanges(conv2d(1, 10, 10, 1, 1, 3, 3, 2, 0));
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges[1] == std::make_pair<int64_t, int64_t>(0, 1));
  CHECK(r.ranges[4] == std::make_pair<int64_t, int64_t>(0, 2));

  // Padding 3 with a dilated 3-tap filter: y = 0 reads I[2*ky - 3], so only
  // ky = 2 is valid there, and y = 7 would need I[4 + 2*ky].
  // O[y : 8] = +(I[y + 2*ky - 3] * F[ky]); I[4], F[3].
  s = makeSystem(2, {{lin({1}), 8}, {lin({1, 2}, -3), 4}, {lin({0, 1}), 3}});
  r = computeRanges(s);
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 6}, {0, 2}});
}

TEST_CASE("ranges of a max pool with and without a window constraint",
          "[solver]") {
  // O[x : 3] = >(I[2*x + k]), k < 3; I[7].
  IndexSystem windowed = makeSystem(
      2, {{lin({1}), 3}, {lin({2, 1}), 7}, {lin({0, 1}), 3}});
  RangeResult r = computeRanges(windowed);
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 2}, {0, 2}});

  // Without k < 3, k is still limited through x: 0 <= 2*x + k < 7.
  IndexSystem open = makeSystem(2, {{lin({1}), 3}, {lin({2, 1}), 7}});
  r = computeRanges(open);
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 2}, {-4, 6}});
}

TEST_CASE("unbounded variables are named", "[solver]") {
  // O[] = +(I[i - j]); I[5]: only i - j is limited.
  RangeResult r = computeRanges(makeSystem(2, {{lin({1, -1}), 5}}));
  CHECK(r.status == Status::Unbounded);
  CHECK(r.var == 0);
  // O[i : 3] = +(I[i - j + k]), k < 2: j = i + k - (i - j + k) is bounded.
  r = computeRanges(makeSystem(
      3, {{lin({1}), 3}, {lin({1, -1, 1}), 4}, {lin({0, 0, 1}), 2}}));
  CHECK(r.status == Status::Ok);
  // O[i : 3] = +(I[j + k]): j and k only appear together.
  r = computeRanges(makeSystem(3, {{lin({1}), 3}, {lin({0, 1, 1}), 4}}));
  CHECK(r.status == Status::Unbounded);
  CHECK(r.var == 1);
  // A variable that no constraint mentions is unbounded.
  r = computeRanges(makeSystem(2, {{lin({1}), 3}}));
  CHECK(r.status == Status::Unbounded);
  CHECK(r.var == 1);
}

TEST_CASE("cumulative sums and negative ranges", "[solver]") {
  // O[i : 5] = +(I[j]), i - j < 5: j <= i.
  RangeResult r = computeRanges(
      makeSystem(2, {{lin({1}), 5}, {lin({0, 1}), 5}, {lin({1, -1}), 5}}));
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 4}, {0, 4}});
  // j < i: i - j - 1 < 5 leaves i = 0 without a j.
  r = computeRanges(
      makeSystem(2, {{lin({1}), 5}, {lin({0, 1}), 5}, {lin({1, -1}, -1), 5}}));
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{1, 4}, {0, 3}});
  // O[i : 5] = +(I[i - j]); I[5]: j runs from i - 4 to i.
  r = computeRanges(makeSystem(2, {{lin({1}), 5}, {lin({1, -1}), 5}}));
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 4}, {-4, 4}});
  // O[i : 4] = +(I[i + j + 5]); I[3]: j is always negative.
  r = computeRanges(makeSystem(2, {{lin({1}), 4}, {lin({1, 1}, 5), 3}}));
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 3}, {-8, -3}});
}

TEST_CASE("fractional index polynomials", "[solver]") {
  // Y[y : 6] = +(X[(y + 1 - t) / 2] * K[t]); X[3], K[4].
  IndexSystem deconv = makeSystem(
      2, {{lin({1}), 6}, {lin({q(1, 2), q(-1, 2)}, q(1, 2)), 3},
          {lin({0, 1}), 4}});
  RangeResult r = computeRanges(deconv);
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 5}, {0, 3}});

  // i/2 + j/2 + 1/2 < 2 with i, j < 5 admits only i + j = 1.
  IndexSystem pair = makeSystem(
      2, {{lin({1}), 5},
          {lin({0, 1}), 5},
          {lin({q(1, 2), q(1, 2)}, q(1, 2)), 2}});
  r = computeRanges(pair);
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 1}, {0, 1}});
  // So O[] = =(...) over it is written by exactly (0, 1) and (1, 0).
  std::optional<DuplicateWrite> dup =
      findDuplicateWrite(pair, {}, r.ranges);
  REQUIRE(dup);
  CHECK(dup->first == std::vector<int64_t>{0, 1});
  CHECK(dup->second == std::vector<int64_t>{1, 0});

  // U[i/3 : 4] = +(X[i]); X[11]: i must be a multiple of 3.
  r = computeRanges(
      makeSystem(1, {{lin({q(1, 3)}), 4}, {lin({1}), 11}}));
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges == Ranges{{0, 9}});
}

TEST_CASE("infeasible contractions", "[solver]") {
  // O[i : 4] = +(I[i + 10]); I[8].
  RangeResult r =
      computeRanges(makeSystem(1, {{lin({1}), 4}, {lin({1}, 10), 8}}));
  CHECK(r.status == Status::Infeasible);
  // O[i : 4] = +(I[N/2 + i]) with N = 5; I[8]: never an integer.
  Affine half = lin({1}, q(5, 2));
  CHECK(neverIntegral(half));
  r = computeRanges(makeSystem(1, {{lin({1}), 4}, {half, 8}}));
  CHECK(r.status == Status::Infeasible);
  // Infeasible only by integrality that no single polynomial shows:
  // x = 2y + 1 and x = 2z.
  r = computeRanges(makeSystem(3, {{lin({1}), 10},
                                   {lin({0, 1}), 5},
                                   {lin({0, 0, 1}), 5},
                                   {lin({1, -2}, -1), 1},
                                   {lin({1, 0, -2}), 1}}));
  CHECK(r.status == Status::Infeasible);
  // A zero-sized bound admits nothing.
  r = computeRanges(makeSystem(1, {{lin({1}), 0}, {lin({1}), 4}}));
  CHECK(r.status == Status::Infeasible);
  // Rank-0 contractions: O[] = +(I[]) is fine, O[] = +(I[1/2]) is not.
  r = computeRanges(makeSystem(0, {}));
  CHECK(r.status == Status::Ok);
  CHECK(r.ranges.empty());
  r = computeRanges(makeSystem(0, {{lin({}, q(1, 2)), 3}}));
  CHECK(r.status == Status::Infeasible);
}

TEST_CASE("the three '=' examples of 7.6", "[solver]") {
  // D[i : 4] = =(M[i, j]), i - j < 1; M[4, 4]: the constraint forces j = i.
  IndexSystem diag = makeSystem(2, {{lin({1}), 4},
                                    {lin({1}), 4},
                                    {lin({0, 1}), 4},
                                    {lin({1, -1}), 1}});
  RangeResult r = computeRanges(diag);
  REQUIRE(r.status == Status::Ok);
  CHECK(checkDuplicateWrites(diag, {lin({1})}, r.ranges).status ==
        DupStatus::Unique);

  // O[i : 4] = =(M[i, j]); M[4, 2].
  IndexSystem twoCols =
      makeSystem(2, {{lin({1}), 4}, {lin({1}), 4}, {lin({0, 1}), 2}});
  r = computeRanges(twoCols);
  REQUIRE(r.status == Status::Ok);
  std::optional<DuplicateWrite> dup =
      findDuplicateWrite(twoCols, {lin({1})}, r.ranges);
  REQUIRE(dup);
  CHECK(dup->first == std::vector<int64_t>{0, 0});
  CHECK(dup->second == std::vector<int64_t>{0, 1});

  // P[i, k : 3, 5] = =(A[i, j] * B[j, k]); variables i j k.
  auto matmul = [](int64_t cols) {
    return makeSystem(3, {{lin({1}), 3},
                          {lin({0, 0, 1}), 5},
                          {lin({1}), 3},
                          {lin({0, 1}), cols},
                          {lin({0, 1}), cols},
                          {lin({0, 0, 1}), 5}});
  };
  std::vector<Affine> outs = {lin({1}), lin({0, 0, 1})};
  IndexSystem single = matmul(1);
  CHECK(checkDuplicateWrites(single, outs, computeRanges(single).ranges)
            .status == DupStatus::Unique);
  IndexSystem two = matmul(2);
  DuplicateWriteResult d =
      checkDuplicateWrites(two, outs, computeRanges(two).ranges);
  REQUIRE(d.status == DupStatus::Duplicate);
  CHECK(d.pair.first == std::vector<int64_t>{0, 0, 0});
  CHECK(d.pair.second == std::vector<int64_t>{0, 1, 0});
}

TEST_CASE("more '=' contractions", "[solver]") {
  // U[2*i : 8] = =(X[i]): the output determines i.
  IndexSystem up = makeSystem(1, {{lin({2}), 8}, {lin({1}), 4}});
  CHECK(checkDuplicateWrites(up, {lin({2})}, computeRanges(up).ranges)
            .status == DupStatus::Unique);
  // F[2*r + c : 8] = =(X[r, c]); X[4, 2]: unique although one output
  // cannot determine two variables.
  IndexSystem flat = makeSystem(
      2, {{lin({2, 1}), 8}, {lin({1}), 4}, {lin({0, 1}), 2}});
  CHECK(checkDuplicateWrites(flat, {lin({2, 1})}, computeRanges(flat).ranges)
            .status == DupStatus::Unique);
  // With X[4, 3] the rows overlap: F[2] gets (0, 2) and (1, 0).
  IndexSystem overlap = makeSystem(
      2, {{lin({2, 1}), 8}, {lin({1}), 4}, {lin({0, 1}), 3}});
  auto dup = findDuplicateWrite(overlap, {lin({2, 1})},
                                computeRanges(overlap).ranges);
  REQUIRE(dup);
  CHECK(dup->first == std::vector<int64_t>{0, 2});
  CHECK(dup->second == std::vector<int64_t>{1, 0});
  // O[(i + j)/2 : 3] = =(X[i, j]); X[3, 3]: O[0] only from (0, 0), O[1]
  // from (0, 2), (1, 1) and (2, 0).
  IndexSystem diag = makeSystem(
      2, {{lin({q(1, 2), q(1, 2)}), 3}, {lin({1}), 3}, {lin({0, 1}), 3}});
  dup = findDuplicateWrite(diag, {lin({q(1, 2), q(1, 2)})},
                           computeRanges(diag).ranges);
  REQUIRE(dup);
  CHECK(dup->first == std::vector<int64_t>{0, 2});
  CHECK(dup->second == std::vector<int64_t>{1, 1});
  // R[b, t : 2, 3] = =(V[b]): t only in the output copies, uniquely.
  IndexSystem copy =
      makeSystem(2, {{lin({1}), 2}, {lin({0, 1}), 3}, {lin({1}), 2}});
  CHECK_FALSE(findDuplicateWrite(copy, {lin({1}), lin({0, 1})},
                                 computeRanges(copy).ranges));
  // T[] = =(X[i]); X[1] has one element, X[2] two.
  IndexSystem one = makeSystem(1, {{lin({1}), 1}});
  CHECK_FALSE(findDuplicateWrite(one, {}, computeRanges(one).ranges));
  IndexSystem two = makeSystem(1, {{lin({1}), 2}});
  CHECK(findDuplicateWrite(two, {}, computeRanges(two).ranges));
}

TEST_CASE("huge sizes are answered quickly", "[solver]") {
  const int64_t big = 1000000000000; // 1e12
  double ms = millisecondsOf([&] {
    IndexSystem mm = makeSystem(3, {{lin({1}), big},
                                    {lin({0, 1}), big},
                                    {lin({1}), big},
                                    {lin({0, 0, 1}), big},
                                    {lin({0, 0, 1}), big},
                                    {lin({0, 1}), big}});
    RangeResult r = computeRanges(mm);
    REQUIRE(r.status == Status::Ok);
    CHECK(r.ranges == Ranges{{0, big - 1}, {0, big - 1}, {0, big - 1}});

    RangeResult c = computeRanges(conv2d(big, big, big, big, big, 3, 2, 1, 1));
    REQUIRE(c.status == Status::Ok);
    CHECK(c.ranges[1].second == (big - 1) / 2);

    // O[i : N] = =(M[i, j]); M[N, 2] and the fractional deconv.
    IndexSystem dupSys =
        makeSystem(2, {{lin({1}), big}, {lin({1}), big}, {lin({0, 1}), 2}});
    CHECK(findDuplicateWrite(dupSys, {lin({1})},
                             computeRanges(dupSys).ranges));
    IndexSystem deconv = makeSystem(
        2, {{lin({1}), 2 * big}, {lin({q(1, 2), q(-1, 2)}, q(1, 2)), big},
            {lin({0, 1}), 4}});
    CHECK(computeRanges(deconv).ranges == Ranges{{0, 2 * big - 1}, {0, 3}});
    // x = 2y + 1 and x = 2z: the equalities' parities conflict.
    CHECK(computeRanges(makeSystem(3, {{lin({1}), 2 * big},
                                       {lin({0, 1}), big},
                                       {lin({0, 0, 1}), big},
                                       {lin({1, -2}, -1), 1},
                                       {lin({1, 0, -2}), 1}}))
              .status == Status::Infeasible);
    // N/2 + i with a huge odd N.
    CHECK(computeRanges(makeSystem(1, {{lin({1}), big},
                                       {lin({1}, q(big + 1, 2)), big}}))
              .status == Status::Infeasible);
  });
  INFO("huge-size cases took " << ms << " ms");
  CHECK(ms < 100);
}

TEST_CASE("the step budget stops pathological searches", "[solver]") {
  // (x - y)/2 and (x - y + 1)/2 both integral, with 1e12-sized ranges: the
  // projection allows every x, and the search finds out one x at a time.
  const int64_t big = 1000000000000;
  IndexSystem s = makeSystem(2, {{lin({1}), big},
                                 {lin({0, 1}), big},
                                 {lin({q(1, 2), q(-1, 2)}), big},
                                 {lin({q(1, 2), q(-1, 2)}, q(1, 2)), big}});
  RangeResult r;
  double ms = millisecondsOf([&] { r = computeRanges(s); });
  CHECK(r.status == Status::TooLarge);
  INFO("gave up after " << ms << " ms");
  CHECK(ms < 2000);
}

TEST_CASE("overflow is reported, never wrapped", "[solver]") {
  // i / 2^40 < 2^40 scales the bound to 2^80.
  const int64_t p40 = int64_t(1) << 40;
  RangeResult r =
      computeRanges(makeSystem(1, {{lin({q(1, p40)}), p40}, {lin({1}), 4}}));
  CHECK(r.status == Status::TooLarge);
  // Combining rows with huge coefficients.
  r = computeRanges(makeSystem(2, {{lin({INT64_MAX / 2, 1}), INT64_MAX},
                                   {lin({1, INT64_MAX / 3}), INT64_MAX}}));
  CHECK((r.status == Status::TooLarge || r.status == Status::Ok));
}

TEST_CASE("a big convolution is fast", "[solver]") {
  IndexSystem s = conv2d(8, 224, 224, 32, 64, 3, 1, 1, 1);
  RangeResult r;
  const int runs = 20;
  double ms = millisecondsOf([&] {
                for (int i = 0; i < runs; ++i)
                  r = computeRanges(s);
              }) /
              runs;
  REQUIRE(r.status == Status::Ok);
  CHECK(r.ranges ==
        Ranges{{0, 7}, {0, 223}, {0, 223}, {0, 63}, {0, 2}, {0, 2}, {0, 31}});
  // Its '=' check (with the reductions it is not unique).
  std::vector<Affine> outs = {lin({1}), lin({0, 1}), lin({0, 0, 1}),
                              lin({0, 0, 0, 1})};
  DuplicateWriteResult d;
  double dupMs =
      millisecondsOf([&] { d = checkDuplicateWrites(s, outs, r.ranges); });
  CHECK(d.status == DupStatus::Duplicate);
  WARN("conv2d 224x224x32: computeRanges " << ms << " ms, duplicate check "
                                           << dupMs << " ms");
  CHECK(ms < 10);
}

//===----------------------------------------------------------------------===//
// Cross-check against enumeration
//===----------------------------------------------------------------------===//

namespace {
/// Small random systems: coefficients in [-2, 2] over denominators 1..3.
struct RandomSystems {
  uint64_t state = 12345;
  int64_t next(int64_t lo, int64_t hi) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + static_cast<int64_t>((state >> 33) % (hi - lo + 1));
  }
  Affine affine(unsigned n) {
    int64_t den = next(1, 3);
    Affine a;
    for (unsigned v = 0; v < n; ++v)
      a.coeffs.push_back(q(next(-2, 2), den));
    a.constant = q(next(-4, 4), den);
    return a;
  }
};

bool isValid(const IndexSystem &s, const std::vector<int64_t> &x) {
  for (const RangeConstraint &rc : s.constraints) {
    Rational e = *rc.expr.evaluate(x);
    if (!e.isInteger() || e.num < 0 || e.num >= rc.upper)
      return false;
  }
  return true;
}

/// Every valid point of `s` in [-box, box]^n, in lexicographic order.
std::vector<std::vector<int64_t>> enumerate(const IndexSystem &s,
                                            int64_t box) {
  std::vector<std::vector<int64_t>> points;
  std::vector<int64_t> x(s.numVars, -box);
  while (true) {
    if (isValid(s, x))
      points.push_back(x);
    unsigned v = s.numVars;
    while (v > 0 && x[v - 1] == box)
      x[--v] = -box;
    if (v == 0)
      return points;
    ++x[v - 1];
  }
}
} // namespace

TEST_CASE("ranges and duplicates agree with enumeration", "[solver]") {
  RandomSystems gen;
  const int64_t box = 9;
  int checkedRanges = 0, checkedDuplicates = 0;
  for (int iter = 0; iter < 2500; ++iter) {
    unsigned n = static_cast<unsigned>(gen.next(1, 3));
    IndexSystem s;
    s.numVars = n;
    // One plain bound per variable keeps most systems bounded.
    for (unsigned v = 0; v < n; ++v)
      if (gen.next(0, 3) != 0) {
        Affine a;
        a.coeffs.assign(n, Rational());
        a.coeffs[v] = Rational(1);
        a.constant = Rational(gen.next(-3, 0));
        s.constraints.push_back({a, gen.next(1, 6)});
      }
    for (int64_t m = gen.next(1, 3); m > 0; --m)
      s.constraints.push_back({gen.affine(n), gen.next(1, 6)});
    RangeResult r = computeRanges(s);
    REQUIRE(r.status != Status::TooLarge);
    std::vector<std::vector<int64_t>> points = enumerate(s, box);
    INFO("iteration " << iter);
    if (r.status == Status::Infeasible) {
      CHECK(points.empty());
      continue;
    }
    if (r.status == Status::Unbounded)
      continue;
    bool insideBox = true;
    for (auto [lo, hi] : r.ranges)
      insideBox &= lo >= -box && hi <= box;
    if (!insideBox)
      continue; // too big to enumerate
    REQUIRE(!points.empty());
    Ranges expected(n, {box, -box});
    for (const auto &p : points)
      for (unsigned v = 0; v < n; ++v) {
        expected[v].first = std::min(expected[v].first, p[v]);
        expected[v].second = std::max(expected[v].second, p[v]);
      }
    CHECK(r.ranges == expected);
    ++checkedRanges;

    // '=' with one random output: the lexicographically least pair.
    std::vector<Affine> outs = {gen.affine(n)};
    std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>> best;
    for (size_t a = 0; a < points.size(); ++a)
      for (size_t b = a + 1; b < points.size(); ++b)
        if (*outs[0].evaluate(points[a]) == *outs[0].evaluate(points[b])) {
          auto pair = std::make_pair(points[a], points[b]);
          if (!best || pair < *best)
            best = pair;
        }
    DuplicateWriteResult d = checkDuplicateWrites(s, outs, r.ranges);
    REQUIRE(d.status != DupStatus::TooLarge);
    CHECK((d.status == DupStatus::Duplicate) == best.has_value());
    if (best && d.status == DupStatus::Duplicate) {
      CHECK(d.pair.first == best->first);
      CHECK(d.pair.second == best->second);
    }
    ++checkedDuplicates;
  }
  CHECK(checkedRanges > 500);
  CHECK(checkedDuplicates > 500);
}
