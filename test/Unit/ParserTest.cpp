//===- ParserTest.cpp - Syntax trees and syntax errors (docs/language.md 3) ===//

#include "FrontendTestHelpers.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::ast;
using tilec::test::Source;

namespace {
/// Parses `text`, which must have no errors, and returns the module.
Module parseOk(Source &src) {
  Module module = parseModule(src.bufferId, src.diag);
  INFO(src.printed);
  REQUIRE(!src.diag.hadError());
  return module;
}

/// Parses `body` inside a function and returns the first error, if any.
std::string firstError(const std::string &body) {
  Source src("function (A[N], B[N], C[N], X) -> (Y) {\n" + body + "\n}");
  parseModule(src.bufferId, src.diag);
  std::vector<std::string> errors = src.errors();
  return errors.empty() ? "" : errors.front();
}

/// The expression of statement `index` of the only function.
const Expr &assigned(const Module &m, size_t index = 0) {
  return *m.functions[0].statements[index].assignment->value;
}
} // namespace

TEST_CASE("parser: function header", "[parser]") {
  Source src("function dense(A: f16[M, 64], B[], C, Alpha = -0.1, K: i32 = 2) "
             "-> (Y, Z) { Y = A; Z = B; }");
  Module m = parseOk(src);
  REQUIRE(m.functions.size() == 1);
  const Function &fn = m.functions[0];
  CHECK(fn.name == "dense");
  REQUIRE(fn.params.size() == 5);
  CHECK(fn.params[0].dtype == DType::F16);
  REQUIRE(fn.params[0].dims.size() == 2);
  CHECK(fn.params[0].dims[0].name == "M");
  CHECK(fn.params[0].dims[1].isLiteral);
  CHECK(fn.params[0].dims[1].value == 64);
  CHECK(fn.params[1].hasDims);
  CHECK(fn.params[1].dims.empty());
  CHECK(!fn.params[2].hasDims);
  REQUIRE(fn.params[3].defaultValue);
  CHECK(fn.params[3].defaultValue->isFloat);
  CHECK(fn.params[3].defaultValue->floatValue == -0.1);
  CHECK(fn.params[4].defaultValue->intValue == 2);
  CHECK(fn.outputs.size() == 2);
  CHECK(fn.statements.size() == 2);
}

TEST_CASE("parser: precedence follows C", "[parser]") {
  Source src("function (A, B, C, P, Q) -> (Y) {\n"
             "  Y = A + B * C;\n"
             "  Y = A ^ B | C;\n"
             "  Y = P ? A : Q ? B : C;\n"
             "  Y = -A << 2 < B == (C & 1);\n"
             "}");
  Module m = parseModule(src.bufferId, src.diag);
  CHECK(!src.diag.hadError());
  const Expr &sum = assigned(m, 0);
  CHECK(sum.binaryOp == BinaryOp::Add);
  CHECK(sum.operands[1]->binaryOp == BinaryOp::Mul);
  const Expr &bitOr = assigned(m, 1);
  CHECK(bitOr.binaryOp == BinaryOp::BitOr);
  CHECK(bitOr.operands[0]->binaryOp == BinaryOp::BitXor);
  const Expr &cond = assigned(m, 2);
  CHECK(cond.kind == Expr::Kind::Cond);
  CHECK(cond.operands[2]->kind == Expr::Kind::Cond);
  const Expr &eq = assigned(m, 3);
  CHECK(eq.binaryOp == BinaryOp::Eq);
  CHECK(eq.operands[0]->binaryOp == BinaryOp::Lt);
  CHECK(eq.operands[0]->operands[0]->binaryOp == BinaryOp::Shl);
  CHECK(eq.operands[1]->parenthesized);
  // Both PlaidML-compatibility warnings (9.6), and nothing else.
  unsigned warnings = 0;
  for (const RecordedDiag &d : src.diag.recorded())
    warnings += d.kind == DiagKind::Warning;
  CHECK(warnings == 2);
}

