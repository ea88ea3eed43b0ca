//===- InputGenerator.cpp - Deterministic input data ----------------------===//
//
// Inputs not given as files are generated from splitmix64, keyed by the seed
// and the input's position, so the data are the same on every platform and
// compiler (no std::*_distribution, whose output is implementation-defined).
// Floats are multiples of 2^-(p-1) for a type of p significand bits, which
// every float type represents exactly in [-1, 1), so no rounding is involved.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/InputGenerator.h"

#include <cmath>

using namespace tilec;

/// splitmix64's output function applied to `x`.
static uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Significand bits of a float type, the hidden bit included.
static int precisionOf(DType t) {
  switch (t) {
  case DType::F16:
    return 11;
  case DType::BF16:
    return 8;
  case DType::F32:
    return 24;
  default:
    return 53;
  }
}

Tensor tilec::generateInput(const TensorType &type, uint64_t seed,
                            unsigned position) {
  Tensor t(type);
  uint64_t key = mix(seed ^ mix(uint64_t(position) + 1));
  int64_t n = t.numElements();
  // A taus88 state needs s1 >= 2, s2 >= 8, s3 >= 16 in every lane.
  bool prngState =
      type.dtype == DType::U32 && type.shape == std::vector<int64_t>{3, 2048};
  for (int64_t k = 0; k < n; ++k) {
    uint64_t r = mix(key + uint64_t(k));
    DType d = type.dtype;
    if (prngState) {
      t.setInt(k, int64_t(uint32_t(r) | 0x100u));
    } else if (isFloat(d)) {
      int bits = precisionOf(d) - 1;
      uint64_t m = r >> (64 - (bits + 1)); // bits + 1 random bits
      t.setDouble(k, std::ldexp(double(m), -bits) - 1.0);
    } else if (d == DType::Bool) {
      t.setInt(k, int64_t(r >> 63));
    } else if (isSigned(d)) {
      t.setInt(k, int64_t((r >> 32) % 17) - 8);
    } else {
      t.setInt(k, int64_t((r >> 32) % 17));
    }
  }
  return t;
}
