//===- Cases.cpp - Parsing, data and reference results of the cases ------===//
//
// The reference loops follow the .tile files of bench/kernels literally
// (same layouts, same padding), so a baseline that agrees with them computes
// what tilec computes.
//
//===----------------------------------------------------------------------===//

#include "Cases.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

namespace bench {

/// The size names of each kind, in the order of its .tile file's header.
static const std::map<std::string, std::vector<std::string>> &kindSizes() {
  static const std::map<std::string, std::vector<std::string>> kinds = {
      {"matmul", {"M", "K", "N"}},
      {"conv1x1", {"N", "H", "W", "CI", "CO"}},
      {"conv3x3", {"N", "H", "W", "CI", "CO"}},
      {"depthwise3x3", {"N", "H", "W", "C"}},
      {"softmax", {"R", "C"}},
      {"layer_norm", {"R", "C"}},
      {"gelu", {"R", "C"}},
  };
  return kinds;
}

bool parseCase(const std::string &spec, Case &result, std::string &error) {
  result = Case{spec, "", {}};
  size_t colon = spec.find(':');
  result.kind = spec.substr(0, colon);
  auto kind = kindSizes().find(result.kind);
  if (kind == kindSizes().end()) {
    error = "unknown kind '" + result.kind +
            "' (matmul, conv1x1, conv3x3, depthwise3x3, softmax, "
            "layer_norm, gelu)";
    return false;
  }
  std::stringstream list(colon == std::string::npos ? ""
                                                    : spec.substr(colon + 1));
  std::string item;
  while (std::getline(list, item, ',')) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      error = "'" + item + "' is not NAME=VALUE";
      return false;
    }
    std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    char *end = nullptr;
    long long size = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || size < 1 || size > (1LL << 31)) {
      error = "size " + name + " = '" + value + "' is not a positive integer";
      return false;
    }
    result.sizes[name] = size;
  }
  for (const std::string &name : kind->second)
    if (!result.sizes.count(name)) {
      error = result.kind + " needs the size " + name;
      return false;
    }
  for (const auto &entry : result.sizes)
    if (std::find(kind->second.begin(), kind->second.end(), entry.first) ==
        kind->second.end()) {
      error = result.kind + " has no size " + entry.first;
      return false;
    }
  return true;
}

static std::vector<float> randomData(size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> data(count);
  for (float &x : data)
    x = dist(gen);
  return data;
}

CaseData makeCaseData(const Case &c) {
  CaseData data;
  auto add = [&](int64_t count) {
    data.inputs.push_back(randomData(size_t(count), data.inputs.size() + 1));
  };
  if (c.kind == "matmul") {
    add(c.at("M") * c.at("K"));
    add(c.at("K") * c.at("N"));
    data.outputSize = size_t(c.at("M") * c.at("N"));
  } else if (c.kind == "conv1x1" || c.kind == "conv3x3") {
    int64_t pixels = c.at("N") * c.at("H") * c.at("W");
    int64_t taps = c.kind == "conv3x3" ? 9 : 1;
    add(pixels * c.at("CI"));
    add(taps * c.at("CI") * c.at("CO"));
    data.outputSize = size_t(pixels * c.at("CO"));
  } else if (c.kind == "depthwise3x3") {
    int64_t pixels = c.at("N") * c.at("H") * c.at("W");
    add(pixels * c.at("C"));
    add(9 * c.at("C"));
    data.outputSize = size_t(pixels * c.at("C"));
  } else { // softmax, layer_norm, gelu: rows
    add(c.at("R") * c.at("C"));
    if (c.kind == "layer_norm") {
      add(c.at("C")); // Gamma
      add(c.at("C")); // Beta
    }
    data.outputSize = size_t(c.at("R") * c.at("C"));
  }
  return data;
}

