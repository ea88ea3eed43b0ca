//===- Summary.cpp - One-line summaries of outputs for `tilec run` --------===//
//
// "Y: f32[2, 3] = [0.5, -1, 2, ...] sum=1.5": the type, the first values
// and a checksum, so that runs can be compared at a glance.
//
//===----------------------------------------------------------------------===//

#include "tilec/Interp/Interpreter.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace tilec;

/// How many leading values a summary shows.
static constexpr int64_t kShownValues = 8;

/// `v` with `digits` significant digits; NaN prints as "nan" whatever its
/// sign bit (printf writes "-nan" for some).
static void printDouble(llvm::raw_ostream &os, double v, int digits) {
  if (std::isnan(v))
    os << "nan";
  else
    os << llvm::format("%.*g", digits, v);
}

static void printValue(llvm::raw_ostream &os, const Tensor &t, int64_t k) {
  DType d = t.type.dtype;
  if (isFloat(d))
    printDouble(os, t.getDouble(k), 7);
  else if (d == DType::U64)
    os << uint64_t(t.getInt(k));
  else
    os << t.getInt(k);
}

std::string tilec::summarizeTensor(llvm::StringRef name, const Tensor &t) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << name << ": " << t.type.str() << " = [";
  int64_t n = t.numElements();
  if (t.data.size() != size_t(n) * dtypeBytes(t.type.dtype))
    n = 0; // an unfilled tensor: show no values
  for (int64_t k = 0; k < n && k < kShownValues; ++k) {
    if (k)
      os << ", ";
    printValue(os, t, k);
  }
  if (n > kShownValues)
    os << ", ...";
  double sum = 0;
  for (int64_t k = 0; k < n; ++k)
    sum += t.getDouble(k);
  os << "] sum=";
  printDouble(os, sum, 9);
  return text;
}
