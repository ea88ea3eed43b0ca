//===- ReindexSink.cpp - Output coordinates as contraction variables ------===//
//
// tile-reindex-sink: rewrites every contraction whose output map does not
// name each cell once (CellSink.h) so that its first variables are the
// output coordinates. convert-tile-to-loops then computes each cell on its
// own (a parallel loop over the cells, the reduction inside) instead of
// accumulating into memory in one serial nest, which on a GPU is a single
// invocation running the whole iteration space.
//
// The change of variables works on a "work space" of dimensions: the m
// output coordinates first, then the n old variables. Every old variable
// starts as itself; solving an output row for one of them substitutes it
// everywhere (Gaussian elimination, one pivot per row), so at the end each
// old variable is an affine function of the coordinates and of the old
// variables left free, and every map and constraint is rewritten through
// those functions. A row whose pivot has a coefficient a > 1 either tests
// divisibility by a (a `mod` constraint) or, with a unit partner variable,
// parametrises the partner's residue class so that nothing is tested.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/AffineForms.h"
#include "tilec/Dialect/Tile/Transforms/Bounds.h"
#include "tilec/Dialect/Tile/Transforms/CellSink.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

#include <string>

#define DEBUG_TYPE "tile-reindex-sink"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEREINDEXSINKPASS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

//===----------------------------------------------------------------------===//
// One-variable guards hold on the ranges
//===----------------------------------------------------------------------===//

namespace {
/// A constraint `expr >= 0`, or `expr == 0`.
struct Constraint {
  AffineExpr expr;
  bool isEquality;
};
} // namespace

/// The only variable `e` mentions when the lowering takes `e >= 0` to be
/// implied by the ranges (Bounds.h); none otherwise.
static std::optional<unsigned> rangeImpliedVar(AffineExpr e) {
  if (!isImpliedByVariableRanges(e) || isa<AffineConstantExpr>(e))
    return std::nullopt;
  std::optional<unsigned> var;
  e.walk([&](AffineExpr sub) {
    if (auto d = dyn_cast<AffineDimExpr>(sub))
      var = d.getPosition();
  });
  return var;
}

/// Narrows [lo, hi] of variable `var`, the only one `e` mentions, to the
/// values where `e >= 0`: an interval, since `e` has no mod (Bounds.h).
static void narrowRange(AffineExpr e, unsigned var, unsigned numVars,
                        int64_t &lo, int64_t &hi) {
  if (std::optional<LinearPart> part = splitLinear(e, 0, numVars))
    if (auto c = dyn_cast<AffineConstantExpr>(part->rest)) {
      int64_t a = part->coeffs[var];
      if (a > 0)
        lo = std::max(lo, llvm::divideCeilSigned(-c.getValue(), a));
      else if (a < 0)
        hi = std::min(hi, llvm::divideFloorSigned(c.getValue(), -a));
      else if (c.getValue() < 0)
        hi = lo - 1;
      return;
    }
  // A floordiv of the variable: scan in from both ends.
  SmallVector<int64_t> point(numVars, 0);
  auto holds = [&](int64_t v) {
    point[var] = v;
    return evaluate(e, point) >= 0;
  };
  while (lo <= hi && !holds(lo))
    ++lo;
  while (lo <= hi && !holds(hi))
    --hi;
}

