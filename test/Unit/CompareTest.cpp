//===- CompareTest.cpp - The output comparison rule and its bounds --------===//
//
// The rule of Support/Compare (ulps, bounds, NaN, infinities, integers,
// bool) on hand-made tensors, and the bounds the interpreter derives for it
// (interpretWithBounds) on small bound programs.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestHelpers.h"

#include "tilec/Frontend/Sema.h"
#include "tilec/Interp/Interpreter.h"
#include "tilec/Support/Compare.h"
#include "tilec/Support/FloatPrecision.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace tilec;

namespace {

Tensor floats(DType dtype, std::vector<int64_t> shape,
              std::vector<double> values) {
  Tensor t(TensorType{dtype, std::move(shape)});
  for (size_t k = 0; k < values.size(); ++k)
    t.setDouble(int64_t(k), values[k]);
  return t;
}

Tensor ints(DType dtype, std::vector<int64_t> values) {
  Tensor t(TensorType{dtype, {int64_t(values.size())}});
  for (size_t k = 0; k < values.size(); ++k)
    t.setInt(int64_t(k), values[k]);
  return t;
}

/// Whether `got` passes against the one-element `want` with `bound`.
bool passes(double got, double want, DType dtype = DType::F32,
            std::optional<double> bound = std::nullopt) {
  Tensor b = floats(DType::F64, {1}, {bound.value_or(0)});
  return compareTensors(floats(dtype, {1}, {got}), floats(dtype, {1}, {want}),
                        bound ? &b : nullptr)
      .match;
}

/// The interpreter's outputs and bounds for the entry of `text`.
ReferenceOutputs runWithBounds(const std::string &text,
                               std::vector<Tensor> inputs,
                               ReferenceRules rules = {}) {
  tilec::test::Source src(text);
  ast::Module module = tilec::test::parseAndCheck(src);
  INFO(src.printed);
  REQUIRE(!src.diag.hadError());
  const ast::Function *fn = findEntry(module, "");
  REQUIRE(fn);
  std::optional<typed::Program> program =
      bindProgram(module, *fn, BindOptions(), src.diag);
  REQUIRE(program);
  auto reference = interpretWithBounds(*program, std::move(inputs), rules);
  REQUIRE(static_cast<bool>(reference));
  return std::move(*reference);
}

const double kU = std::ldexp(1.0, -24); // f32's unit roundoff

} // namespace

TEST_CASE("compare: without a bound, floats get 2 ulps", "[compare]") {
  double ulp = std::ldexp(1.0, -23); // at 1 in f32
  CHECK(passes(1, 1));
  CHECK(passes(1 + 2 * ulp, 1));
  CHECK_FALSE(passes(1 + 3 * ulp, 1));
  // The ulps are the reference's type's: f16 is coarser.
  CHECK(passes(1 + std::ldexp(1.0, -9), 1, DType::F16));
  CHECK_FALSE(passes(1 + 3 * std::ldexp(1.0, -10), 1, DType::F16));
  CHECK(ulpOf(1, DType::F32) == ulp);
  CHECK(ulpOf(0, DType::F32) == std::ldexp(1.0, -149)); // subnormal spacing
  CHECK(ulpOf(-3, DType::BF16) == std::ldexp(1.0, -6));
}

