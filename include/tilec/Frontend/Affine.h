//===- Affine.h - Exact rational affine index arithmetic --------*- C++ -*-===//
//
// Index polynomials of contractions are affine functions c0 + sum(ci * vi)
// of integer index variables with rational coefficients (docs/language.md
// 7.2). Arithmetic is exact: a numerator or denominator that does not fit in
// 64 bits is reported as overflow, never wrapped.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_AFFINE_H
#define TILEC_FRONTEND_AFFINE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// A reduced fraction num/den with den > 0.
struct Rational {
  int64_t num = 0;
  int64_t den = 1;

  Rational() = default;
  Rational(int64_t n) : num(n), den(1) {}
  /// Reduces; nullopt if den == 0 or a reduced part overflows int64.
  static std::optional<Rational> make(int64_t num, int64_t den);

  bool isInteger() const { return den == 1; }
  bool isZero() const { return num == 0; }
  bool operator==(const Rational &o) const {
    return num == o.num && den == o.den;
  }
  bool operator!=(const Rational &o) const { return !(*this == o); }
  /// "3", "-5/2"
  std::string str() const;
};

/// Checked operations: nullopt on overflow (or division by zero).
std::optional<Rational> add(Rational a, Rational b);
std::optional<Rational> sub(Rational a, Rational b);
std::optional<Rational> mul(Rational a, Rational b);
std::optional<Rational> div(Rational a, Rational b);
/// Exact comparison: negative, zero or positive like a - b.
int compare(Rational a, Rational b);
/// floor and ceil of a rational.
int64_t floorOf(Rational a);
int64_t ceilOf(Rational a);

/// c0 + sum(coeffs[v] * v) over index variables numbered 0..n-1.
struct Affine {
  Rational constant;
  std::vector<Rational> coeffs; ///< may be shorter than the variable count

  /// The polynomial `v` (variable number v).
  static Affine variable(unsigned v);

  Rational coeff(unsigned var) const {
    return var < coeffs.size() ? coeffs[var] : Rational();
  }
  bool isConstant() const;
  /// Variables with a non-zero coefficient ("occur", 7.2).
  std::vector<unsigned> occurringVars() const;
  /// Evaluates at an integer point; nullopt on overflow.
  std::optional<Rational> evaluate(const std::vector<int64_t> &point) const;
  /// "2*i + j - 1", "(i + 1)/2" style printing with the given names.
  std::string str(const std::vector<std::string> &varNames) const;
};

std::optional<Affine> add(const Affine &a, const Affine &b);
std::optional<Affine> sub(const Affine &a, const Affine &b);
std::optional<Affine> scale(const Affine &a, Rational factor);

/// True if no integer point makes `a` an integer (for example N/2 + i with N
/// odd): the gcd condition on the numerators over the common denominator.
bool neverIntegral(const Affine &a);

//===----------------------------------------------------------------------===//
// Integer index systems (docs/language.md 7.3, 7.6, 7.9)
//===----------------------------------------------------------------------===//

/// 0 <= expr < upper, and expr integral, at an integer point.
struct RangeConstraint {
  Affine expr;
  int64_t upper = 0; ///< exclusive; the output size, tensor dimension or bound
};

/// The set of valid index assignments of one contraction: integer points in
/// Z^numVars satisfying every constraint.
struct IndexSystem {
  unsigned numVars = 0;
  std::vector<RangeConstraint> constraints;
};

/// The outcome of range inference.
struct RangeResult {
  enum class Status {
    Ok,         ///< ranges holds [lo, hi] of every variable
    Unbounded,  ///< the rational relaxation leaves `var` unbounded
    Infeasible, ///< no integer point is valid
    TooLarge,   ///< arithmetic overflowed 64 bits, or the system is too
                ///< big for the solver (see computeRanges)
  };
  Status status = Status::Ok;
  unsigned var = 0; ///< the unbounded variable
  std::vector<std::pair<int64_t, int64_t>> ranges; ///< inclusive [lo, hi]
};

/// Exact ranges over the integer points (7.9): for each variable the least
/// and greatest value it takes over all valid assignments. Unboundedness is
/// judged on the rational relaxation, ignoring integrality, as 7.9 says.
/// Checks in this order: an empty relaxation is Infeasible, an unbounded
/// one is Unbounded (var = the lowest-numbered unbounded variable), and
/// otherwise the integer search gives Ok or Infeasible (var = 0). TooLarge
/// also covers systems beyond the solver's limits: a Fourier-Motzkin step
/// with more than 20000 rows, or an integer search of more than a million
/// steps. Real contractions stay far below both; the limits exist so that a
/// pathological program fails with a diagnostic instead of hanging.
RangeResult computeRanges(const IndexSystem &system);

/// For the '=' aggregation (7.6): two different valid assignments that give
/// the same values to every expression of `outputs`, if any exist. The pair
/// is ordered (first is lexicographically smaller). `ranges` is the result of
/// computeRanges on the same system (status Ok).
struct DuplicateWrite {
  std::vector<int64_t> first, second;
};
/// Returns nullopt both when every write is unique and when the search hit
/// the solver's limits; use checkDuplicateWrites to tell the two apart.
std::optional<DuplicateWrite>
findDuplicateWrite(const IndexSystem &system, const std::vector<Affine> &outputs,
                   const std::vector<std::pair<int64_t, int64_t>> &ranges);

/// findDuplicateWrite with a status. Of the duplicate pairs, the one
/// reported is the lexicographically least (first, then second).
struct DuplicateWriteResult {
  enum class Status {
    Unique,    ///< no two valid assignments write the same cell
    Duplicate, ///< `pair` holds two that do
    TooLarge,  ///< overflow or the solver's limits (see computeRanges)
  };
  Status status = Status::Unique;
  DuplicateWrite pair;
};
DuplicateWriteResult
checkDuplicateWrites(const IndexSystem &system,
                     const std::vector<Affine> &outputs,
                     const std::vector<std::pair<int64_t, int64_t>> &ranges);

} // namespace tilec

#endif // TILEC_FRONTEND_AFFINE_H