/// For an output index `q floordiv d` whose integrality `q mod d == 0` is
/// one of `cons`'s equalities, so that the index is exactly q / d: q and d.
static std::optional<std::pair<AffineExpr, int64_t>>
exactQuotient(AffineExpr row, IntegerSet cons) {
  auto div = dyn_cast<AffineBinaryOpExpr>(row);
  if (!div || row.getKind() != AffineExprKind::FloorDiv)
    return std::nullopt;
  auto d = dyn_cast<AffineConstantExpr>(div.getRHS());
  if (!d || d.getValue() <= 0)
    return std::nullopt;
  AffineExpr integrality = div.getLHS() % d.getValue();
  for (unsigned i = 0; i < cons.getNumConstraints(); ++i)
    if (cons.isEq(i) && cons.getConstraint(i) == integrality)
      return std::make_pair(div.getLHS(), d.getValue());
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The change of variables
//===----------------------------------------------------------------------===//

namespace {
/// The rewrite of one contraction.
class Reindexing {
public:
  explicit Reindexing(ContractOp op)
      : op(op), ctx(op.getContext()), numOld(op.getNumVars()),
        oldLo(op.getLowerBounds()), oldHi(op.getUpperBounds()), curLo(oldLo),
        curHi(oldHi), strided(numOld) {}

  void run();

private:
  ContractOp op;
  MLIRContext *ctx;
  unsigned numOld;
  ArrayRef<int64_t> oldLo, oldHi;
  /// The output dimension of each coordinate (the non-constant indices).
  SmallVector<unsigned> coordDims;
  /// Each old variable over the work space.
  SmallVector<AffineExpr> value;
  /// Constraints over the work space that the solving adds.
  SmallVector<Constraint> added;
  llvm::SmallBitVector solved;
  /// The ranges of the free work-space variables, and those that now step
  /// through a lattice (`x = r + a * t`, the dimension standing for t).
  SmallVector<int64_t> curLo, curHi;
  llvm::SmallBitVector strided;

  /// The new variables: each one's range, the value it takes when no
  /// assignment is valid, its name, and the work space in them.
  SmallVector<int64_t> lo, hi, fallback;
  SmallVector<Attribute> names;
  SmallVector<AffineExpr> renumber;

  unsigned numCoords() const { return coordDims.size(); }
  AffineExpr oldVar(unsigned v) const {
    return getAffineDimExpr(numCoords() + v, ctx);
  }
  /// The free variable a row is solved for, and the one that steps through
  /// its lattice when there is one.
  struct Pivot {
    unsigned var;
    std::optional<unsigned> partner;
  };
  void solveRow(unsigned coord);
  /// The pivot that leaves the fewest iterations inside each cell; among
  /// those, one that needs no divisibility test.
  std::optional<Pivot> choosePivot(ArrayRef<int64_t> coeffs) const;
  void solveWithPartner(unsigned v, unsigned w, int64_t a, int64_t b,
                        AffineExpr num);
  void substitute(unsigned v, AffineExpr replacement);
  void substitute(const llvm::DenseMap<AffineExpr, AffineExpr> &map);
  std::pair<int64_t, int64_t> coordRange(unsigned coord);
  void chooseNewVariables();
  void rewrite();
};
} // namespace

/// The size of the range [lo, hi].
static double sizeOf(int64_t lo, int64_t hi) {
  return static_cast<double>(hi - lo + 1);
}

/// x modulo a > 0, in [0, a - 1].
static int64_t floorMod(int64_t x, int64_t a) {
  return x - a * llvm::divideFloorSigned(x, a);
}

/// The range of t in `x = r + a * t` for x in [lo, hi] and any r in
/// [0, a - 1].
static std::pair<int64_t, int64_t> strideRange(int64_t lo, int64_t hi,
                                               int64_t a) {
  return {llvm::divideCeilSigned(lo - (a - 1), a),
          llvm::divideFloorSigned(hi, a)};
}

std::optional<Reindexing::Pivot>
Reindexing::choosePivot(ArrayRef<int64_t> coeffs) const {
  SmallVector<unsigned> inRow;
  for (unsigned v = 0; v < numOld; ++v)
    if (coeffs[v] != 0 && !solved.test(v))
      inRow.push_back(v);
  std::optional<Pivot> best;
  double bestCost = 0;
  bool bestExact = false;
  for (unsigned v : inRow) {
    Pivot p{v, std::nullopt};
    int64_t a = std::abs(coeffs[v]);
    // a * x_v + x_w (x_w's coefficient +-1, no other free term): x_w steps
    // through its residue class instead of being tested against it.
    if (a != 1 && inRow.size() == 2) {
      unsigned w = inRow[0] == v ? inRow[1] : inRow[0];
      if (std::abs(coeffs[w]) == 1)
        p.partner = w;
    }
    // What each cell loops over: every free variable but v, the partner
    // over its stride.
    double cost = 1;
    for (unsigned u = 0; u < numOld; ++u) {
      if (u == v || solved.test(u))
        continue;
      auto [l, h] = p.partner == u ? strideRange(curLo[u], curHi[u], a)
                                   : std::make_pair(curLo[u], curHi[u]);
      cost *= sizeOf(l, h);
    }
    bool exact = a == 1 || p.partner;
    if (!best || cost < bestCost || (cost == bestCost && exact && !bestExact)) {
      best = p;
      bestCost = cost;
      bestExact = exact;
    }
  }
  return best;
}

void Reindexing::substitute(unsigned v, AffineExpr replacement) {
  llvm::DenseMap<AffineExpr, AffineExpr> map{{oldVar(v), replacement}};
  substitute(map);
  solved.set(v);
}

void Reindexing::substitute(const llvm::DenseMap<AffineExpr, AffineExpr> &map) {
  for (AffineExpr &e : value)
    e = e.replace(map);
  for (Constraint &c : added)
    c.expr = c.expr.replace(map);
}

/// Makes coordinate `coord` equal to its output index: solves the row for
/// one free variable, or, when none can be solved for, adds the row as an
/// equality on the coordinate.
void Reindexing::solveRow(unsigned coord) {
  IntegerSet cons = op.getCons();
  AffineExpr row = op.getSink().getResult(coordDims[coord]);
  AffineExpr target = getAffineDimExpr(coord, ctx);
  if (auto quotient = exactQuotient(row, cons)) {
    row = quotient->first;
    target = target * quotient->second;
  }
  // row == target over the work space.
  AffineExpr lhs = row.replaceDims(value);
  std::optional<LinearPart> part = splitLinear(lhs, numCoords(), numOld);
  std::optional<Pivot> pivot;
  if (part)
    pivot = choosePivot(part->coeffs);
  if (!pivot) {
    added.push_back({target - lhs, /*isEquality=*/true});
    return;
  }
  unsigned v = pivot->var;
  SmallVector<int64_t> coeffs = part->coeffs;
  // a * x_v + sum of the other free terms = num, with a > 0.
  AffineExpr num = target - part->rest;
  if (coeffs[v] < 0) {
    num = num * -1;
    for (int64_t &c : coeffs)
      c = -c;
  }
  int64_t a = coeffs[v];
  if (pivot->partner) {
    solveWithPartner(v, *pivot->partner, a, coeffs[*pivot->partner], num);
    return;
  }
  for (unsigned w = 0; w < numOld; ++w)
    if (w != v && coeffs[w] != 0)
      num = num - oldVar(w) * coeffs[w];
  AffineExpr solution = num;
  if (a != 1) {
    // The lattice: only where a divides `num` is there an assignment.
    added.push_back({num % a, /*isEquality=*/true});
    solution = num.floorDiv(a);
  }
  // The variable's range (the old one's, or t's for a lattice) is now a
  // condition on its solution.
  added.push_back({solution - curLo[v], /*isEquality=*/false});
  added.push_back({curHi[v] - solution, /*isEquality=*/false});
  substitute(v, solution);
}

/// Solves a * x_v + b * x_w = num (a > 1, b = +-1, num free of free
/// variables) on its lattice: x_w = r + a * t with r the residue of
/// b * num modulo a and t a new variable in x_w's place, so that x_v is
/// exact: num floordiv a - t when b = 1, num ceildiv a + t when b = -1.
/// Each cell then loops over the a-th of x_w's values that can reach it,
/// and tests no divisibility.
void Reindexing::solveWithPartner(unsigned v, unsigned w, int64_t a, int64_t b,
                                  AffineExpr num) {
  AffineExpr t = oldVar(w); // the same work-space dimension, now t
  AffineExpr partner = (num * b) % a + t * a;
  AffineExpr solution = b == 1 ? num.floorDiv(a) - t : num.ceilDiv(a) + t;
  substitute({{oldVar(v), solution}, {t, partner}});
  solved.set(v);
  added.push_back({solution - curLo[v], /*isEquality=*/false});
  added.push_back({curHi[v] - solution, /*isEquality=*/false});
  // t's range below keeps x_w in [lo, hi] whatever r is at an end that is
  // a multiple of a (lo) or one less than one (hi + 1); elsewhere, a test.
  if (floorMod(curLo[w], a) != 0)
    added.push_back({partner - curLo[w], /*isEquality=*/false});
  if (floorMod(curHi[w] + 1, a) != 0)
    added.push_back({curHi[w] - partner, /*isEquality=*/false});
  std::tie(curLo[w], curHi[w]) = strideRange(curLo[w], curHi[w], a);
  strided.set(w);
}

/// The cells coordinate `coord` may reach: its output index over the old
/// ranges (by interval arithmetic when it is linear), inside the output.
std::pair<int64_t, int64_t> Reindexing::coordRange(unsigned coord) {
  unsigned dim = coordDims[coord];
  int64_t lo = 0, hi = op.getType().getDimSize(dim) - 1;
  AffineExpr row = op.getSink().getResult(dim);
  int64_t divisor = 1;
  if (auto quotient = exactQuotient(row, op.getCons())) {
    row = quotient->first;
    divisor = quotient->second;
  }
  std::optional<LinearPart> part = splitLinear(row, 0, numOld);
  auto rest = part ? dyn_cast<AffineConstantExpr>(part->rest) : nullptr;
  if (!rest)
    return {lo, hi};
  int64_t least = rest.getValue(), most = rest.getValue();
  for (unsigned v = 0; v < numOld; ++v) {
    int64_t x = part->coeffs[v] * oldLo[v], y = part->coeffs[v] * oldHi[v];
    least += std::min(x, y);
    most += std::max(x, y);
  }
  return {std::max(lo, llvm::divideCeilSigned(least, divisor)),
          std::min(hi, llvm::divideFloorSigned(most, divisor))};
}

void Reindexing::run() {
  AffineMap sink = op.getSink();
  for (unsigned k = 0; k < sink.getNumResults(); ++k)
    if (!isa<AffineConstantExpr>(sink.getResult(k)))
      coordDims.push_back(k);
  solved.resize(numOld);
  for (unsigned v = 0; v < numOld; ++v)
    value.push_back(oldVar(v));
  for (unsigned coord = 0; coord < numCoords(); ++coord)
    solveRow(coord);
  chooseNewVariables();
  rewrite();
}

/// The new variables: the coordinates, then the old variables left free;
/// `renumber` takes the work space to them.
void Reindexing::chooseNewVariables() {
  for (unsigned coord = 0; coord < numCoords(); ++coord) {
    renumber.push_back(getAffineDimExpr(coord, ctx));
    auto [l, h] = coordRange(coord);
    lo.push_back(l);
    hi.push_back(h);
    fallback.push_back(0);
    names.push_back(
        StringAttr::get(ctx, "o" + std::to_string(coordDims[coord])));
  }
  for (unsigned v = 0; v < numOld; ++v) {
    if (solved.test(v)) {
      renumber.push_back(getAffineConstantExpr(0, ctx)); // never occurs
      continue;
    }
    renumber.push_back(getAffineDimExpr(lo.size(), ctx));
    lo.push_back(curLo[v]);
    hi.push_back(curHi[v]);
    fallback.push_back(curLo[v]);
    auto name = cast<StringAttr>(op.getVarNames()[v]).str();
    names.push_back(StringAttr::get(ctx, strided.test(v) ? name + ".t" : name));
  }
}

void Reindexing::rewrite() {
  unsigned numNew = lo.size();
  auto inNew = [&](AffineExpr e) {
    return withoutCancelledTerms(e.replaceDims(renumber), numNew);
  };
  SmallVector<AffineExpr> oldInNew;
  for (AffineExpr e : value)
    oldInNew.push_back(inNew(e));
  AffineMap oldToNew = AffineMap::get(numNew, 0, oldInNew, ctx);
  auto throughNew = [&](AffineExpr e) {
    return withoutCancelledTerms(e.compose(oldToNew), numNew);
  };

  AffineMap sink = op.getSink();
  SmallVector<AffineExpr> sinkExprs;
  for (unsigned k = 0, coord = 0; k < sink.getNumResults(); ++k)
    sinkExprs.push_back(isa<AffineConstantExpr>(sink.getResult(k))
                            ? sink.getResult(k)
                            : getAffineDimExpr(coord++, ctx));
  SmallVector<Attribute> srcs;
  SmallVector<Constraint> guards; // every test the lowering may skip
  for (auto [input, attr] : llvm::zip(op.getInputs(), op.getSrcs())) {
    SmallVector<AffineExpr> indices;
    for (AffineExpr e : cast<AffineMapAttr>(attr).getValue().getResults())
      indices.push_back(throughNew(e));
    srcs.push_back(AffineMapAttr::get(AffineMap::get(numNew, 0, indices, ctx)));
    auto shape = cast<RankedTensorType>(input.getType()).getShape();
    for (auto [e, size] : llvm::zip(indices, shape)) {
      guards.push_back({e, false});
      guards.push_back({getAffineConstantExpr(size - 1, ctx) - e, false});
    }
  }
  SmallVector<Constraint> constraints;
  IntegerSet cons = op.getCons();
  for (unsigned i = 0; i < cons.getNumConstraints(); ++i)
    constraints.push_back({throughNew(cons.getConstraint(i)), cons.isEq(i)});
  for (const Constraint &c : added)
    constraints.push_back({inNew(c.expr), c.isEquality});
  llvm::append_range(guards, constraints);

  // The lowering skips a one-variable guard as implied by the range
  // (Bounds.h), so the ranges must hold each such guard; a constraint of
  // that kind then says nothing more and goes, as tile-compute-bounds does.
  auto impliedVar = [](const Constraint &c) {
    return c.isEquality ? std::nullopt : rangeImpliedVar(c.expr);
  };
  for (const Constraint &g : guards)
    if (std::optional<unsigned> var = impliedVar(g))
      narrowRange(g.expr, *var, numNew, lo[*var], hi[*var]);
  SmallVector<AffineExpr> consExprs;
  SmallVector<bool> consEqs;
  for (const Constraint &c : constraints)
    if (!isTriviallyTrue(c.expr, c.isEquality) && !impliedVar(c)) {
      consExprs.push_back(c.expr);
      consEqs.push_back(c.isEquality);
    }
  bool empty = false;
  for (unsigned v = 0; v < numNew; ++v)
    if (lo[v] > hi[v]) {
      // No assignment is valid. The op keeps non-empty ranges (a cell of
      // the output for a coordinate) and a false constraint says so.
      empty = true;
      lo[v] = hi[v] = fallback[v];
    }
  if (empty) {
    consExprs.push_back(getAffineConstantExpr(-1, ctx));
    consEqs.push_back(false);
  }
  if (consExprs.empty()) {
    consExprs.push_back(getAffineConstantExpr(0, ctx));
    consEqs.push_back(true);
  }

  op.setSinkAttr(AffineMapAttr::get(AffineMap::get(numNew, 0, sinkExprs, ctx)));
  op.setSrcsAttr(ArrayAttr::get(ctx, srcs));
  op.setConsAttr(
      IntegerSetAttr::get(IntegerSet::get(numNew, 0, consExprs, consEqs)));
  op.setLowerBounds(lo);
  op.setUpperBounds(hi);
  op.setVarNamesAttr(ArrayAttr::get(ctx, names));
}

namespace {
struct TileReindexSinkPass
    : tile::impl::TileReindexSinkPassBase<TileReindexSinkPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([](ContractOp op) {
      if (!getCellSink(op))
        Reindexing(op).run();
    });
  }
};
} // namespace
