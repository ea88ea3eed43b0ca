//===- CpuBench.cpp - tilec's CPU code against OpenBLAS and oneDNN --------===//
//
// Times, in one process and on the same data, a 1024x1024x1024 f32 matrix
// multiplication and a ResNet-style 3x3 convolution (N=1, 56x56x64 -> 64,
// stride 1, padding 1, NHWC images, HWIO filters) three ways:
//
//   tilec    the object `tilec --target=llvm-x86 -o` compiled from
//            examples/matmul.tile and examples/conv2d.tile (run.sh builds them;
//            without TILEC_BENCH_HAVE_TILEC only the baselines run);
//   OpenBLAS cblas_sgemm; the convolution as im2col + sgemm, the im2col
//            timed too, since it is part of computing a convolution that way;
//   oneDNN   the matmul primitive on plain row-major matrices, and the
//            convolution primitive on NHWC data with weights in the layout
//            oneDNN picks (reordered once, before timing, as inference does).
//
// Each is run once to warm up, then timed `repeats` times; the median is
// reported in GFLOP/s (2 flops per multiply-add), with the ratios tilec /
// OpenBLAS and tilec / oneDNN. Results are compared with OpenBLAS's so a fast
// wrong answer cannot pass unnoticed.
//
//===----------------------------------------------------------------------===//

#include <cblas.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#ifdef TILEC_BENCH_HAVE_TILEC
#include "tilec_conv.h"
#include "tilec_matmul.h"
#endif

namespace {

/// Median wall time in seconds of `repeats` calls of `fn`, after one warm-up.
template <typename Fn> double medianSeconds(int repeats, Fn fn) {
  fn();
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    fn();
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    times.push_back(elapsed.count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::vector<float> randomData(size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> data(count);
  for (float &x : data)
    x = dist(gen);
  return data;
}

/// Largest |a - b| relative to the largest |b|.
double relativeError(const std::vector<float> &a, const std::vector<float> &b) {
  double maxDiff = 0, maxRef = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    maxDiff = std::max(maxDiff, double(std::fabs(a[i] - b[i])));
    maxRef = std::max(maxRef, double(std::fabs(b[i])));
  }
  return maxRef == 0 ? maxDiff : maxDiff / maxRef;
}

/// One line of results for an operation: each implementation's GFLOP/s.
struct Report {
  std::string name;
  double flops;
  double blas = 0, dnnl = 0, tilec = 0; ///< seconds; 0 when not run

  void print() const {
    auto rate = [&](double s) { return s > 0 ? flops / s * 1e-9 : 0.0; };
    std::printf("%-34s OpenBLAS %8.2f  oneDNN %8.2f", name.c_str(), rate(blas),
                rate(dnnl));
    if (tilec > 0)
      std::printf("  tilec %8.2f GFLOP/s   tilec/OpenBLAS %.3g  tilec/oneDNN "
                  "%.3g\n",
                  rate(tilec), blas / tilec, dnnl / tilec);
    else
      std::printf(" GFLOP/s   (tilec not built)\n");
  }
};

/// Prints how far `got` is from `ref`; exits if they differ.
void expectClose(const char *what, const std::vector<float> &got,
                 const std::vector<float> &ref) {
  double err = relativeError(got, ref);
  std::printf("  %-30s max error %.2e (relative to the largest value)\n",
              what, err);
  if (!(err < 1e-3)) {
    std::fprintf(stderr, "cpu-bench: %s differs from OpenBLAS\n", what);
    std::exit(1);
  }
}

// ---------------------------------------------------------------------------
// Matrix multiplication
// ---------------------------------------------------------------------------

Report benchMatmul(int repeats, dnnl::engine &engine, dnnl::stream &stream) {
  const int n = 1024;
  Report report{"matmul 1024x1024x1024 f32", 2.0 * n * n * n};
  std::vector<float> a = randomData(size_t(n) * n, 1);
  std::vector<float> b = randomData(size_t(n) * n, 2);
  std::vector<float> ref(size_t(n) * n), out(size_t(n) * n);

  report.blas = medianSeconds(repeats, [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                a.data(), n, b.data(), n, 0.0f, ref.data(), n);
  });

  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::memory::desc aDesc({n, n}, dt::f32, tag::ab);
  dnnl::memory::desc bDesc({n, n}, dt::f32, tag::ab);
  dnnl::memory::desc cDesc({n, n}, dt::f32, tag::ab);
  // oneDNN 2.x (Debian 12 has 2.6): an op descriptor, then a primitive one.
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(aDesc, bDesc, cDesc),
                                  engine);
  dnnl::matmul matmul(pd);
  dnnl::memory aMem(aDesc, engine, a.data()), bMem(bDesc, engine, b.data()),
      cMem(cDesc, engine, out.data());
  report.dnnl = medianSeconds(repeats, [&] {
    matmul.execute(stream, {{DNNL_ARG_SRC, aMem},
                            {DNNL_ARG_WEIGHTS, bMem},
                            {DNNL_ARG_DST, cMem}});
    stream.wait();
  });
  expectClose("oneDNN matmul", out, ref);

#ifdef TILEC_BENCH_HAVE_TILEC
  std::fill(out.begin(), out.end(), 0.0f);
  report.tilec = medianSeconds(
      repeats, [&] { TILEC_MATMUL_FN(a.data(), b.data(), out.data()); });
  expectClose("tilec matmul", out, ref);
#endif
  return report;
}

