//===- Cases.h - The benchmark cases the CPU baselines understand -*- C++ -*-===//
//
// A case is named on the command line as KIND:NAME=VALUE,... with the kinds
// and size names of bench/kernels/*.tile, so one line of bench/cases.json
// describes both tilec's program and the baselines' call:
//   matmul:M=1024,K=1024,N=1024     C[M, N] = A[M, K] x B[K, N]
//   conv1x1:N=1,H=56,W=56,CI=256,CO=64  NHWC images, [CI, CO] filters
//   conv3x3:N=1,H=56,W=56,CI=64,CO=64   NHWC images, HWIO filters, pad 1
//   depthwise3x3:N=1,H=112,W=112,C=32   NHWC images, [3, 3, C] filters, pad 1
//   softmax:R=1024,C=4096           along the rows
//   layer_norm:R=1024,C=4096        along the rows, with Gamma[C] and Beta[C]
//   gelu:R=1024,C=4096              element-wise, tanh form
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_BENCH_CPU_CASES_H
#define TILEC_BENCH_CPU_CASES_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bench {

/// One benchmark case: what to compute and at which sizes.
struct Case {
  std::string spec; ///< as given on the command line
  std::string kind; ///< a kind above: matmul, conv1x1, ..., gelu
  std::map<std::string, int64_t> sizes;

  /// The size `name` (every size a kind needs is checked by parseCase).
  int64_t at(const std::string &name) const { return sizes.at(name); }
};

/// Parses KIND:NAME=VALUE,...; on failure returns false and sets `error`.
bool parseCase(const std::string &spec, Case &result, std::string &error);

/// The inputs of a case, random in [-1, 1), in the tile program's layouts and
/// parameter order, and the element count of its single output.
struct CaseData {
  std::vector<std::vector<float>> inputs;
  size_t outputSize = 0;
};
CaseData makeCaseData(const Case &c);

/// The output computed by plain loops with double accumulators: slow, but
/// simple enough to trust, and what every baseline is checked against.
void referenceOutput(const Case &c, const CaseData &data, float *out);

} // namespace bench

#endif // TILEC_BENCH_CPU_CASES_H