TEST_CASE("parser: contractions", "[parser]") {
  Source src(
      "function (A[M, K], B[K, N], I[N]) -> (C) {\n"
      "  [[origin(dense_1)]] [[hot]]\n"
      "  C[m, n : M, N] = +(A[m, k] * B[k, n]), k - 2 < 3 no_defract;\n"
      "  D[2i + 1 : 2 * N] ==(I[i]) default E;\n"
      "  F[] = >(A[i, j] == B[j, i] ? I[i]);\n"
      "  G[:] = +(I[-i + N/2]);\n"
      "}");
  Module m = parseOk(src);
  const auto &stmts = m.functions[0].statements;
  REQUIRE(stmts.size() == 4);
  REQUIRE(stmts[0].attributes.size() == 2);
  CHECK(stmts[0].attributes[0].name == "origin");
  CHECK(stmts[0].attributes[0].args == std::vector<std::string>{"dense_1"});
  const Contraction &c = *stmts[0].contraction;
  CHECK(c.output == "C");
  CHECK(c.outIndices.size() == 2);
  CHECK(c.outSizes.size() == 2);
  CHECK(c.agg == AggKind::Sum);
  CHECK(c.comb == CombKind::Mul);
  CHECK(c.operands.size() == 2);
  REQUIRE(c.constraints.size() == 1);
  CHECK(c.constraints[0].poly->kind == Poly::Kind::Sub);
  CHECK(c.noDefract);
  const Contraction &d = *stmts[1].contraction;
  CHECK(d.agg == AggKind::Assign);
  CHECK(d.outIndices[0]->kind == Poly::Kind::Add);
  CHECK(d.outIndices[0]->lhs->implicitMul);
  CHECK(d.defaultTensor == std::optional<std::string>("E"));
  const Contraction &f = *stmts[2].contraction;
  CHECK(f.comb == CombKind::Cond);
  CHECK(f.operands.size() == 3);
  CHECK(!f.hasColon);
  CHECK(stmts[3].contraction->hasColon);
  CHECK(stmts[3].contraction->outSizes.empty());
}

TEST_CASE("parser: multiple assignment and calls", "[parser]") {
  Source src("function f(X) -> (A, B) { A = X; B = X; }\n"
             "function main(X) -> (P, Q) { (P, Q) = f(exp(X)); }");
  Module m = parseOk(src);
  const Statement &s = m.functions[1].statements[0];
  REQUIRE(s.kind == Statement::Kind::MultiAssign);
  CHECK(s.multiAssign->names == std::vector<std::string>{"P", "Q"});
  CHECK(s.multiAssign->call->name == "f");
  CHECK(s.multiAssign->call->operands[0]->name == "exp");
}

TEST_CASE("parser: one diagnostic per rule of 3.3", "[parser]") {
  CHECK(firstError("Y = X + ;") == "expected an expression, found ';'");
  CHECK(firstError("Y = (X + 1;") == "expected ')'");
  CHECK(firstError("x = 1;") ==
        "'x' is an index-variable name; values start with an upper-case "
        "letter (or write #x)");
  CHECK(firstError("Y[i : N] = A[i];") ==
        "a contraction needs an aggregation operator: write '=(A[i])', "
        "'+(…)', '*(…)', '>(…)' or '<(…)'");
  const char *nonAccess = "only tensor accesses may appear inside an "
                          "aggregation; compute this in an elementwise "
                          "statement first";
  CHECK(firstError("Y[i : N] = +(A[i] * 2);") == nonAccess);
  CHECK(firstError("Y[i : N] = +(exp(A[i]));") == nonAccess);
  CHECK(firstError("Y[i : N] = +(A[i] - B[i]);") == nonAccess);
  CHECK(firstError("Y[i : N] = >(A[i] * B[i] ? C[i]);") ==
        "'?' in a contraction must follow '=='");
  CHECK(firstError("Y[i : N] = +(A[i]), i <= 2;") ==
        "a constraint has the form 'polynomial < bound'");
  CHECK(firstError("Y[i : N] = +(A[i]), 2 > i;") ==
        "a constraint has the form 'polynomial < bound'");
  CHECK(firstError("Y[i : N] = +(A[i + j]), j < i;") ==
        "the bound of a constraint cannot use index variable 'i'; rewrite "
        "as 'i - j - 1 < N'");
  CHECK(firstError("Y[i : N] = +(A[i + j]), j + 1 < i;") ==
        "the bound of a constraint cannot use index variable 'i'; rewrite "
        "as 'i - (j + 1) - 1 < N'");
  CHECK(firstError("Y = X + i;") ==
        "index variable 'i' can only appear in a contraction's brackets");
  CHECK(firstError("Y = A[0];") ==
        "tensors are indexed only in contractions; write 'Y[] = =(A[0])'");
  CHECK(firstError("Y[i : N] = +(A[2N]);") ==
        "only an index variable may follow a number directly; write '2*N'");
  CHECK(firstError("Y = A < B < C;") ==
        "comparisons do not chain; add parentheses");
  CHECK(firstError("Y = A == B == C;") ==
        "comparisons do not chain; add parentheses");
  CHECK(firstError("[[pid(3)]] Y = X;") ==
        "attribute arguments must be identifiers");
  CHECK(firstError("Y[i : N] = =(A[i]) default 0;") ==
        "'default' must be followed by a tensor name");
  CHECK(firstError("Y[i : N] = =(A[i]) default B default C;") ==
        "'default' is given twice");
  CHECK(firstError("Y = f(X,);") == "trailing ',' before ')'");
  CHECK(firstError("Y[i : N] = +(A[i]), i < 2,;") ==
        "trailing ',' before ';'");
  CHECK(firstError("(P, Q) = X + 1;") ==
        "the right side of '(…) =' must be a function call");
  CHECK(firstError("Y = (A < B) == C;").empty());
}