// ---------------------------------------------------------------------------
// 3x3 convolution
// ---------------------------------------------------------------------------

struct ConvShape {
  int h = 56, w = 56, ci = 64, co = 64, k = 3, pad = 1;
  size_t imageSize() const { return size_t(h) * w * ci; }
  size_t filterSize() const { return size_t(k) * k * ci * co; }
  size_t outputSize() const { return size_t(h) * w * co; }
};

/// Patches of the padded NHWC image as rows [h*w, k*k*ci], zeros outside.
void im2col(const ConvShape &s, const float *image, float *cols) {
  for (int y = 0; y < s.h; ++y)
    for (int x = 0; x < s.w; ++x) {
      float *row = cols + (size_t(y) * s.w + x) * s.k * s.k * s.ci;
      for (int ky = 0; ky < s.k; ++ky)
        for (int kx = 0; kx < s.k; ++kx, row += s.ci) {
          int iy = y + ky - s.pad, ix = x + kx - s.pad;
          if (iy < 0 || iy >= s.h || ix < 0 || ix >= s.w)
            std::fill(row, row + s.ci, 0.0f);
          else
            std::copy_n(image + (size_t(iy) * s.w + ix) * s.ci, s.ci, row);
        }
    }
}

Report benchConv(int repeats, dnnl::engine &engine, dnnl::stream &stream) {
  ConvShape s;
  Report report{"conv 3x3 56x56x64->64 NHWC f32",
                2.0 * s.h * s.w * s.co * s.k * s.k * s.ci};
  std::vector<float> image = randomData(s.imageSize(), 3);
  std::vector<float> filter = randomData(s.filterSize(), 4); // HWIO
  std::vector<float> ref(s.outputSize()), out(s.outputSize());
  std::vector<float> cols(size_t(s.h) * s.w * s.k * s.k * s.ci);

  // HWIO is already the [k*k*ci, co] matrix that im2col's rows multiply.
  report.blas = medianSeconds(repeats, [&] {
    im2col(s, image.data(), cols.data());
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.h * s.w, s.co,
                s.k * s.k * s.ci, 1.0f, cols.data(), s.k * s.k * s.ci,
                filter.data(), s.co, 0.0f, ref.data(), s.co);
  });

  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::memory::dims src = {1, s.ci, s.h, s.w}, wei = {s.co, s.ci, s.k, s.k},
                     dst = {1, s.co, s.h, s.w};
  dnnl::memory::desc srcDesc(src, dt::f32, tag::nhwc);
  dnnl::memory::desc dstDesc(dst, dt::f32, tag::nhwc);
  dnnl::memory::desc weiAny(wei, dt::f32, tag::any);
  dnnl::convolution_forward::primitive_desc pd(
      dnnl::convolution_forward::desc(
          dnnl::prop_kind::forward_inference,
          dnnl::algorithm::convolution_direct, srcDesc, weiAny, dstDesc,
          /*strides=*/{1, 1}, /*padding_l=*/{s.pad, s.pad},
          /*padding_r=*/{s.pad, s.pad}),
      engine);
  dnnl::memory weiUser({wei, dt::f32, tag::hwio}, engine, filter.data());
  dnnl::memory weiMem(pd.weights_desc(), engine);
  dnnl::reorder(weiUser, weiMem).execute(stream, weiUser, weiMem);
  stream.wait();
  dnnl::convolution_forward conv(pd);
  dnnl::memory srcMem(srcDesc, engine, image.data()),
      dstMem(dstDesc, engine, out.data());
  report.dnnl = medianSeconds(repeats, [&] {
    conv.execute(stream, {{DNNL_ARG_SRC, srcMem},
                          {DNNL_ARG_WEIGHTS, weiMem},
                          {DNNL_ARG_DST, dstMem}});
    stream.wait();
  });
  expectClose("oneDNN convolution", out, ref);

#ifdef TILEC_BENCH_HAVE_TILEC
  std::fill(out.begin(), out.end(), 0.0f);
  report.tilec = medianSeconds(repeats, [&] {
    TILEC_CONV_FN(image.data(), filter.data(), out.data());
  });
  expectClose("tilec convolution", out, ref);
#endif
  return report;
}

} // namespace

int main(int argc, char **argv) {
  int repeats = argc > 1 ? std::atoi(argv[1]) : 10;
  if (repeats < 1) {
    std::fprintf(stderr, "usage: cpu-bench [REPEATS]\n");
    return 2;
  }
  const char *core = std::getenv("OPENBLAS_CORETYPE");
  std::printf("median of %d runs; OpenBLAS %s (%d threads, OPENBLAS_CORETYPE=%s), "
              "oneDNN %d.%d\n",
              repeats, openblas_get_corename(), openblas_get_num_threads(),
              core ? core : "unset", dnnl_version()->major,
              dnnl_version()->minor);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  Report matmul = benchMatmul(repeats, engine, stream);
  Report conv = benchConv(repeats, engine, stream);
  matmul.print();
  conv.print();
  return 0;
}
