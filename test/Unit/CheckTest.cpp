//===- CheckTest.cpp - Phase-1 checks (docs/language.md 1.3, 4, 9.3, 9.5) -===//

#include "FrontendTestHelpers.h"

#include "tilec/Frontend/Builtins.h"

#include <catch2/catch.hpp>

using namespace tilec;
using tilec::test::Source;

namespace {
/// The errors of parsing and checking `text` (the parse must succeed).
std::vector<std::string> checkErrors(const std::string &text) {
  Source src(text);
  ast::Module module = parseModule(src.bufferId, src.diag);
  INFO(src.printed);
  REQUIRE(!src.diag.hadError());
  bool ok = checkModule(module, src.diag);
  CHECK(ok == src.errors().empty());
  return src.errors();
}

/// The notes recorded while checking `text`.
std::vector<std::string> checkNotes(const std::string &text) {
  Source src(text);
  tilec::test::parseAndCheck(src);
  std::vector<std::string> notes;
  for (const RecordedDiag &d : src.diag.recorded())
    if (d.kind == DiagKind::Note)
      notes.push_back(d.message);
  return notes;
}

using Errors = std::vector<std::string>;
} // namespace

TEST_CASE("check: a correct file passes", "[check]") {
  CHECK(checkErrors(
            "function bias_relu(X[R, C], B[C]) -> (Y) { Y = relu(X + B); }\n"
            "function stats(X[N]) -> (Mean, Max) {\n"
            "  S[] = +(X[i]); Mean = S / N; Max[] = >(X[i]);\n"
            "}\n"
            "function main(I[B, 784], W1[784, 128], B1[128], A[N, N]) -> "
            "(P, Mu, Mx) {\n"
            "  H1[b, j : B, 128] = +(I[b, k] * W1[k, j]);\n"
            "  P = bias_relu(H1, B1);\n"
            "  (Mu, Mx) = stats(reshape(P, B * 128));\n"
            "  Ok = assert_square(match(N, N));\n"
            "}")
            .empty());
}

TEST_CASE("check: names defined once and before use", "[check]") {
  CHECK(checkErrors("function (X) -> (Y) { Y = Xs + 1; }") ==
        Errors{"use of undefined name 'Xs'"});
  CHECK(checkNotes("function (X) -> (Y) { Y = Xs + 1; }") ==
        Errors{"did you mean 'X'?"});
  CHECK(checkErrors("function (X) -> (Y) { A = B; B = X; Y = A; }") ==
        Errors{"'B' is used before its definition"});
  CHECK(checkErrors("function (X[N]) -> (O) { O[i : N] = +(O[i] * X[i]); }") ==
        Errors{"'O' is used in its own definition"});
  CHECK(checkErrors("function (X[N]) -> (Y) { X = 2 * X; Y = X; }") ==
        Errors{"redefinition of 'X'"});
  CHECK(checkErrors("function (I[N, C]) -> (O) { C = I; O = C; }") ==
        Errors{"redefinition of 'C'"});
  CHECK(checkNotes("function (I[N, C]) -> (O) { C = I; O = C; }") ==
        Errors{"'C' is the size of dimension 1 of 'I'"});
  // A repeated size name is an equality requirement, not a redefinition.
  CHECK(checkErrors("function (A[N, N], B[N]) -> (Y) { Y = A + B; }").empty());
  // Names inside polynomials, bounds and `default` are uses.
  CHECK(checkErrors("function (X[N]) -> (Y) {\n"
                    "  Y[i : N] = =(X[i + Off]), i < Lim default D;\n"
                    "}") == Errors{"use of undefined name 'Off'",
                                   "use of undefined name 'Lim'",
                                   "use of undefined name 'D'"});
}

TEST_CASE("check: output lists", "[check]") {
  CHECK(checkErrors("function (X) -> (Y) { Z = X; }") ==
        Errors{"output 'Y' is never defined"});
  CHECK(checkErrors("function (X) -> (X) { }") ==
        Errors{"output 'X' is a parameter; outputs are computed in the body "
               "(write 'Y = X;')"});
  CHECK(checkErrors("function (X) -> (Y, Y) { Y = X; }") ==
        Errors{"'Y' is listed twice as an output"});
}

