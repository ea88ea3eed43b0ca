//===- Baselines.h - The libraries tilec is compared with --------*- C++ -*-===//
//
// Each library turns a case into a runner: a callable that computes the
// case's output from the inputs captured when it was made, with everything
// that an inference engine would do once (weight reordering, primitive
// creation) already done. An empty runner means the library has no way to
// compute that kind (OpenBLAS has no depthwise convolution or softmax).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_BENCH_CPU_BASELINES_H
#define TILEC_BENCH_CPU_BASELINES_H

#include "Cases.h"

#include <functional>

namespace bench {

/// Computes the case's output into `out` (CaseData::outputSize floats).
using Runner = std::function<void(float *out)>;

/// OpenBLAS: cblas_sgemm for matmul and conv1x1; im2col + cblas_sgemm for
/// conv3x3 (the im2col is part of each run, since it is part of computing it
/// that way).
Runner openBlasRunner(const Case &c, const CaseData &data);

/// oneDNN: the matmul primitive on row-major matrices, convolution_forward
/// on NHWC data (depthwise as a grouped convolution) with the weights
/// reordered beforehand into the layout oneDNN prefers, softmax_forward,
/// layer_normalization_forward with scale and shift, eltwise_gelu_tanh.
Runner oneDnnRunner(const Case &c, const CaseData &data);

} // namespace bench

#endif // TILEC_BENCH_CPU_BASELINES_H
