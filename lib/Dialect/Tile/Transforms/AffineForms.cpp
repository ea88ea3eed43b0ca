//===- AffineForms.cpp - Linear parts and values of affine expressions ----===//

#include "tilec/Dialect/Tile/Transforms/AffineForms.h"

#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

bool tile::usesDimFrom(AffineExpr e, unsigned first) {
  bool uses = false;
  e.walk([&](AffineExpr sub) {
    if (auto d = dyn_cast<AffineDimExpr>(sub))
      uses |= d.getPosition() >= first;
  });
  return uses;
}

std::optional<LinearPart> tile::splitLinear(AffineExpr e, unsigned first,
                                            unsigned count) {
  LinearPart part{SmallVector<int64_t>(count, 0),
                  getAffineConstantExpr(0, e.getContext())};
  bool linear = true;
  // Bounded by the depth of the expression.
  std::function<void(AffineExpr, int64_t)> add = [&](AffineExpr x,
                                                     int64_t scale) {
    if (!usesDimFrom(x, first)) {
      part.rest = part.rest + x * scale;
      return;
    }
    if (auto d = dyn_cast<AffineDimExpr>(x)) {
      part.coeffs[d.getPosition() - first] += scale;
      return;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(x);
    if (bin && x.getKind() == AffineExprKind::Add) {
      add(bin.getLHS(), scale);
      add(bin.getRHS(), scale);
      return;
    }
    if (bin && x.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
        add(bin.getLHS(), scale * c.getValue());
        return;
      }
    linear = false;
  };
  add(e, 1);
  if (!linear)
    return std::nullopt;
  return part;
}

AffineExpr tile::withoutCancelledTerms(AffineExpr e, unsigned numDims) {
  std::optional<LinearPart> part = splitLinear(e, 0, numDims);
  if (!part || !isa<AffineConstantExpr>(part->rest))
    return e;
  AffineExpr sum = getAffineConstantExpr(0, e.getContext());
  for (unsigned d = 0; d < numDims; ++d)
    if (part->coeffs[d] != 0)
      sum = sum + getAffineDimExpr(d, e.getContext()) * part->coeffs[d];
  return sum + part->rest;
}

int64_t tile::evaluate(AffineExpr e, ArrayRef<int64_t> dims) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return 0;
  int64_t l = evaluate(bin.getLHS(), dims), r = evaluate(bin.getRHS(), dims);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::FloorDiv:
    return llvm::divideFloorSigned(l, r);
  case AffineExprKind::CeilDiv:
    return llvm::divideCeilSigned(l, r);
  case AffineExprKind::Mod:
    return l - r * llvm::divideFloorSigned(l, r);
  default:
    return 0;
  }
}