TEST_CASE("check: functions and calls", "[check]") {
  CHECK(checkErrors("function (X) -> (Y) { Y = softmax(X); }") ==
        Errors{"unknown function 'softmax'"});
  CHECK(checkNotes("function (X) -> (Y) { Y = softmax(X); }") ==
        Errors{"did you mean 'builtin_softmax'?"});
  CHECK(checkErrors("function (X) -> (Y) { Y = Exp(X); }") ==
        Errors{"unknown function 'Exp'"});
  CHECK(checkErrors("function (X) -> (Y) { Y = #exp(X); }").empty());
  CHECK(checkErrors("function (X) -> (Y) { Y = pow(X); }") ==
        Errors{"'pow' takes 2 arguments, got 1"});
  CHECK(checkErrors("function (X) -> (Y) { Y = reshape(); }") ==
        Errors{"'reshape' takes at least 1 argument, got 0"});
  CHECK(checkErrors("function f(A, B, Alpha = 1) -> (R) { R = A; }\n"
                    "function (X) -> (Y) { Y = f(X); }") ==
        Errors{"'f' takes 2 to 3 arguments, got 1"});
  CHECK(checkErrors("function f(X) -> (Y) { Y = X; }\n"
                    "function f(X) -> (Y) { Y = X; }") ==
        Errors{"redefinition of function 'f'"});
  CHECK(checkErrors("function exp(X) -> (Y) { Y = X; }") ==
        Errors{"'exp' is a builtin function and cannot be redefined"});
  CHECK(checkErrors("function (X) -> (Y) { Y = X; }\n"
                    "function main(X) -> (Y) { Y = X; }") ==
        Errors{"only the last function of a file may be unnamed"});
  CHECK(checkErrors("function f(X) -> (Y) { Y = g(X); }\n"
                    "function g(X) -> (Y) { Y = f(X); }") ==
        Errors{"recursive call: 'f' calls 'g', which calls 'f'"});
  CHECK(checkErrors("function f(X) -> (Y) { Y = f(X); }") ==
        Errors{"recursive call: 'f' calls 'f'"});
  CHECK(checkErrors("function f(X) -> (A, B) { A = X; B = X; }\n"
                    "function (X) -> (Y) { (A, B, C) = f(X); Y = A; }") ==
        Errors{"'f' has 2 outputs but 3 names are given"});
  CHECK(checkErrors("function f(X) -> (A, B) { A = X; B = X; }\n"
                    "function (X) -> (Y) { Y = f(X) + 1; }") ==
        Errors{"'f' has 2 outputs; use '(A, B) = f(…);'"});
}

TEST_CASE("builtins: the table of section 8", "[check]") {
  const BuiltinInfo *pow = lookupBuiltin("pow");
  REQUIRE(pow);
  CHECK(pow->acceptsArgCount(2));
  CHECK(!pow->acceptsArgCount(3));
  const BuiltinInfo *reshape = lookupBuiltin("reshape");
  REQUIRE(reshape);
  CHECK(reshape->acceptsArgCount(7));
  CHECK(!reshape->isConstArg(0));
  CHECK(reshape->isConstArg(3));
  const BuiltinInfo *assertEven = lookupBuiltin("assert_even");
  REQUIRE(assertEven);
  CHECK(assertEven->isAssert());
  CHECK(assertEven->isConstArg(0));
  CHECK(!lookupBuiltin("assert_"));
  CHECK(!lookupBuiltin("softmax"));
  CHECK(isBuiltinFunction("as_bfloat"));
  CHECK(suggestName("Xs", {"X", "Y"}) == "X");
  CHECK(suggestName("N", {"X"}).empty());
  CHECK(suggestName("sigmod", builtinNames()) == "sigmoid");
}
