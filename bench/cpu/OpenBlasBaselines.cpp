//===- OpenBlasBaselines.cpp - Cases computed with cblas_sgemm -----------===//
//
// The convolutions as GEMMs: a 1x1 one is one already; for a 3x3 one im2col
// gathers each output pixel's 3x3xCI patch
// into a row, and HWIO filters already are the [9*CI, CO] matrix those rows
// multiply.
//
//===----------------------------------------------------------------------===//

#include "Baselines.h"

#include <cblas.h>

#include <algorithm>
#include <memory>

namespace bench {

/// Patches of the zero-padded NHWC image as rows [n*h*w, 9*ci].
static void im2col(int64_t n, int64_t h, int64_t w, int64_t ci,
                   const float *image, float *cols) {
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x) {
        float *row = cols + ((b * h + y) * w + x) * 9 * ci;
        for (int64_t ky = 0; ky < 3; ++ky)
          for (int64_t kx = 0; kx < 3; ++kx, row += ci) {
            int64_t iy = y + ky - 1, ix = x + kx - 1;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w)
              std::fill(row, row + ci, 0.0f);
            else
              std::copy_n(image + ((b * h + iy) * w + ix) * ci, ci, row);
          }
      }
}

Runner openBlasRunner(const Case &c, const CaseData &data) {
  const float *a = data.inputs[0].data();
  const float *b = data.inputs.size() > 1 ? data.inputs[1].data() : nullptr;
  if (c.kind == "matmul") {
    int m = int(c.at("M")), k = int(c.at("K")), n = int(c.at("N"));
    return [=](float *out) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a,
                  k, b, n, 0.0f, out, n);
    };
  }
  if (c.kind == "conv1x1") {
    // The NHWC image is the [n*h*w, ci] matrix the [ci, co] filter
    // multiplies: no im2col.
    int pixels = int(c.at("N") * c.at("H") * c.at("W"));
    int ci = int(c.at("CI")), co = int(c.at("CO"));
    return [=](float *out) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, pixels, co, ci,
                  1.0f, a, ci, b, co, 0.0f, out, co);
    };
  }
  if (c.kind == "conv3x3") {
    int64_t n = c.at("N"), h = c.at("H"), w = c.at("W"), ci = c.at("CI");
    int co = int(c.at("CO"));
    auto cols = std::make_shared<std::vector<float>>(size_t(n * h * w * 9 * ci));
    return [=](float *out) {
      im2col(n, h, w, ci, a, cols->data());
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(n * h * w), co,
                  int(9 * ci), 1.0f, cols->data(), int(9 * ci), b, co, 0.0f,
                  out, co);
    };
  }
  return {};
}

} // namespace bench
