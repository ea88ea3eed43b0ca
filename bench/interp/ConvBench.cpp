//===- ConvBench.cpp - Speed of the reference interpreter on convolutions -===//
//
// Builds typed programs by hand (no parser needed) for the convolutions that
// dominate a MobileNet v1 and times interpret() on each. Run with run.sh.
//
//===----------------------------------------------------------------------===//

#include "IndexTestHelpers.h"

#include "tilec/Interp/Interpreter.h"

#include <chrono>
#include <cstdio>
#include <ctime>

using namespace tilec;
using namespace tilec::typed;
using namespace tilec::test;

namespace {

/// O[n, y, x, co] = +(I[n, S*y + ky - P, S*x + kx - P, ci] * F[ky, kx, ci, co])
/// (depthwise: ci = co and F[ky, kx, c, 0]).
Program convProgram(int64_t h, int64_t w, int64_t ci, int64_t co, int64_t k,
                    int64_t stride, bool depthwise) {
  Program p;
  int64_t pad = (k - 1) / 2;
  int64_t ho = (h - 1) / stride + 1, wo = (w - 1) / stride + 1;
  p.values.push_back({"I", {DType::F32, {1, h, w, ci}}, SMLoc()});
  p.values.push_back(
      {"F",
       {DType::F32, {k, k, depthwise ? ci : ci, depthwise ? 1 : co}},
       SMLoc()});
  p.values.push_back({"O", {DType::F32, {1, ho, wo, co}}, SMLoc()});
  p.inputs = {0, 1};
  p.outputs = {2};
  auto c = std::make_unique<Contraction>();
  c->agg = ast::AggKind::Sum;
  c->comb = ast::CombKind::Mul;
  c->combineType = DType::F32;
  // Variables: n y x co ky kx [ci]
  c->vars = {var("n", 0, 0),       var("y", 0, ho - 1), var("x", 0, wo - 1),
             var("co", 0, co - 1), var("ky", 0, k - 1), var("kx", 0, k - 1)};
  if (!depthwise)
    c->vars.push_back(var("ci", 0, ci - 1));
  c->outIndices = {aff(0, {1}), aff(0, {0, 1}), aff(0, {0, 0, 1}),
                   aff(0, {0, 0, 0, 1})};
  std::vector<int64_t> ciCoeffs =
      depthwise ? std::vector<int64_t>{0, 0, 0, 1}
                : std::vector<int64_t>{0, 0, 0, 0, 0, 0, 1};
  Access in{0,
            {aff(0, {1}), aff(-pad, {0, stride, 0, 0, 1}),
             aff(-pad, {0, 0, stride, 0, 0, 1}), aff(0, ciCoeffs)},
            SMLoc()};
  Access f{1,
           {aff(0, {0, 0, 0, 0, 1}), aff(0, {0, 0, 0, 0, 0, 1}),
            aff(0, ciCoeffs), depthwise ? aff(0, {}) : aff(0, {0, 0, 0, 1})},
           SMLoc()};
  c->operands = {std::move(in), std::move(f)};
  Statement s;
  s.kind = Statement::Kind::Contraction;
  s.results = {2};
  s.operands = {0, 1};
  s.contraction = std::move(c);
  p.statements.push_back(std::move(s));
  return p;
}

void bench(const char *name, const Program &p, double macs) {
  std::vector<Tensor> inputs;
  for (unsigned k = 0; k < p.inputs.size(); ++k)
    inputs.push_back(generateInput(p.value(p.inputs[k]).type, 1, k));
  // CPU time as well as wall time: on a shared machine the wall time
  // mostly measures the other processes.
  auto start = std::chrono::steady_clock::now();
  std::clock_t cpuStart = std::clock();
  auto out = interpret(p, std::move(inputs));
  double cpu = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!out) {
    std::printf("%s: error: %s\n", name,
                llvm::toString(out.takeError()).c_str());
    return;
  }
  std::printf("%-32s %6.1f M MACs  wall %6.3f s  cpu %6.3f s  %6.1f M MAC/s "
              "(cpu)\n",
              name, macs / 1e6, secs, cpu, macs / 1e6 / cpu);
}

} // namespace

int main() {
  bench("pointwise 112x112x64 -> 64",
        convProgram(112, 112, 64, 64, 1, 1, false), 112.0 * 112 * 64 * 64);
  bench("3x3 stride 2, 224x224x3 -> 32",
        convProgram(224, 224, 3, 32, 3, 2, false), 112.0 * 112 * 32 * 27);
  bench("depthwise 3x3, 112x112x64", convProgram(112, 112, 64, 64, 3, 1, true),
        112.0 * 112 * 64 * 9);
  bench("pointwise 14x14x512 -> 512",
        convProgram(14, 14, 512, 512, 1, 1, false), 14.0 * 14 * 512 * 512);
  return 0;
}
