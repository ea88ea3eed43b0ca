//===- CpuBench.cpp - The CPU baselines of bench/table.py ----------------===//
//
//   cpu-bench [--repeat=N] CASE...     CASE = KIND:NAME=VALUE,... (Cases.h)
//
// Times OpenBLAS and oneDNN on each case, on the same random inputs, and
// prints one JSON object: per case the median seconds of each library (null
// where it has no way to compute the kind) and its largest difference from
// plain reference loops, relative to the largest reference value. tilec's
// side is timed by `tilec bench`, in the same script run (bench/table.py).
//
// Each runner is run for half a second to warm up, then `repeat` times;
// wall-clock medians, since both libraries are synchronous on the CPU.
//
//===----------------------------------------------------------------------===//

#include "Baselines.h"
#include "Cases.h"

#include <cblas.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace bench;

/// Median wall time in seconds of `repeats` calls of `run`, after half a
/// second of warm-up calls (at least one). A process's first oneDNN calls
/// run slowly for about a tenth of a second whatever their count: alone in
/// a process, the depthwise convolution read 6.8 ms over 10 calls after one
/// warm-up call and 0.06 ms over 200.
static double medianSeconds(int repeats, const Runner &run, float *out) {
  auto warm = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  do
    run(out);
  while (std::chrono::steady_clock::now() < warm);
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    run(out);
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    times.push_back(elapsed.count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// Largest |got - ref| relative to the largest |ref|.
static double relativeError(const std::vector<float> &got,
                            const std::vector<float> &ref) {
  double maxDiff = 0, maxRef = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    maxDiff = std::max(maxDiff, double(std::fabs(got[i] - ref[i])));
    maxRef = std::max(maxRef, double(std::fabs(ref[i])));
  }
  return maxRef == 0 ? maxDiff : maxDiff / maxRef;
}

/// `"name": {"seconds": S, "error": E}` of one library on one case, or null.
static std::string timeLibrary(const char *name, const Runner &run,
                               const std::vector<float> &ref, int repeats) {
  if (!run)
    return std::string("\"") + name + "\": null";
  std::vector<float> out(ref.size(), 0.0f);
  double seconds = medianSeconds(repeats, run, out.data());
  char text[160];
  std::snprintf(text, sizeof text, "\"%s\": {\"seconds\": %.9g, \"error\": %.3g}",
                name, seconds, relativeError(out, ref));
  return text;
}

static int usage(const char *message) {
  std::fprintf(stderr,
               "cpu-bench: %s\nusage: cpu-bench [--repeat=N] "
               "KIND:NAME=VALUE,... ...\n  kinds: matmul:M,K,N "
               "conv1x1:N,H,W,CI,CO conv3x3:N,H,W,CI,CO depthwise3x3:N,H,W,C "
               "softmax:R,C layer_norm:R,C gelu:R,C\n",
               message);
  return 2;
}

int main(int argc, char **argv) {
  int repeats = 10;
  std::vector<Case> cases;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--repeat=", 0) == 0) {
      repeats = std::atoi(arg.c_str() + std::strlen("--repeat="));
      if (repeats < 1)
        return usage("--repeat needs a positive count");
      continue;
    }
    Case c;
    std::string error;
    if (!parseCase(arg, c, error))
      return usage((arg + ": " + error).c_str());
    cases.push_back(c);
  }
  if (cases.empty())
    return usage("no cases given");

  const char *coreType = std::getenv("OPENBLAS_CORETYPE");
  std::printf("{\n  \"repeat\": %d,\n  \"openblas\": \"%s, %d threads, "
              "OPENBLAS_CORETYPE=%s\",\n  \"onednn\": \"%d.%d.%d\",\n"
              "  \"cases\": [",
              repeats, openblas_get_corename(), openblas_get_num_threads(),
              coreType ? coreType : "unset", dnnl_version()->major,
              dnnl_version()->minor, dnnl_version()->patch);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    CaseData data = makeCaseData(c);
    std::vector<float> ref(data.outputSize);
    referenceOutput(c, data, ref.data());
    std::printf("%s\n    {\"case\": \"%s\", %s, %s}", i ? "," : "",
                c.spec.c_str(),
                timeLibrary("openblas", openBlasRunner(c, data), ref, repeats)
                    .c_str(),
                timeLibrary("onednn", oneDnnRunner(c, data), ref, repeats)
                    .c_str());
    std::fflush(stdout);
  }
  std::printf("\n  ]\n}\n");
  return 0;
}
