//===- AutodiffTest.cpp - Gradients against finite differences ------------===//
//
// Every rule of lib/Autodiff (design/AUTODIFF.md 7.4, 7.8, 7.9) on a small
// f64 program: the analytic gradient against central differences on the
// interpreter (GradCheck.h), plus the conventions finite differences cannot
// see (relu'(0), ties of max contractions) checked on exact values.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestHelpers.h"

#include "tilec/Autodiff/Autodiff.h"
#include "tilec/Autodiff/GradCheck.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Interp/Interpreter.h"

#include <catch2/catch.hpp>

using namespace tilec;
using tilec::test::Source;

namespace {

/// A program bound with every grad expanded.
struct Differentiated {
  std::unique_ptr<Source> src;
  ast::Module module;
  std::optional<typed::Program> program;

  typed::ValueId input(const std::string &name) const {
    for (typed::ValueId id : program->inputs)
      if (program->value(id).name == name)
        return id;
    FAIL("no input " << name);
    return 0;
  }
};

Differentiated bindAndExpand(const std::string &text) {
  Differentiated d;
  d.src = std::make_unique<Source>(text);
  d.module = tilec::test::parseAndCheck(*d.src);
  INFO(d.src->printed);
  REQUIRE(!d.src->diag.hadError());
  d.program = bindProgram(d.module, d.module.functions.back(), BindOptions(),
                          d.src->diag);
  REQUIRE(d.program);
  REQUIRE(autodiff::expandGrads(*d.program, d.src->diag));
  return d;
}

struct Case {
  const char *title;
  const char *source;
  std::vector<std::string> wrts;
};

// Sizes are small and odd where parity matters; R makes DY a random tensor.
const Case kCases[] = {
    {"broadcasting with the broadcast axes reduced (7.8 case 10)",
     R"(function main(X: f64[4, 3], Bias: f64[3], Col: f64[4, 1], S: f64[], R: f64[4, 3]) -> (L) {
  Y = X + Bias - Col * S;
  P = Y * R;
  L[] = +(P[n, c]);
})",
     {"X", "Bias", "Col", "S"}},
    {"'+' combination counts the other operand's variables (7.9)",
     R"(function main(A: f64[4], B: f64[3], R: f64[4]) -> (L) {
  O[i : 4] = +(A[i] + B[j]);
  P = O * R;
  L[] = +(P[i]);
})",
     {"A", "B"}},
    {"default shows through only where nothing was written",
     R"(function main(U: f64[3], X: f64[8], R: f64[8]) -> (L) {
  O[i + 2 : 8] = =(U[i]) default X;
  P = O * R;
  L[] = +(P[i]);
})",
     {"U", "X"}},
    {"upsampling with gaps",
     R"(function main(X: f64[4], R: f64[8]) -> (L) {
  U[2*i : 8] = =(X[i]);
  P = U * R;
  L[] = +(P[i]);
})",
     {"X"}},
    {"'=' transpose and a moving sum with negative offsets",
     R"(function main(X: f64[3, 4], R: f64[4, 3]) -> (L) {
  Tr[j, i : 4, 3] = =(X[i, j]);
  Ms[i : 4] = +(Tr[i - k, 0]), k < 3;
  P = Tr * R;
  Q[] = +(P[i, j]);
  M2[] = +(Ms[i]);
  L = Q + M2 * 0.5;
})",
     {"X"}},
    {"COND contraction: only C takes a gradient",
     R"(function main(A: f64[3, 4], B: f64[4], C: f64[3, 4], R: f64[3]) -> (L) {
  Ar = round(A * 2);
  Br = round(B * 2);
  O[i : 3] = +(Ar[i, j] == Br[j] ? C[i, j]);
  P = O * R;
  L[] = +(P[i]);
})",
     {"C"}},
    {"scatter: E gets gather(DO, I)",
     R"(function main(E: f64[4, 3], Ids: i32[4], V: f64[5, 3], R: f64[5, 3]) -> (L) {
  O = scatter(E, Ids, V);
  P = O * R;
  L[] = +(P[i, j]);
})",
     {"E"}},
    {"gather (embedding) with repeated ids",
     R"(function main(Table: f64[5, 3], Ids: i32[2, 4], R: f64[2, 4, 3]) -> (L) {
  O = gather(Table, Ids);
  P = O * R;
  L[] = +(P[b, t, d]);
})",
     {"Table"}},
    {"reshape then a dense layer (7.8 case 9)",
     R"(function main(X: f64[2, 3, 2, 2], W1: f64[12, 5], R: f64[2, 5]) -> (L) {
  Y = reshape(X, 2, 12);
  Z[b, m : 2, 5] = +(Y[b, k] * W1[k, m]);
  P = Z * R;
  L[] = +(P[b, m]);
})",
     {"X", "W1"}},
    {"float-to-float casts pass the gradient",
     R"(function main(X: f64[3, 4], W16: f16[3, 4], R: f64[3, 4]) -> (L) {
  Y = as_float(as_float(X, 32) * as_float(W16, 32), 64);
  P = Y * R;
  L[] = +(P[i, j]);
})",
     {"X", "W16"}},
    {"every math function and the inline builtins",
     R"(function main(X: f64[5], R: f64[5]) -> (L) {
  Xp = X * X + 1.5;
  Y = sin(X) + cos(X) + tan(X * 0.3) + sqrt(Xp) + log(Xp) + pow(Xp, 1.7) + pow(Xp, X) + sinh(X) + cosh(X) + asin(X * 0.2) + acos(X * 0.2) + atan(X) + asinh(X) + acosh(Xp) + atanh(X * 0.2) + abs(X) + max(X, X * 0.5) + min(X, 0.1) + floor(X);
  P = Y * R;
  L[] = +(P[i]);
})",
     {"X"}},
    {"conv2d stride 2 pad 1 (7.8 case 2)",
     R"(function main(I: f64[2, 7, 8, 3], F: f64[3, 3, 3, 4], R: f64[2, 4, 4, 4]) -> (L) {
  O[n, y, x, co : 2, 4, 4, 4] = +(I[n, 2*y + ky - 1, 2*x + kx - 1, ci] * F[ky, kx, ci, co]);
  P = O * R;
  L[] = +(P[n, y, x, c]);
})",
     {"I", "F"}},
    {"max pool 3x3 stride 2 with overlapping windows (7.8 case 3)",
     R"(function main(I: f64[2, 7, 8, 3], R: f64[2, 4, 4, 3]) -> (L) {
  O[n, y, x, c : 2, 4, 4, 3] = >(I[n, 2*y + ky - 1, 2*x + kx - 1, c]), ky < 3, kx < 3;
  P = O * R;
  L[] = +(P[n, y, x, c]);
})",
     {"I"}},
    {"average pool without padding in the count (7.8 case 4)",
     R"(function main(I: f64[2, 7, 7, 3], R: f64[2, 4, 4, 3]) -> (L) {
  Sum[n, y, x, c : 2, 4, 4, 3] = +(I[n, 2*y + ky - 1, 2*x + kx - 1, c]), ky < 3, kx < 3;
  One = 1.0;
  Ones[h, w : 7, 7] = =(One[]);
  Count[y, x, 0 : 4, 4, 1] = +(Ones[2*y + ky - 1, 2*x + kx - 1]), ky < 3, kx < 3;
  O = Sum / Count;
  P = O * R;
  L[] = +(P[n, y, x, c]);
})",
     {"I"}},
    {"softmax cross-entropy (7.8 case 5)",
     R"(function main(Z: f64[4, 5], Lab0: i32[4, 1]) -> (Loss) {
  Lab = Lab0 & 3;
  T = as_float(index(Z, 1) == Lab, 64);
  Mx[n, 0 : 4, 1] = >(Z[n, c]);
  E = exp(Z - Mx);
  S[n, 0 : 4, 1] = +(E[n, c]);
  LogP = Z - Mx - log(S);
  Picked[] = +(LogP[n, c] * T[n, c]);
  Loss = -Picked / 4;
})",
     {"Z"}},
    {"layer norm (7.8 case 6)",
     R"(function main(X: f64[3, 6], Gamma: f64[6], Beta: f64[6], R: f64[3, 6]) -> (L) {
  Sum[r, 0 : 3, 1] = +(X[r, c]);
  Mean = Sum / 6;
  D = X - Mean;
  Sq = D * D;
  SqSum[r, 0 : 3, 1] = +(Sq[r, c]);
  Var = SqSum / 6;
  Y = D / sqrt(Var + 0.00001) * Gamma + Beta;
  P = Y * R;
  L[] = +(P[r, c]);
})",
     {"X", "Gamma", "Beta"}},
    {"second order: grad of an expression of a gradient (7.9)",
     R"(function main(X: f64[3, 4], W: f64[4, 2]) -> (H) {
  Y[i, j : 3, 2] = +(X[i, k] * W[k, j]);
  T = tanh(Y);
  L[] = +(T[i, j]);
  G = grad(L, X);
  G2 = G * G;
  N2[] = +(G2[i, j]);
  H = N2 + L;
})",
     {"X", "W"}},
};

} // namespace