TEST_CASE("parser: header errors", "[parser]") {
  auto headerError = [](const char *text) {
    Source src(text);
    parseModule(src.bufferId, src.diag);
    std::vector<std::string> errors = src.errors();
    return errors.empty() ? std::string() : errors.front();
  };
  CHECK(headerError("function (A: f8[N]) -> (Y) { Y = A; }") ==
        "unknown element type 'f8'; expected bool, i8, i16, i32, i64, u8, "
        "u16, u32, u64, f16, bf16, f32 or f64");
  CHECK(headerError("function (X[N] = 1.0) -> (Y) { Y = X; }") ==
        "only scalar parameters ('X' or 'X[]') can have a default value");
  CHECK(headerError("function (X[N,]) -> (Y) { Y = X; }") ==
        "trailing ',' before ']'");
  CHECK(headerError("") == "expected 'function'");
  CHECK(headerError("// nothing") == "expected 'function'");
  CHECK(headerError("function (X) -> () { }") ==
        "expected an output name (a function has at least one output), "
        "found ')'");
}

TEST_CASE("parser: locations follow 9.1", "[parser]") {
  Source src("function (X) -> (Y) {\n  A = X\n  Y = A;\n}");
  parseModule(src.bufferId, src.diag);
  const RecordedDiag *error = src.first(DiagKind::Error);
  REQUIRE(error);
  CHECK(error->message == "expected ';' after the statement");
  // Just past the `X` before the gap.
  CHECK(error->line == 2);
  CHECK(error->col == 8);
}

TEST_CASE("parser: recovery reports several errors", "[parser]") {
  Source src("function (X) -> (Y) {\n  A = X + ;\n  B = X %% 2;\n"
             "  C = (X;\n  Y = X;\n}\nfunction g(Q) -> (R) { R = ; }");
  Module m = parseModule(src.bufferId, src.diag);
  CHECK(src.errors().size() == 5);
  REQUIRE(m.functions.size() == 2);
  CHECK(m.functions[0].statements.size() == 1);
}

TEST_CASE("parser: deep nesting is an error, not a crash", "[parser]") {
  std::string deep(100000, '(');
  Source src("function (X) -> (Y) { Y = " + deep + "X; }");
  parseModule(src.bufferId, src.diag);
  REQUIRE(!src.errors().empty());
  CHECK(src.errors().front().find("nested too deeply") != std::string::npos);

  std::string longSum = "X";
  for (int i = 0; i < 50000; ++i)
    longSum += " + X";
  Source sum("function (X) -> (Y) { Y = " + longSum + "; }");
  parseModule(sum.bufferId, sum.diag);
  CHECK(sum.errors().front().find("nested too deeply") != std::string::npos);

  std::string negations(100000, '-');
  Source neg("function (X[N]) -> (Y) { Y[i : N] = +(X[" + negations + "i]); }");
  parseModule(neg.bufferId, neg.diag);
  CHECK(neg.errors().front().find("nested too deeply") != std::string::npos);
}

TEST_CASE("parser: the error limit stops parsing", "[parser]") {
  std::string body;
  for (int i = 0; i < 1000; ++i)
    body += "Y = ;\n";
  Source src("function (X) -> (Y) {\n" + body + "}");
  parseModule(src.bufferId, src.diag);
  CHECK(src.diag.reachedErrorLimit());
  CHECK(src.diag.recorded().size() <= 22);
}
