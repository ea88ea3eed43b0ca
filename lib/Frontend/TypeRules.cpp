//===- TypeRules.cpp - Result types and broadcasting ----------------------===//

#include "TypeRules.h"

using namespace tilec;

TypeDecision tilec::decideType(llvm::ArrayRef<TypeInput> inputs,
                               bool isComparison) {
  TypeDecision d;
  std::optional<DType> joined;
  auto joinIn = [&](DType t) { joined = joined ? joinDTypes(*joined, t) : t; };
  bool allConst = true;
  for (const TypeInput &in : inputs) {
    if (in.tensorType) {
      joinIn(*in.tensorType);
      allConst = false;
    } else if (!in.constant->isWeak()) {
      joinIn(*in.constant->type);
    }
  }
  if (!joined) {
    if (allConst) {
      d.weak = true;
      return d;
    }
    // Only weak constants decide (a tensor condition of ?:): their default
    // types join.
    for (const TypeInput &in : inputs)
      if (!in.tensorType)
        joinIn(in.constant->defaultType());
    d.type = joined.value_or(DType::I32);
    return d;
  }
  // Weak constants of a higher kind than the joined type lift it to the join
  // with their default type (5.3 step 2); in a comparison, so does an
  // integer that the type cannot represent.
  for (const TypeInput &in : inputs) {
    if (in.tensorType || !in.constant->isWeak())
      continue;
    const Const &c = *in.constant;
    DTypeKind kind = dtypeKind(*joined);
    bool higherKind = c.isFloat ? kind != DTypeKind::Float
                                : kind == DTypeKind::Bool;
    if (higherKind || (isComparison && !c.isFloat && !fitsIn(c.i, *joined)))
      joined = joinDTypes(*joined, c.defaultType());
  }
  for (const TypeInput &in : inputs) {
    if (in.tensorType || !in.constant->isWeak() || in.constant->isFloat)
      continue;
    if (isInteger(*joined) && !fitsIn(in.constant->i, *joined)) {
      d.error = "constant " + in.constant->str() + " does not fit in " +
                std::string(dtypeName(*joined));
      return d;
    }
  }
  d.type = *joined;
  return d;
}

std::string tilec::shapeStr(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

std::optional<std::vector<int64_t>>
tilec::broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                       int64_t &sizeA, int64_t &sizeB) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    // Align on the right; missing leading dimensions are 1.
    int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1;
    int64_t y = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (x != y && x != 1 && y != 1) {
      sizeA = x;
      sizeB = y;
      return std::nullopt;
    }
    out[rank - 1 - k] = x == 1 ? y : x;
  }
  return out;
}

int64_t tilec::elementCount(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(n, d, &n))
      return -1;
  return n;
}
