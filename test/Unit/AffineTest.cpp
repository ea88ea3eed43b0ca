//===- AffineTest.cpp - Exact rational affine arithmetic ------------------===//

#include "IndexTestHelpers.h"

#include "tilec/Frontend/Affine.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::test;

namespace {
const std::vector<std::string> names = {"i", "j", "k"};
} // namespace

TEST_CASE("rationals are reduced with a positive denominator", "[affine]") {
  CHECK(q(6, 4).num == 3);
  CHECK(q(6, 4).den == 2);
  CHECK(q(6, -4).num == -3);
  CHECK(q(6, -4).den == 2);
  CHECK(q(0, -7) == Rational(0));
  CHECK(q(-8, -4) == Rational(2));
  CHECK_FALSE(Rational::make(1, 0));
  CHECK(q(INT64_MIN, 2) == Rational(INT64_MIN / 2));
  // -INT64_MIN does not fit, so INT64_MIN / -1 overflows.
  CHECK_FALSE(Rational::make(INT64_MIN, -1));
  CHECK(q(-5, 2).str() == "-5/2");
  CHECK(Rational(3).str() == "3");
}

TEST_CASE("checked rational arithmetic", "[affine]") {
  CHECK(*add(q(1, 2), q(1, 3)) == q(5, 6));
  CHECK(*sub(q(1, 2), q(1, 2)) == Rational(0));
  CHECK(*mul(q(2, 3), q(3, 4)) == q(1, 2));
  CHECK(*div(q(1, 2), q(-1, 4)) == Rational(-2));
  CHECK_FALSE(div(q(1, 2), Rational(0)));
  // Intermediate products beyond 64 bits are fine when the result fits.
  CHECK(*mul(q(INT64_MAX, 3), q(3, INT64_MAX)) == Rational(1));
  CHECK(*add(q(1, INT64_MAX), q(-1, INT64_MAX)) == Rational(0));
  // Results beyond 64 bits are overflow.
  CHECK_FALSE(add(Rational(INT64_MAX), Rational(1)));
  CHECK_FALSE(sub(Rational(INT64_MIN), Rational(1)));
  CHECK_FALSE(mul(Rational(INT64_MAX), Rational(2)));
  CHECK_FALSE(add(q(1, INT64_MAX), q(1, INT64_MAX - 1)));
}

TEST_CASE("rational comparison, floor and ceil", "[affine]") {
  CHECK(compare(q(1, 3), q(1, 2)) < 0);
  CHECK(compare(q(-1, 3), q(-1, 2)) > 0);
  CHECK(compare(q(2, 4), q(1, 2)) == 0);
  CHECK(compare(Rational(INT64_MAX), Rational(INT64_MIN)) > 0);
  CHECK(floorOf(q(7, 2)) == 3);
  CHECK(ceilOf(q(7, 2)) == 4);
  CHECK(floorOf(q(-7, 2)) == -4);
  CHECK(ceilOf(q(-7, 2)) == -3);
  CHECK(floorOf(Rational(-3)) == -3);
  CHECK(ceilOf(Rational(-3)) == -3);
  CHECK(floorOf(Rational(INT64_MIN)) == INT64_MIN);
  CHECK(ceilOf(q(INT64_MAX, 2)) == INT64_MAX / 2 + 1);
}

TEST_CASE("affine helpers", "[affine]") {
  Affine a = lin({2, 0, 1}, -1);
  CHECK_FALSE(a.isConstant());
  CHECK(a.occurringVars() == std::vector<unsigned>{0, 2});
  CHECK(lin({0, 0}, 5).isConstant());
  // i - i does not make i occur.
  Affine cancelled = *sub(lin({1}), lin({1}));
  CHECK(cancelled.isConstant());
  CHECK(cancelled.occurringVars().empty());
  CHECK(*a.evaluate({3, 100, 4}) == Rational(9));
  CHECK(*lin({q(1, 2)}, q(1, 2)).evaluate({2}) == q(3, 2));
  CHECK_FALSE(lin({INT64_MAX}).evaluate({2}));
  Affine sum = *add(lin({1}), lin({0, 3}, 2));
  CHECK(sum.coeff(0) == Rational(1));
  CHECK(sum.coeff(1) == Rational(3));
  CHECK(sum.coeff(7) == Rational(0));
  CHECK(sum.constant == Rational(2));
  Affine half = *scale(lin({2, 1}, 1), q(1, 2));
  CHECK(half.coeff(0) == Rational(1));
  CHECK(half.coeff(1) == q(1, 2));
  CHECK_FALSE(scale(lin({INT64_MAX}), Rational(2)));
  CHECK_FALSE(add(lin({}, INT64_MAX), lin({}, 1)));
}

TEST_CASE("affine printing", "[affine]") {
  CHECK(lin({2, 1}, -1).str(names) == "2*i + j - 1");
  CHECK(lin({-1, 0, 3}).str(names) == "-i + 3*k");
  CHECK(lin({}, 0).str(names) == "0");
  CHECK(lin({0, 0}, -4).str(names) == "-4");
  CHECK(lin({}, q(5, 2)).str(names) == "5/2");
  CHECK(lin({}, q(-5, 2)).str(names) == "-5/2");
  // N/2 + i with N = 5: a fractional constant stays with the constant.
  CHECK(lin({1}, q(5, 2)).str(names) == "i + 5/2");
  CHECK(lin({1, -2}, q(-1, 3)).str(names) == "i - 2*j - 1/3");
  CHECK(lin({q(1, 2)}).str(names) == "i/2");
  CHECK(lin({q(-3, 2)}).str(names) == "-3*i/2");
  // (y + 1 - t) / 2 with y = i and t = j.
  CHECK(lin({q(1, 2), q(-1, 2)}, q(1, 2)).str(names) == "(i - j + 1)/2");
  CHECK(lin({q(1, 2), q(1, 3)}).str(names) == "(3*i + 2*j)/6");
  // Variables without a name still print.
  CHECK(lin({0, 0, 0, 1}).str(names) == "v3");
  // A common denominator beyond 64 bits falls back to one fraction a term.
  Affine wide = lin({q(1, INT64_MAX), q(1, INT64_MAX - 1)});
  CHECK(wide.str(names) == "i/" + std::to_string(INT64_MAX) + " + j/" +
                               std::to_string(INT64_MAX - 1));
  CHECK(lin({Rational(INT64_MIN)}).str(names) == "-9223372036854775808*i");
}

TEST_CASE("never integral polynomials", "[affine]") {
  // N/2 + i with N = 5.
  CHECK(neverIntegral(lin({1}, q(5, 2))));
  CHECK_FALSE(neverIntegral(lin({1}, q(4, 2))));
  // (y + 1 - t) / 2 is integral when y - t is odd.
  CHECK_FALSE(neverIntegral(lin({q(1, 2), q(-1, 2)}, q(1, 2))));
  // (2i + 1)/4 and (4i + 2j + 1)/4 have odd numerators.
  CHECK(neverIntegral(lin({q(1, 2)}, q(1, 4))));
  CHECK(neverIntegral(lin({1, q(1, 2)}, q(1, 4))));
  CHECK(neverIntegral(lin({1, 2}, q(1, 3))));
  CHECK_FALSE(neverIntegral(lin({q(2, 3), q(1, 3)}, q(1, 3))));
  CHECK(neverIntegral(lin({}, q(1, 3))));
  CHECK_FALSE(neverIntegral(lin({}, 7)));
}