TEST_CASE("every rule matches central differences in f64", "[autodiff]") {
  for (const Case &c : kCases) {
    SECTION(c.title) {
      Differentiated d = bindAndExpand(c.source);
      std::vector<typed::ValueId> wrts;
      for (const std::string &name : c.wrts)
        wrts.push_back(d.input(name));
      autodiff::GradCheckOptions options;
      options.seed = 7;
      auto results = autodiff::checkGradients(
          *d.program, d.program->outputs[0], wrts, options, d.src->diag);
      INFO(d.src->printed);
      REQUIRE(static_cast<bool>(results));
      for (const autodiff::GradCheckResult &r : *results) {
        INFO("D_" << r.wrt << ": analytic " << r.analytic
                  << ", finite difference " << r.finiteDifference);
        // h = 1e-6 in f64: agreement to ~1e-9; 1e-6 leaves room for
        // cancellation in a sum, none for a wrong rule.
        CHECK(r.maxRelError < 1e-6);
        CHECK(r.analytic != 0);
      }
    }
  }
}

/// Runs a one-input program on `x` and returns its only output.
static std::vector<double> run(const std::string &text, const Tensor &x) {
  Differentiated d = bindAndExpand(text);
  auto out = interpret(*d.program, {x});
  REQUIRE(static_cast<bool>(out));
  std::vector<double> values;
  for (int64_t i = 0; i < (*out)[0].type.numElements(); ++i)
    values.push_back((*out)[0].getDouble(i));
  return values;
}