TEST_CASE("compare: a bound widens each element by its own amount",
          "[compare]") {
  Tensor want = floats(DType::F32, {2, 2}, {1, 1, 1, 1});
  Tensor bound = floats(DType::F64, {2, 2}, {1e-3, 1e-3, 0, 1e-3});
  Tensor got = floats(DType::F32, {2, 2}, {1.0009, 0.9991, 1, 1});
  TensorComparison ok = compareTensors(got, want, &bound);
  CHECK(ok.match);
  CHECK(ok.boundGiven);
  CHECK(ok.worstFraction > 0.85);
  CHECK(ok.worstFraction < 1);
  // Element [1, 0] has no room: 1e-5 off fails there only.
  got.setDouble(2, 1.00001);
  TensorComparison wrong = compareTensors(got, want, &bound);
  CHECK_FALSE(wrong.match);
  CHECK(wrong.mismatches == 1);
  REQUIRE(wrong.first);
  CHECK(wrong.first->index == std::vector<int64_t>{1, 0});
  CHECK(wrong.first->got == float(1.00001));
  CHECK(wrong.first->want == 1);
  CHECK(wrong.first->allowed == 2 * ulpOf(1, DType::F32));
  std::string line = formatComparison("Y", wrong);
  CHECK(line.find("1 of 4 elements outside their bound, the first at [1, 0]: "
                  "got 1.00001001, expected 1, bound 2.38e-07; MISMATCH)") !=
        std::string::npos);
  // A bound of another shape is refused, not ignored.
  Tensor flat = floats(DType::F64, {4}, {1, 1, 1, 1});
  TensorComparison shape = compareTensors(got, want, &flat);
  CHECK_FALSE(shape.match);
  CHECK(shape.problem.find("bound") != std::string::npos);
}

TEST_CASE("compare: NaN only against NaN at the same element", "[compare]") {
  double nan = std::nan("");
  Tensor want = floats(DType::F32, {3}, {nan, 1, 2});
  Tensor bound = floats(DType::F64, {3}, {1, 1, 1});
  TensorComparison same =
      compareTensors(floats(DType::F32, {3}, {nan, 1, 2}), want, &bound);
  CHECK(same.match);
  CHECK(same.gotNaN == 1);
  CHECK(same.wantNaN == 1);
  CHECK(formatComparison("Y", same).find("1 NaN (interpreter: 1)") !=
        std::string::npos);
  // A NaN elsewhere, or a number where the reference is NaN, fails, however
  // large the bound.
  CHECK_FALSE(
      compareTensors(floats(DType::F32, {3}, {nan, nan, 2}), want, &bound)
          .match);
  CHECK_FALSE(
      compareTensors(floats(DType::F32, {3}, {0, 1, 2}), want, &bound).match);
  CHECK_FALSE(passes(nan, 1, DType::F32, INFINITY));
}

TEST_CASE("compare: infinities match exactly, sign included", "[compare]") {
  CHECK(passes(INFINITY, INFINITY));
  CHECK(passes(-INFINITY, -INFINITY));
  CHECK_FALSE(passes(-INFINITY, INFINITY, DType::F32, INFINITY));
  CHECK_FALSE(passes(3e38, INFINITY, DType::F32, 1e38));
  CHECK_FALSE(passes(INFINITY, 3e38, DType::F32, 1e38));
  // An element whose bound is not finite needs only a finite value.
  Tensor bound = floats(DType::F64, {1}, {INFINITY});
  TensorComparison unbounded = compareTensors(
      floats(DType::F32, {1}, {5}), floats(DType::F32, {1}, {1}), &bound);
  CHECK(unbounded.match);
  CHECK(unbounded.unbounded == 1);
  CHECK(formatComparison("Y", unbounded).find("1 elements unbounded") !=
        std::string::npos);
}

TEST_CASE("compare: integers and bool are exact", "[compare]") {
  CHECK(
      compareTensors(ints(DType::I32, {1, -2, 3}), ints(DType::I32, {1, -2, 3}))
          .match);
  TensorComparison off = compareTensors(ints(DType::I32, {1, -2, 4}),
                                        ints(DType::I32, {1, -2, 3}));
  CHECK_FALSE(off.match);
  CHECK(off.exact);
  CHECK(formatComparison("N", off) ==
        "check: N: max abs error 1, max rel error 0.333 (1 of 3 elements "
        "differ, the first at [2]: got 4, expected 3; MISMATCH)");
  CHECK(formatComparison(
            "N", compareTensors(ints(DType::U8, {7}), ints(DType::U8, {7}))) ==
        "check: N: max abs error 0, max rel error 0 (exact; ok)");
  CHECK_FALSE(
      compareTensors(ints(DType::Bool, {1, 0}), ints(DType::Bool, {1, 1}))
          .match);
  // Types must agree.
  TensorComparison types =
      compareTensors(ints(DType::I64, {1}), ints(DType::I32, {1}));
  CHECK_FALSE(types.match);
  CHECK(formatComparison("N", types) ==
        "check: N: is i64[1], expected i32[1] (MISMATCH)");
}

