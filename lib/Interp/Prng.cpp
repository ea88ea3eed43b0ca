//===- Prng.cpp - prng_step / prng_value / prng_state (section 8.6) -------===//
//
// The taus88 contract: 2048 independent lanes, lane l holding
// (S[0, l], S[1, l], S[2, l]); element e of a draw is lane e mod 2048 at its
// step floor(e / 2048) + 1, as (out >> 8) * 2^-24; every lane takes
// ceil(count / 2048) steps.
//
//===----------------------------------------------------------------------===//

#include "InterpInternal.h"

#include <cmath>
#include <cstring>

using namespace tilec;
using namespace tilec::interp;

static constexpr int64_t kLanes = 2048;

uint32_t interp::taus88Step(uint32_t &s1, uint32_t &s2, uint32_t &s3) {
  uint32_t b = ((s1 << 13) ^ s1) >> 19;
  s1 = ((s1 & 0xFFFFFFFEu) << 12) ^ b;
  b = ((s2 << 2) ^ s2) >> 25;
  s2 = ((s2 & 0xFFFFFFF8u) << 4) ^ b;
  b = ((s3 << 3) ^ s3) >> 11;
  s3 = ((s3 & 0xFFFFFFF0u) << 17) ^ b;
  return s1 ^ s2 ^ s3;
}

llvm::Expected<std::pair<Tensor, Tensor>>
interp::prngDraw(const Tensor &state, const TensorType &valueType) {
  if (state.type != TensorType{DType::U32, {3, kLanes}} ||
      state.data.size() != 3 * kLanes * 4 || !isFloat(valueType.dtype))
    return malformedError("prng state or value type");
  auto values = allocateTensor(valueType, "a prng value");
  if (!values)
    return values.takeError();
  Tensor next = state;
  int64_t count = values->numElements();
  int64_t steps = (count + kLanes - 1) / kLanes;
  auto word = [&](int64_t row, int64_t lane) {
    uint32_t v;
    std::memcpy(&v, state.data.data() + (row * kLanes + lane) * 4, 4);
    return v;
  };
  for (int64_t lane = 0; lane < kLanes; ++lane) {
    uint32_t s1 = word(0, lane), s2 = word(1, lane), s3 = word(2, lane);
    for (int64_t step = 0; step < steps; ++step) {
      uint32_t out = taus88Step(s1, s2, s3);
      int64_t e = step * kLanes + lane;
      if (e < count) {
        // An f32 draw; a wider value type (the f64 of tilec grad --check)
        // holds it exactly.
        values->setDouble(e, double(float(std::ldexp(double(out >> 8), -24))));
      }
    }
    uint32_t words[3] = {s1, s2, s3};
    for (int64_t row = 0; row < 3; ++row)
      std::memcpy(next.data.data() + (row * kLanes + lane) * 4, &words[row], 4);
  }
  return std::make_pair(std::move(*values), std::move(next));
}