static Tensor vector64(std::vector<double> values) {
  Tensor t(TensorType{DType::F64, {int64_t(values.size())}});
  for (size_t i = 0; i < values.size(); ++i)
    t.setDouble(int64_t(i), values[i]);
  return t;
}

TEST_CASE("relu and abs have derivative 0 at 0", "[autodiff]") {
  const char *relu = R"(function main(X: f64[3]) -> (G) {
    Y = relu(X);
    L[] = +(Y[i]);
    G = grad(L, X);
  })";
  CHECK(run(relu, vector64({-1, 0, 2})) == std::vector<double>{0, 0, 1});
  const char *absolute = R"(function main(X: f64[3]) -> (G) {
    Y = abs(X);
    L[] = +(Y[i]);
    G = grad(L, X);
  })";
  CHECK(run(absolute, vector64({-1, 0, 2})) == std::vector<double>{-1, 0, 1});
}

TEST_CASE("a max contraction splits its gradient evenly among ties",
          "[autodiff]") {
  const char *pool = R"(function main(X: f64[4]) -> (G) {
    M[i : 2] = >(X[2*i + k]), k < 2;
    L[] = +(M[i]);
    G = grad(L, X);
  })";
  CHECK(run(pool, vector64({3, 3, 1, 5})) ==
        std::vector<double>{0.5, 0.5, 0, 1});
}

TEST_CASE("gather sends clamped ids' gradients to the edge rows",
          "[autodiff]") {
  const char *embed = R"(function main(T: f64[3]) -> (G) {
    Ids = as_int(index(T, 0), 32) * 3 - 2;
    O = gather(T, Ids);
    L[] = +(O[i]);
    G = grad(L, T);
  })";
  // Ids = -2, 1, 4: clamped to rows 0, 1, 2.
  CHECK(run(embed, vector64({5, 6, 7})) == std::vector<double>{1, 1, 1});
}

TEST_CASE("the sigmoid rule stays finite where exp(-X) overflows",
          "[autodiff]") {
  const char *sig = R"(function main(X: f32[2]) -> (G) {
    Y = sigmoid(X);
    L[] = +(Y[i]);
    G = grad(L, X);
  })";
  Tensor x(TensorType{DType::F32, {2}});
  x.setDouble(0, -100);
  x.setDouble(1, 0);
  std::vector<double> g = run(sig, x);
  CHECK(g[0] == 0);
  CHECK(g[1] == 0.25);
}

TEST_CASE("a wrt the loss does not depend on gets zeros and a warning",
          "[autodiff]") {
  Differentiated d = bindAndExpand(R"(function main(X: f64[2], B: f64[3]) -> (G) {
    L[] = +(X[i]);
    G = grad(L, B);
  })");
  const RecordedDiag *w = d.src->first(DiagKind::Warning);
  REQUIRE(w);
  CHECK(w->message == "'L' does not depend on 'B'; its gradient is zero");
  auto out = interpret(*d.program, {vector64({1, 2}), vector64({1, 2, 3})});
  REQUIRE(static_cast<bool>(out));
  CHECK((*out)[0].type.shape == std::vector<int64_t>{3});
  CHECK((*out)[0].getDouble(2) == 0);
}