TEST_CASE("bounds: a sum is bounded by the magnitude of its terms",
          "[compare][interp]") {
  // 1 - 1 + 2^-10 cancels: the result is small, the terms are not.
  ReferenceOutputs r =
      runWithBounds("function (X: f32[3]) -> (Y) { Y[] = +(X[i]); }",
                    {floats(DType::F32, {3}, {1, -1, std::ldexp(1.0, -10)})});
  REQUIRE(r.bounds.size() == 1);
  double bound = r.bounds[0].getDouble(0);
  double absSum = 2 + std::ldexp(1.0, -10);
  // Two f32 additions (the back end) and the f64 sum's rounding (the
  // reference), each at most u * sum|terms| (plus flushes and ulps).
  CHECK(bound >= 2 * kU * absSum);
  CHECK(bound < 3 * kU * absSum);
  // Far more than 2 ulps of the result, which a reordered sum may miss.
  CHECK(bound > 100 * ulpOf(std::ldexp(1.0, -10), DType::F32));
  Tensor &want = r.outputs[0];
  double y = want.getDouble(0);
  CHECK(compareTensors(floats(DType::F32, {}, {y + 0.9 * bound}), want,
                       &r.bounds[0])
            .match);
  CHECK_FALSE(compareTensors(floats(DType::F32, {}, {y + 2 * bound}), want,
                             &r.bounds[0])
                  .match);
}

TEST_CASE("bounds: elementwise operations propagate their operands' radii",
          "[compare][interp]") {
  // X * Y of exact inputs: one rounding on each side.
  ReferenceOutputs mul = runWithBounds(
      "function (X: f32[1], Y: f32[1]) -> (Z) { Z = X * Y; }",
      {floats(DType::F32, {1}, {3}), floats(DType::F32, {1}, {5})});
  double mulBound = mul.bounds[0].getDouble(0);
  CHECK(mulBound >= 2 * 0.5 * ulpOf(15, DType::F32));
  CHECK(mulBound < 1.01 * ulpOf(15, DType::F32));
  // exp of an inexact sum: exp(s +- r) spreads by about exp(s) * r, then
  // the function's own 3 ulps on each side.
  ReferenceOutputs e = runWithBounds(
      "function (X: f32[2]) -> (Z) { S[] = +(X[i]); Z = exp(S); }",
      {floats(DType::F32, {2}, {1, 1})});
  // One f32 addition of terms summing to 2 in magnitude, and the
  // reference's rounding of its f64 sum.
  double sumRadius = kU * 2 + 0.5 * ulpOf(2, DType::F32);
  double z = e.outputs[0].getDouble(0);
  double expBound = e.bounds[0].getDouble(0);
  CHECK(expBound >= std::exp(2.0) * sumRadius + 6 * ulpOf(z, DType::F32));
  CHECK(expBound <
        1.1 * (std::exp(2.0) * sumRadius + 6 * ulpOf(z, DType::F32)) + 1e-30);
  // sqrt of a sum that cancels to 0: its interval [-r, r] is clamped to
  // sqrt's domain, and sqrt(r) is far more than r.
  ReferenceOutputs s = runWithBounds(
      "function (X: f32[2]) -> (Z) { S[] = +(X[i]); Z = sqrt(S); }",
      {floats(DType::F32, {2}, {1, -1})});
  CHECK(s.outputs[0].getDouble(0) == 0);
  CHECK(s.bounds[0].getDouble(0) >= std::sqrt(kU * 2));
  // Integers carry no bound: they are compared exactly.
  ReferenceOutputs i =
      runWithBounds("function (X: i32[2]) -> (Z) { Z[] = +(X[i]); }",
                    {ints(DType::I32, {1, 2})});
  CHECK(i.bounds[0].data.empty());
}

