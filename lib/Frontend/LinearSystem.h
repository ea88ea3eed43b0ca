//===- LinearSystem.h - The index solver's linear systems -------*- C++ -*-===//
//
// Private to lib/Frontend. The index solver (IndexSolver.cpp) turns the
// range constraints of a contraction into integer inequalities and
// congruences over columns, projects them with Fourier-Motzkin elimination
// (FourierMotzkin.cpp) and enumerates integer points column by column
// (IntegerSearch.cpp). All arithmetic is checked: overflow is a status,
// never undefined behaviour.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_FRONTEND_LINEARSYSTEM_H
#define TILEC_LIB_FRONTEND_LINEARSYSTEM_H

#include "tilec/Frontend/Affine.h"
#include "tilec/Support/CheckedMath.h"

#include <cstdint>
#include <vector>

namespace tilec::solver {

/// sum(coeffs[c] * x_c) + constant >= 0, or > 0 when strict.
struct Inequality {
  std::vector<int64_t> coeffs;
  int64_t constant = 0;
  bool strict = false;
};

/// sum(coeffs[c] * x_c) + constant == 0 (mod modulus), modulus >= 2.
struct Congruence {
  std::vector<int64_t> coeffs;
  int64_t constant = 0;
  int64_t modulus = 2;
};

/// A conjunction of inequalities and congruences over numCols integer (or,
/// for the relaxation, rational) columns.
struct LinearSystem {
  unsigned numCols = 0;
  std::vector<Inequality> inequalities;
  std::vector<Congruence> congruences;
  bool empty = false;    ///< a constraint without variables already fails
  bool overflow = false; ///< building the system overflowed 64 bits
};

/// Whether a system describes integer points (constraints are tightened to
/// integer bounds, congruences kept) or the rational relaxation of 7.9
/// (0 <= e < upper with no integrality).
enum class Domain { Integer, Rational };

/// Adds 0 <= expr < upper (and expr integral when the domain is Integer).
/// `expr` is over columns.
void addRange(LinearSystem &system, const Affine &expr, int64_t upper,
              Domain domain);
/// Adds expr >= 0.
void addNonNegative(LinearSystem &system, const Affine &expr);
/// Adds expr == 0 as two inequalities (no integrality).
void addZero(LinearSystem &system, const Affine &expr);

/// The result of eliminating columns n-1, ..., 0 in turn.
struct Projection {
  enum class Status { Ok, Empty, TooLarge };
  Status status = Status::Ok;
  /// bounds[c]: the inequalities left after eliminating the columns after c
  /// that mention column c. With columns 0..c-1 fixed they bound column c.
  std::vector<std::vector<Inequality>> bounds;
  /// Integer domain only: congruences implied by eliminating a column
  /// through an equality a*x_c + r == 0 with a > 1 (r == 0 mod a). They
  /// hold at every integer point and let the search see parity conflicts
  /// between equalities early.
  std::vector<Congruence> congruences;
};

/// Fourier-Motzkin projection. In the Integer domain each inequality is
/// tightened to its integer form (gcd-normalised, constant floored), which
/// keeps every integer point and prunes the search.
Projection project(const LinearSystem &system, Domain domain);

/// The outcome of an integer point search.
enum class SearchStatus { Found, None, TooLarge };

/// Shared step budget of one solver call; a search that exhausts it stops
/// with TooLarge instead of running for a very long time.
struct Budget {
  uint64_t stepsLeft;
};

/// Finds the first integer point of `system` (whose Integer-domain
/// projection is `projection`) in the order that scans column 0 upward, or
/// downward when `descendFirst`, and every later column upward: the
/// lexicographically least point, or the one with the greatest column 0.
SearchStatus findFirstPoint(const LinearSystem &system,
                            const Projection &projection, bool descendFirst,
                            Budget &budget, std::vector<int64_t> &point);

} // namespace tilec::solver

#endif // TILEC_LIB_FRONTEND_LINEARSYSTEM_H