/// O[n, y, x, co] = sum of I[n, y+ky-p, x+kx-p, ci] * F[ky, kx, ci, co] over
/// a `size` x `size` window with p = size / 2, with `depthwise` meaning
/// ci == co and F[ky, kx, c].
static void referenceConv(const Case &c, const CaseData &data, bool depthwise,
                          int64_t size, float *out) {
  int64_t n = c.at("N"), h = c.at("H"), w = c.at("W"), pad = size / 2;
  int64_t ci = depthwise ? c.at("C") : c.at("CI");
  int64_t co = depthwise ? ci : c.at("CO");
  const float *image = data.inputs[0].data(), *filter = data.inputs[1].data();
  std::vector<double> acc(static_cast<size_t>(co));
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x) {
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int64_t ky = 0; ky < size; ++ky)
          for (int64_t kx = 0; kx < size; ++kx) {
            int64_t iy = y + ky - pad, ix = x + kx - pad;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w)
              continue;
            const float *pixel = image + ((b * h + iy) * w + ix) * ci;
            const float *taps =
                filter + (ky * size + kx) * ci * (depthwise ? 1 : co);
            for (int64_t i = 0; i < ci; ++i) {
              if (depthwise) {
                acc[i] += double(pixel[i]) * taps[i];
                continue;
              }
              for (int64_t o = 0; o < co; ++o)
                acc[o] += double(pixel[i]) * taps[i * co + o];
            }
          }
        float *dst = out + ((b * h + y) * w + x) * co;
        for (int64_t o = 0; o < co; ++o)
          dst[o] = float(acc[o]);
      }
}

/// Y[r, c] = (X[r, c] - mean_r) / sqrt(var_r + 1e-5) * Gamma[c] + Beta[c],
/// with the biased variance of the centred row.
static void referenceLayerNorm(const Case &c, const CaseData &data,
                               float *out) {
  int64_t rows = c.at("R"), cols = c.at("C");
  const float *gamma = data.inputs[1].data(), *beta = data.inputs[2].data();
  for (int64_t r = 0; r < rows; ++r) {
    const float *in = data.inputs[0].data() + r * cols;
    double mean = 0, var = 0;
    for (int64_t j = 0; j < cols; ++j)
      mean += in[j];
    mean /= double(cols);
    for (int64_t j = 0; j < cols; ++j)
      var += (in[j] - mean) * (in[j] - mean);
    var /= double(cols);
    double scale = 1 / std::sqrt(var + 1e-5);
    for (int64_t j = 0; j < cols; ++j)
      out[r * cols + j] = float((in[j] - mean) * scale * gamma[j] + beta[j]);
  }
}

void referenceOutput(const Case &c, const CaseData &data, float *out) {
  if (c.kind == "matmul") {
    int64_t m = c.at("M"), k = c.at("K"), n = c.at("N");
    const float *a = data.inputs[0].data(), *b = data.inputs[1].data();
    std::vector<double> row(static_cast<size_t>(n));
    for (int64_t i = 0; i < m; ++i) {
      std::fill(row.begin(), row.end(), 0.0);
      for (int64_t p = 0; p < k; ++p)
        for (int64_t j = 0; j < n; ++j)
          row[j] += double(a[i * k + p]) * b[p * n + j];
      for (int64_t j = 0; j < n; ++j)
        out[i * n + j] = float(row[j]);
    }
  } else if (c.kind == "conv1x1") {
    referenceConv(c, data, /*depthwise=*/false, 1, out);
  } else if (c.kind == "conv3x3" || c.kind == "depthwise3x3") {
    referenceConv(c, data, c.kind == "depthwise3x3", 3, out);
  } else if (c.kind == "layer_norm") {
    referenceLayerNorm(c, data, out);
  } else if (c.kind == "gelu") {
    const std::vector<float> &in = data.inputs[0];
    for (size_t i = 0; i < in.size(); ++i) {
      double x = in[i];
      out[i] = float(0.5 * x *
                     (1 + std::tanh(0.7978845608028654 *
                                    (x + 0.044715 * x * x * x))));
    }
  } else { // softmax
    int64_t rows = c.at("R"), cols = c.at("C");
    for (int64_t r = 0; r < rows; ++r) {
      const float *in = data.inputs[0].data() + r * cols;
      double mx = *std::max_element(in, in + cols), sum = 0;
      for (int64_t j = 0; j < cols; ++j)
        sum += std::exp(double(in[j]) - mx);
      for (int64_t j = 0; j < cols; ++j)
        out[r * cols + j] = float(std::exp(double(in[j]) - mx) / sum);
    }
  }
}

} // namespace bench