TEST_CASE("bounds: select on a comparison that may flip takes both branches",
          "[compare][interp]") {
  // S is 0 up to its rounding, so S > 0 may go either way: Z may be 10 or
  // -10.
  ReferenceOutputs r = runWithBounds("function (X: f32[2]) -> (Z) {\n"
                                     "  S[] = +(X[i]);\n"
                                     "  Z = S > 0 ? 10.0 : -10.0;\n"
                                     "}",
                                     {floats(DType::F32, {2}, {1, -1})});
  CHECK(r.bounds[0].getDouble(0) >= 20);
  // Away from the tie it is exact.
  ReferenceOutputs clear = runWithBounds("function (X: f32[2]) -> (Z) {\n"
                                         "  S[] = +(X[i]);\n"
                                         "  Z = S > 0 ? 10.0 : -10.0;\n"
                                         "}",
                                         {floats(DType::F32, {2}, {1, 1})});
  CHECK(clear.bounds[0].getDouble(0) == 0);
}

TEST_CASE("bounds: a long sum gets the likely bound, not the worst case",
          "[compare][interp]") {
  // 4096 ones: 4095 roundings of partial sums, each at most u * 4096. The
  // worst case adds them all up; independent errors add as squares, and six
  // scales of those are the smaller bound.
  const int64_t n = 4096;
  ReferenceOutputs r =
      runWithBounds("function (X: f32[4096]) -> (Y) { Y[] = +(X[i]); }",
                    {floats(DType::F32, {n}, std::vector<double>(n, 1.0))});
  double each = kU * double(n);
  double worst = double(n - 1) * each;
  double likely = 6 * std::sqrt(double(n - 1)) * each;
  double bound = r.bounds[0].getDouble(0);
  CHECK(bound < worst / 5);
  CHECK(bound >= likely);
  CHECK(bound < 1.01 * likely);
}

/// `x` truncated to TF32: 10 of its 23 mantissa bits kept.
double truncatedToTF32(double x) {
  float f = float(x);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits &= ~uint32_t(0x1fff);
  std::memcpy(&f, &bits, 4);
  return f;
}

TEST_CASE("bounds: --allow-tf32 allows products of operands cut to TF32",
          "[compare][interp]") {
  // 256 products of operands just below powers of two, all positive:
  // truncating both to TF32 shrinks every product by almost 2^-9 of
  // itself, an error of one sign that the likely bound must allow too.
  const int64_t n = 256;
  std::vector<double> a(n), b(n);
  for (int64_t k = 0; k < n; ++k) {
    a[k] = 1.999 - 0.0001 * double(k);
    b[k] = 0.999 + 0.0001 * double(k);
  }
  const char *dot =
      "function (A: f32[1, 256], B: f32[256, 1]) -> (C) {"
      "  C[m, n : 1, 1] = +(A[m, k] * B[k, n]); }";
  auto inputs = [&] {
    return std::vector<Tensor>{floats(DType::F32, {1, n}, a),
                               floats(DType::F32, {n, 1}, b)};
  };
  ReferenceRules tf32;
  tf32.tf32Products = true;
  ReferenceOutputs strict = runWithBounds(dot, inputs());
  ReferenceOutputs relaxed = runWithBounds(dot, inputs(), tf32);
  double truncated = 0;
  for (int64_t k = 0; k < n; ++k)
    truncated += truncatedToTF32(a[k]) * truncatedToTF32(b[k]);
  Tensor got = floats(DType::F32, {1, 1}, {truncated});
  CHECK_FALSE(compareTensors(got, strict.outputs[0], &strict.bounds[0]).match);
  CHECK(compareTensors(got, relaxed.outputs[0], &relaxed.bounds[0]).match);
  // Still far from anything: a product left out fails.
  Tensor missing = floats(DType::F32, {1, 1}, {truncated - a[0] * b[0]});
  CHECK_FALSE(
      compareTensors(missing, relaxed.outputs[0], &relaxed.bounds[0]).match);
  // Only f32 sums of products: the same rule leaves a plain sum alone.
  ReferenceOutputs sum = runWithBounds(
      "function (X: f32[3]) -> (Y) { Y[] = +(X[i]); }",
      {floats(DType::F32, {3}, {1, -1, std::ldexp(1.0, -10)})}, tf32);
  CHECK(sum.bounds[0].getDouble(0) < 3 * kU * (2 + std::ldexp(1.0, -10)));
}

