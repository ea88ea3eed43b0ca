//===- TensorSummary.cpp - One-line summaries of outputs ------------------===//
//
// "Y: f32[2, 3] = [0.5, -1, 2, ...] sum=1.5": the type, the first values
// and a checksum, so that runs can be compared at a glance.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/TensorSummary.h"

#include <cmath>
#include <cstdio>

using namespace tilec;

/// How many leading values a summary shows.
static constexpr int64_t kShownValues = 8;

/// `v` with `digits` significant digits; NaN prints as "nan" whatever its
/// sign bit (printf writes "-nan" for some).
static void printDouble(std::string &out, double v, int digits) {
  if (std::isnan(v)) {
    out += "nan";
    return;
  }
  char text[64];
  std::snprintf(text, sizeof(text), "%.*g", digits, v);
  out += text;
}

static void printValue(std::string &out, const Tensor &t, int64_t k) {
  DType d = t.type.dtype;
  if (isFloat(d))
    printDouble(out, t.getDouble(k), 7);
  else if (d == DType::U64)
    out += std::to_string(uint64_t(t.getInt(k)));
  else
    out += std::to_string(t.getInt(k));
}

std::string tilec::summarizeTensor(std::string_view name, const Tensor &t) {
  std::string out(name);
  out += ": " + t.type.str() + " = [";
  int64_t n = t.numElements();
  if (t.data.size() != size_t(n) * dtypeBytes(t.type.dtype))
    n = 0; // an unfilled tensor: show no values
  for (int64_t k = 0; k < n && k < kShownValues; ++k) {
    if (k)
      out += ", ";
    printValue(out, t, k);
  }
  if (n > kShownValues)
    out += ", ...";
  double sum = 0;
  for (int64_t k = 0; k < n; ++k)
    sum += t.getDouble(k);
  out += "] sum=";
  printDouble(out, sum, 9);
  return out;
}
