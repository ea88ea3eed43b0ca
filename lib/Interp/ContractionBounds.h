//===- ContractionBounds.h - Bounds of a contraction's cells ----*- C++ -*-===//
//
// Private to lib/Interp. While the contraction's loop nest feeds its runs to
// the accumulator, it can feed them here too: per output cell, the bound of
// the aggregation of the terms' bounds (Bounds.h): a sum by SumBound, a
// product by ProductBound, max and min by the widest term bound (they pick
// one term, and every term moves at most by its bound), `=` by its term's.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERP_CONTRACTIONBOUNDS_H
#define TILEC_LIB_INTERP_CONTRACTIONBOUNDS_H

#include "Bounds.h"

#include "tilec/Frontend/AST.h"
#include "tilec/Support/Tensor.h"

#include <cstdint>
#include <vector>

namespace tilec::interp {

/// The run of `count` assignments along the innermost loop: the flat offsets
/// of the output and the operands at the first, and their steps.
struct ContractionRun {
  int64_t count = 0;
  int64_t out = 0, outStep = 0;
  int64_t off[3] = {0, 0, 0}, step[3] = {0, 0, 0};
};

class ContractionBounds {
public:
  /// `termType`: the type terms are rounded to (the combination's type for
  /// Mul and Add, else the output's); `outType` the output's element type;
  /// `tf32`: a sum of f32 products whose operands the back end may round
  /// to TF32 (ReferenceRules::tf32Products).
  ContractionBounds(ast::CombKind comb, ast::AggKind agg, DType termType,
                    DType outType, size_t cells, bool tf32 = false);

  /// The operands as the accumulator reads them (doubles, or keys for the
  /// two compared operands of Eq and Cond) and their radii (null: exact).
  const double *value[3] = {nullptr, nullptr, nullptr};
  const ErrorBound *radius[3] = {nullptr, nullptr, nullptr};
  const int64_t *key[2] = {nullptr, nullptr};

  void add(const ContractionRun &run);

  /// The radii of `out`, whose cells marked in `touched` were aggregated;
  /// the others hold the default (of radii `defaults`, empty when exact).
  Radii finish(const Tensor &out, const std::vector<uint8_t> &touched,
               const Radii &defaults) const;

private:
  ast::CombKind comb;
  ast::AggKind agg;
  DType termType, outType;
  bool tf32;
  CorrectRounding termRounding;       ///< of a Mul or Add term
  std::vector<SumBound> sums;         ///< Sum
  std::vector<ProductBound> products; ///< Prod
  std::vector<ErrorBound> widest;     ///< Max, Min, Assign

  /// The term at operand offsets `off`, how far it moves with its
  /// operands, and its own rounding error (0 when it is not rounded).
  void term(const int64_t *off, double &t, ErrorBound &spread,
            double &own) const;
};

/// `src`'s radii after its elements are converted to `to` as a contraction
/// loads them; empty when they are all exact.
Radii convertRadii(const Tensor &src, const Radii &radii, DType to);

} // namespace tilec::interp

#endif // TILEC_LIB_INTERP_CONTRACTIONBOUNDS_H