TEST_CASE("bounds: max, gather and scatter move the bounds of what they pick",
          "[compare][interp]") {
  // S = [1 - 1, 2 + 0]: both sums have terms of magnitude 2, so both get
  // about 2u * 2; S[1] also half an ulp of 2 for its last rounding.
  auto inputs = [] {
    return std::vector<Tensor>{floats(DType::F32, {2, 2}, {1, -1, 2, 0})};
  };
  ReferenceOutputs sums = runWithBounds(
      "function (X: f32[2, 2]) -> (S) { S[i : 2] = +(X[i, j]); }", inputs());
  double cancelled = sums.bounds[0].getDouble(0);
  CHECK(cancelled > 0);
  // max picks one term and moves at most by the widest term's bound.
  ReferenceOutputs max = runWithBounds("function (X: f32[2, 2]) -> (M) {\n"
                                       "  S[i : 2] = +(X[i, j]);\n"
                                       "  M[] = >(S[i]);\n"
                                       "}",
                                       inputs());
  CHECK(max.outputs[0].getDouble(0) == 2);
  CHECK(max.bounds[0].getDouble(0) ==
        std::max(cancelled, sums.bounds[0].getDouble(1)));
  // gather copies the rows it picks with their bounds.
  ReferenceOutputs gathered = runWithBounds(
      "function (X: f32[2, 2], I: i32[3]) -> (G) {\n"
      "  S[i : 2] = +(X[i, j]);\n"
      "  G = gather(S, I);\n"
      "}",
      {floats(DType::F32, {2, 2}, {1, -1, 2, 0}), ints(DType::I32, {1, 0, 0})});
  CHECK(gathered.bounds[0].getDouble(1) == cancelled);
  CHECK(gathered.bounds[0].getDouble(2) == cancelled);
  CHECK(gathered.bounds[0].getDouble(0) == sums.bounds[0].getDouble(1));
  // scatter adds what lands on one row: a sum, bounded like a contraction's.
  ReferenceOutputs scattered = runWithBounds(
      "function (E: f32[3], I: i32[3], V: f32[2]) -> (O) {\n"
      "  O = scatter(E, I, V);\n"
      "}",
      {floats(DType::F32, {3}, {1, -1, 0.25}), ints(DType::I32, {0, 0, 1}),
       floats(DType::F32, {2}, {0, 0})});
  CHECK(scattered.outputs[0].getDouble(0) == 0);
  CHECK(scattered.bounds[0].getDouble(0) >= kU * 2);
  CHECK(scattered.bounds[0].getDouble(1) <= ulpOf(0.25, DType::F32));
}

TEST_CASE("bounds: tiny and huge f64 values keep their likely scale",
          "[compare][interp]") {
  // The squares of these errors are outside the double range: a scale kept
  // squared would underflow to 0 (allowing nothing) or overflow.
  const double u64 = std::ldexp(1.0, -53);
  for (double scale : {1e-200, 1e200}) {
    ReferenceOutputs r = runWithBounds(
        "function (X: f64[3]) -> (Y, P) {\n"
        "  Y[] = +(X[i]);\n"
        "  P[] = *(X[i] * X[i]);\n"
        "}",
        {floats(DType::F64, {3}, {scale, -scale, scale * 1e-16})});
    double sum = r.bounds[0].getDouble(0);
    CHECK(sum >= u64 * 2 * scale);
    CHECK(sum < 10 * u64 * 2 * scale);
  }
  ReferenceOutputs p =
      runWithBounds("function (X: f64[3]) -> (P) { P[] = *(X[i] * X[i]); }",
                    {floats(DType::F64, {3}, {1e-40, 1e-40, 1e-40})});
  double product = p.outputs[0].getDouble(0); // 1e-240
  CHECK(p.bounds[0].getDouble(0) >= 5 * u64 * product);
}
