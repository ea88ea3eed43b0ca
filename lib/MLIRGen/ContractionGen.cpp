//===- ContractionGen.cpp - Contractions as tile.contract ------*- C++ -*-===//
//
// Index polynomials have rational coefficients (docs/language.md 7.2). A
// polynomial p is written q / d with q integral and d the least common
// denominator; maps hold `q floordiv d`, which is exact because the
// constraint set holds the integrality equality `q mod d == 0`. A range
// constraint 0 <= p < b becomes q >= 0 and (b - 1) * d - q >= 0.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace tilec;
using namespace tilec::mlirgen;

namespace {

/// A polynomial as q / d with integer q: the numerator's expression and d.
struct ScaledPoly {
  AffineExpr numerator;
  int64_t denominator = 1;
};

/// Builds the maps and constraint set of one contraction.
class ContractionBuilder {
public:
  ContractionBuilder(MLIRContext *context, unsigned numVars)
      : context(context), numVars(numVars) {}

  /// q / d of `poly`; nullopt if a scaled coefficient overflows.
  std::optional<ScaledPoly> scale(const Affine &poly);
  /// The map result of `poly` (records its integrality); null on overflow.
  AffineExpr access(const Affine &poly);
  /// Records 0 <= poly < bound; false on overflow.
  bool addRange(const Affine &poly, int64_t bound);

  IntegerSet constraintSet() {
    return tile::getConstraintSet(context, numVars, constraints, isEquality);
  }

private:
  void addConstraint(AffineExpr expr, bool equality) {
    for (auto [known, eq] : llvm::zip(constraints, isEquality))
      if (known == expr && eq == equality)
        return;
    constraints.push_back(expr);
    isEquality.push_back(equality);
  }

  MLIRContext *context;
  unsigned numVars;
  SmallVector<AffineExpr> constraints;
  SmallVector<bool> isEquality;
};

} // namespace

std::optional<ScaledPoly> ContractionBuilder::scale(const Affine &poly) {
  int64_t denominator = poly.constant.den;
  for (const Rational &coeff : poly.coeffs) {
    int64_t lcm = std::lcm(denominator, coeff.den);
    if (lcm <= 0 || lcm / coeff.den > INT64_MAX / denominator)
      return std::nullopt;
    denominator = lcm;
  }
  // term = r * d as an integer: r.num * (d / r.den), checked.
  auto scaled = [&](Rational r, int64_t &out) {
    return !llvm::MulOverflow(r.num, denominator / r.den, out);
  };
  int64_t constant = 0;
  if (!scaled(poly.constant, constant))
    return std::nullopt;
  AffineExpr expr = getAffineConstantExpr(constant, context);
  for (auto [var, coeff] : llvm::enumerate(poly.coeffs)) {
    int64_t term = 0;
    if (!scaled(coeff, term))
      return std::nullopt;
    if (term != 0 && var < numVars)
      expr = expr + getAffineDimExpr(var, context) * term;
  }
  return ScaledPoly{expr, denominator};
}

AffineExpr ContractionBuilder::access(const Affine &poly) {
  std::optional<ScaledPoly> scaled = scale(poly);
  if (!scaled)
    return nullptr;
  if (scaled->denominator == 1)
    return scaled->numerator;
  addConstraint(scaled->numerator % scaled->denominator, /*equality=*/true);
  return scaled->numerator.floorDiv(scaled->denominator);
}

bool ContractionBuilder::addRange(const Affine &poly, int64_t bound) {
  std::optional<ScaledPoly> scaled = scale(poly);
  int64_t limit = 0;
  if (!scaled || llvm::MulOverflow(bound - 1, scaled->denominator, limit))
    return false;
  if (scaled->denominator != 1)
    addConstraint(scaled->numerator % scaled->denominator, /*equality=*/true);
  addConstraint(scaled->numerator, /*equality=*/false);
  addConstraint(getAffineConstantExpr(limit, context) - scaled->numerator,
                /*equality=*/false);
  return true;
}

static tile::AggregationKind aggregationOf(ast::AggKind kind) {
  switch (kind) {
  case ast::AggKind::Sum:
    return tile::AggregationKind::sum;
  case ast::AggKind::Prod:
    return tile::AggregationKind::prod;
  case ast::AggKind::Max:
    return tile::AggregationKind::max;
  case ast::AggKind::Min:
    return tile::AggregationKind::min;
  case ast::AggKind::Assign:
    break;
  }
  return tile::AggregationKind::assign;
}

static tile::CombinationKind combinationOf(ast::CombKind kind) {
  switch (kind) {
  case ast::CombKind::None:
    return tile::CombinationKind::none;
  case ast::CombKind::Mul:
    return tile::CombinationKind::mul;
  case ast::CombKind::Add:
    return tile::CombinationKind::add;
  case ast::CombKind::Eq:
    return tile::CombinationKind::eq;
  case ast::CombKind::Cond:
    break;
  }
  return tile::CombinationKind::cond;
}

Value Generator::genContraction(const typed::Statement &stmt) {
  const typed::Contraction &contraction = *stmt.contraction;
  const typed::Value &result = program.value(stmt.results[0]);
  Location loc = namedLocation(stmt.loc, result.name);
  MLIRContext *context = builder.getContext();
  unsigned numVars = contraction.vars.size();
  ContractionBuilder maps(context, numVars);
  auto overflow = [&]() -> Value {
    emitError(loc, "index polynomial coefficients of '")
        << result.name << "' do not fit in 64 bits";
    return nullptr;
  };

  SmallVector<AffineExpr> sink;
  for (const Affine &poly : contraction.outIndices) {
    AffineExpr expr = maps.access(poly);
    if (!expr)
      return overflow();
    sink.push_back(expr);
  }
  SmallVector<AffineMap> srcs;
  SmallVector<Value> inputs;
  for (const typed::Access &access : contraction.operands) {
    SmallVector<AffineExpr> reads;
    for (const Affine &poly : access.indices) {
      AffineExpr expr = maps.access(poly);
      if (!expr)
        return overflow();
      reads.push_back(expr);
    }
    srcs.push_back(AffineMap::get(numVars, 0, reads, context));
    inputs.push_back(values[access.value]);
  }
  for (const typed::ContractionConstraint &constraint : contraction.constraints)
    if (!maps.addRange(constraint.poly, constraint.bound))
      return overflow();

  SmallVector<int64_t> lower, upper;
  SmallVector<Attribute> names;
  for (const typed::IndexVar &var : contraction.vars) {
    lower.push_back(var.lo);
    upper.push_back(var.hi);
    names.push_back(builder.getStringAttr(var.name));
  }
  Value init;
  if (contraction.defaultValue)
    init = values[*contraction.defaultValue];
  return tile::ContractOp::create(
      builder, loc, tensorType(result.type), inputs, init,
      aggregationOf(contraction.agg), combinationOf(contraction.comb),
      elementType(contraction.combineType),
      AffineMap::get(numVars, 0, sink, context),
      builder.getAffineMapArrayAttr(srcs), maps.constraintSet(), lower, upper,
      builder.getArrayAttr(names));
}
