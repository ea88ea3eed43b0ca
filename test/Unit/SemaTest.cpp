//===- SemaTest.cpp - Binding (docs/language.md 4-8, 9.3-9.5) -------------===//
//
// Parses small programs, binds their entry function and inspects the typed
// program: types, shapes, ranges, statements and diagnostics.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestHelpers.h"

#include "tilec/Frontend/Sema.h"

#include <catch2/catch.hpp>

using namespace tilec;
using tilec::test::Source;

namespace {

/// A bound program together with its source and diagnostics.
struct Bound {
  std::unique_ptr<Source> src;
  ast::Module module;
  std::optional<typed::Program> program;

  std::vector<std::string> errors() const { return src->errors(); }
  std::string firstError() const {
    auto e = errors();
    return e.empty() ? std::string() : e.front();
  }
  /// The value named `name` (the last one with that name).
  const typed::Value *value(const std::string &name) const {
    const typed::Value *found = nullptr;
    for (const typed::Value &v : program->values)
      if (v.name == name)
        found = &v;
    return found;
  }
  std::string typeOf(const std::string &name) const {
    const typed::Value *v = value(name);
    return v ? v->type.str() : "<none>";
  }
  const typed::Statement *statementOf(const std::string &label) const {
    for (const typed::Statement &st : program->statements)
      if (st.label == label)
        return &st;
    return nullptr;
  }
  std::string printed() const {
    std::string s;
    llvm::raw_string_ostream os(s);
    typed::printProgram(*program, os);
    return s;
  }
};

/// Parses `text` and binds its entry with the given -D flags.
Bound bindSource(const std::string &text, std::vector<std::string> defines = {},
           const std::string &entry = "") {
  Bound b;
  b.src = std::make_unique<Source>(text);
  b.module = tilec::test::parseAndCheck(*b.src);
  INFO(b.src->printed);
  REQUIRE(!b.src->diag.hadError());
  const ast::Function *fn = findEntry(b.module, entry);
  REQUIRE(fn);
  BindOptions options;
  for (const std::string &d : defines) {
    auto parsed = parseDefine(d);
    REQUIRE(static_cast<bool>(parsed));
    options.defines.push_back(*parsed);
  }
  b.program = bindProgram(b.module, *fn, options, b.src->diag);
  CHECK(b.program.has_value() == !b.src->diag.hadError());
  return b;
}

} // namespace

TEST_CASE("parseDefine accepts the forms of 4.4", "[sema][define]") {
  auto n = parseDefine("N=64");
  REQUIRE(static_cast<bool>(n));
  CHECK(n->kind == Define::Kind::Int);
  CHECK(n->intValue == 64);
  CHECK(n->text == "-D N=64");

  auto x = parseDefine("X=-0.5");
  REQUIRE(static_cast<bool>(x));
  CHECK(x->kind == Define::Kind::Float);
  CHECK(x->floatValue == -0.5);

  auto t = parseDefine("X=f16[2,3]");
  REQUIRE(static_cast<bool>(t));
  CHECK(t->kind == Define::Kind::TypeShape);
  CHECK(t->dtype == DType::F16);
  CHECK(t->shape == std::vector<int64_t>{2, 3});

  auto s = parseDefine("X=[8]");
  REQUIRE(static_cast<bool>(s));
  CHECK(!s->dtype);
  CHECK(s->shape == std::vector<int64_t>{8});

  auto r = parseDefine("X=[]");
  REQUIRE(static_cast<bool>(r));
  CHECK(r->kind == Define::Kind::TypeShape);
  CHECK(r->shape.empty());

  for (const char *bad : {"N", "=3", "N=", "N=abc", "N=1.5.2", "X=f8[2]",
                          "X=f32[2,", "X=[0]", "N=99999999999999999999",
                          "X=[a]", "9N=3"}) {
    auto e = parseDefine(bad);
    INFO(bad);
    CHECK(!e);
    if (!e)
      llvm::consumeError(e.takeError());
  }
}

TEST_CASE("findEntry picks --entry, then main, then the last", "[sema]") {
  Source src("function f(X) -> (Y) { Y = X; }\n"
             "function main(X) -> (Y) { Y = X; }\n"
             "function g(X) -> (Y) { Y = X; }\n");
  ast::Module m = tilec::test::parseAndCheck(src);
  REQUIRE(!src.diag.hadError());
  CHECK(findEntry(m, "")->name == "main");
  CHECK(findEntry(m, "g")->name == "g");
  CHECK(findEntry(m, "nope") == nullptr);
  CHECK(functionNames(m) == std::vector<std::string>{"f", "main", "g"});
}

TEST_CASE("a matrix product binds sizes, types and ranges", "[sema]") {
  auto b = bindSource("function mm(A[M, K], B[K, 64]) -> (C) {\n"
                "  C[m, n : M, 64] = +(A[m, k] * B[k, n]);\n}\n",
                {"M=4", "K=5"});
  REQUIRE(b.program);
  CHECK(b.program->inputs.size() == 2);
  CHECK(b.typeOf("A") == "f32[4, 5]");
  CHECK(b.typeOf("B") == "f32[5, 64]");
  CHECK(b.typeOf("C") == "f32[4, 64]");
  const typed::Statement *st = b.statementOf("C");
  REQUIRE(st);
  REQUIRE(st->contraction);
  const typed::Contraction &c = *st->contraction;
  REQUIRE(c.vars.size() == 3);
  CHECK(c.vars[0].name == "m");
  CHECK(c.vars[0].hi == 3);
  CHECK(c.vars[1].hi == 63);
  CHECK(c.vars[2].name == "k");
  CHECK(c.vars[2].hi == 4);
  CHECK(c.combineType == DType::F32);
}

TEST_CASE("padding is expressed by accesses, and ranges are exact", "[sema]") {
  auto b = bindSource("function (I[N]) -> (O) {\n"
                "  O[x : N] = +(I[x + k - 1]), k < 3;\n}\n",
                {"N=5"});
  REQUIRE(b.program);
  const typed::Contraction &c = *b.statementOf("O")->contraction;
  REQUIRE(c.vars.size() == 2);
  CHECK(c.vars[1].name == "k");
  CHECK(c.vars[1].lo == 0);
  CHECK(c.vars[1].hi == 2);
  CHECK(c.constraints.size() == 1);
  CHECK(c.constraints[0].bound == 3);
}

TEST_CASE("elementwise statements get explicit casts", "[sema]") {
  auto b = bindSource("function (X: i8[3], H: f16[3]) -> (A, B, C) {\n"
                "  A = X * 2;\n  B = X + H;\n  C = X < 0;\n}\n");
  REQUIRE(b.program);
  CHECK(b.typeOf("A") == "i8[3]");
  CHECK(b.typeOf("B") == "f16[3]");
  CHECK(b.typeOf("C") == "bool[3]");
  const typed::Expr &e = *b.statementOf("B")->expr;
  CHECK(e.op == typed::ExprOp::Add);
  REQUIRE(e.args.size() == 2);
  CHECK(e.args[0]->op == typed::ExprOp::Cast);
  CHECK(e.args[0]->type.dtype == DType::F16);
  CHECK(e.args[1]->op == typed::ExprOp::Ref);
}

TEST_CASE("constants fold, and sizes are computed from them", "[sema]") {
  auto b = bindSource("function (I[N, H]) -> (O) {\n"
                "  S = 2;\n  Ho = (H + S - 1) / S;\n"
                "  Pad = max(0, (Ho - 1) * S + 3 - H) / 2;\n"
                "  O[n, y : N, Ho] = >(I[n, S*y + k - Pad]), k < 3;\n}\n",
                {"N=1", "H=7"});
  REQUIRE(b.program);
  CHECK(b.typeOf("O") == "f32[1, 4]");
}

TEST_CASE("a constant output becomes a rank-0 tensor", "[sema]") {
  auto b = bindSource("function (X[N]) -> (Y, Z) {\n  Y = N * 2;\n  Z = 0.5;\n}\n",
                {"N=3"});
  REQUIRE(b.program);
  CHECK(b.typeOf("Y") == "i32[]");
  CHECK(b.typeOf("Z") == "f32[]");
  CHECK(b.program->outputs.size() == 2);
}

TEST_CASE("calls are inlined with fresh names and sizes", "[sema][call]") {
  auto b = bindSource(
      "function bias_relu(X[R, C], B[C]) -> (Y) { Y = relu(X + B); }\n"
      "function main(H[N, 128], B1[128], G[N, 10], B2[10]) -> (P, Q) {\n"
      "  P = bias_relu(H, B1);\n  Q = bias_relu(G, B2);\n}\n",
      {"N=2"});
  REQUIRE(b.program);
  CHECK(b.typeOf("bias_relu.1.Y") == "f32[2, 128]");
  CHECK(b.typeOf("bias_relu.2.Y") == "f32[2, 10]");
  CHECK(b.typeOf("P") == "f32[2, 128]");
}

TEST_CASE("multi-assignment takes several outputs", "[sema][call]") {
  auto b = bindSource("function stats(X[N]) -> (Mean, Max) {\n"
                "  S[] = +(X[i]);\n  Mean = S / N;\n  Max[] = >(X[i]);\n}\n"
                "function main(X[4]) -> (A, B) { (A, B) = stats(X); }\n");
  REQUIRE(b.program);
  CHECK(b.typeOf("A") == "f32[]");
  CHECK(b.typeOf("B") == "f32[]");
}

TEST_CASE("errors in a callee carry call notes", "[sema][call]") {
  auto b = bindSource("function g(A[N]) -> (Y) { Y[i : N] = +(A[i * i]); }\n"
                "function main(X[3]) -> (P) { P = g(X); }\n");
  CHECK(!b.program);
  CHECK(b.firstError() == "index expression is not affine: 'i * i' "
                          "multiplies two index variables");
  bool sawNote = false;
  for (const RecordedDiag &d : b.src->diag.recorded())
    if (d.kind == DiagKind::Note && d.message == "in call to 'g' here") {
      sawNote = true;
      CHECK(d.line == 2);
    }
  CHECK(sawNote);
}

TEST_CASE("binding errors of 9.3", "[sema][errors]") {
  CHECK(bindSource("function (A[M, K]) -> (Y) { Y = A; }", {"M=2"}).firstError() ==
        "size 'K' (dimension 1 of 'A') is not bound; pass -D K=<n>");
  CHECK(bindSource("function (X[N]) -> (Y) { Y = X; }", {"N=0"}).firstError() ==
        "size 'N' must be at least 1, got 0");
  CHECK(bindSource("function (P[2, 3], Q[4]) -> (Y) { Y = P + Q; }").firstError() ==
        "cannot broadcast 'P' [2, 3] with 'Q' [4]: sizes 3 and 4 differ");
  CHECK(bindSource("function (X: i8[2]) -> (Y) { Y = X * 300; }").firstError() ==
        "constant 300 does not fit in i8");
  CHECK(bindSource("function (F[2]) -> (Y) { Y = F & 1; }").firstError() ==
        "'&' needs integer or bool operands, got f32");
  CHECK(bindSource("function (X[N]) -> (P) { P = N / (N - N); }", {"N=2"})
            .firstError() == "division by zero in a constant expression");
  CHECK(bindSource("function (X[2]) -> (Y) { T = tuple(X, X); Y = T + 1; }")
            .firstError() == "'T' is a tuple; use element(T, <k>)");
  auto huge = bindSource("function (X[N, N, N]) -> (Y) { Y = X; }", {"N=100000"});
  CHECK(huge.firstError().find("is too large") != std::string::npos);
}

TEST_CASE("a define that names nothing is a warning", "[sema]") {
  auto b = bindSource("function main(X[N]) -> (Y) { Y = X; }", {"N=2", "Q=3"});
  REQUIRE(b.program);
  const RecordedDiag *w = b.src->first(DiagKind::Warning);
  REQUIRE(w);
  CHECK(w->message == "'-D Q=3' names no size or parameter of 'main'; ignored");
}

TEST_CASE("contraction errors of 9.4", "[sema][errors]") {
  CHECK(bindSource("function (M[N, 2]) -> (O) { O[i : N] = =(M[i, j]); }", {"N=3"})
            .firstError() == "'=' writes O[0] more than once: (i = 0, j = 0) "
                             "and (i = 0, j = 1)");
  CHECK(bindSource("function (M[N, N]) -> (D) { D[i : N] = =(M[i, j]), i - j < 1; }",
             {"N=3"})
            .errors()
            .empty());
  CHECK(bindSource("function (I[N]) -> (O) { O[] = +(I[i - j]); }", {"N=3"})
            .firstError() ==
        "index variable 'i' is unbounded: no access or constraint limits it");
  CHECK(bindSource("function (I[8]) -> (O) { O[i : 4] = +(I[i + 10]); }")
            .firstError() ==
        "no index values satisfy this contraction: 'i' has no valid value");
  CHECK(bindSource("function (A[N]) -> (O) { O[i, j] = +(A[i]); }", {"N=3"})
            .firstError() == "output 'O' needs a size for each index: write "
                             "'O[i, j : <size>, <size>]'");
  CHECK(bindSource("function (A[N, N, N]) -> (O) { O[i : N] = +(A[i, i]); }",
             {"N=3"})
            .firstError() ==
        "'A' has 3 dimensions but is accessed with 2 indices");
}

TEST_CASE("builtins of section 8", "[sema][builtins]") {
  auto b = bindSource("function (X[2, 3], I: i32[4], S: u32[3, 2048]) -> "
                "(R, Sh, Ix, G, V, St, F, M) {\n"
                "  R = reshape(X, 6);\n  Sh = shape(X);\n  Ix = index(X, 1);\n"
                "  G = gather(X, I);\n  H = prng_step(S, 2, 2);\n"
                "  V = prng_value(H);\n  St = prng_state(H);\n"
                "  F = as_float(I, 16);\n  M = max(X, 1);\n}\n");
  REQUIRE(b.program);
  CHECK(b.typeOf("R") == "f32[6]");
  CHECK(b.typeOf("Sh") == "i32[2]");
  CHECK(b.typeOf("Ix") == "i32[2, 3]");
  CHECK(b.typeOf("G") == "f32[4, 3]");
  CHECK(b.typeOf("V") == "f32[2, 2]");
  CHECK(b.typeOf("St") == "u32[3, 2048]");
  CHECK(b.typeOf("F") == "f16[4]");
  CHECK(b.typeOf("M") == "f32[2, 3]");

  CHECK(bindSource("function (X[2, 3]) -> (Y) { Y = reshape(X, 5); }").firstError() ==
        "cannot reshape 'X' (6 elements) to [5] (5 elements)");
  CHECK(bindSource("function (X[2]) -> (Y) { Y = as_float(X, 8); }").firstError() ==
        "as_float takes a width of 16, 32 or 64, not 8");
  CHECK(bindSource("function (X[N]) -> (Y) { A = assert_even(mod(N, 2) == 0); "
             "Y = X; }",
             {"N=5"})
            .firstError() == "assertion 'assert_even' failed");
}

TEST_CASE("softmax expands to real contractions", "[sema][builtins]") {
  auto b = bindSource("function (X[2, 3]) -> (Y) { Y = builtin_softmax(X, 2, 3); }");
  REQUIRE(b.program);
  unsigned contractions = 0;
  for (const typed::Statement &st : b.program->statements)
    contractions += st.kind == typed::Statement::Kind::Contraction;
  CHECK(contractions == 2);
  CHECK(b.typeOf("Y") == "f32[2, 3]");
}

TEST_CASE("printProgram shows inputs, statements and ranges", "[sema][print]") {
  auto b = bindSource("function (A[2, 3]) -> (S) { S[j : 3] = +(A[i, j]); }");
  REQUIRE(b.program);
  std::string out = b.printed();
  CHECK(out.find("input A: f32[2, 3]") != std::string::npos);
  CHECK(out.find("S: f32[3] = contraction [j] +(A[i, j])") !=
        std::string::npos);
  CHECK(out.find("index i in [0, 1]") != std::string::npos);
  CHECK(out.find("output S: f32[3]") != std::string::npos);
}

TEST_CASE("shape builtins, scatter and tuples", "[sema][builtins]") {
  auto b = bindSource("function (X[2, 3], E[4, 3], I: u8[4], V[5]) -> "
                "(R1, R2, S, T, K) {\n"
                "  R1 = simple_reduce(X, 3);\n  R2 = simple_reduce(X, 2, 1);\n"
                "  S = scatter(E, I, V);\n"
                "  P = tuple(X, 7);\n  T = element(P, 0);\n"
                "  K = element(P, 1) * 2;\n}\n");
  REQUIRE(b.program);
  CHECK(b.typeOf("R1") == "f32[3]");
  CHECK(b.typeOf("R2") == "f32[2, 1]");
  CHECK(b.typeOf("S") == "f32[5, 3]");
  CHECK(b.typeOf("T") == "f32[2, 3]");
  CHECK(b.typeOf("K") == "i32[]");
  const typed::Contraction &c = *b.statementOf("R2")->contraction;
  REQUIRE(c.outIndices.size() == 2);
  CHECK(c.outIndices[1].isConstant());

  CHECK(bindSource("function (X[2, 3]) -> (Y) { Y = simple_reduce(X, 4); }")
            .firstError() ==
        "simple_reduce: [4] does not broadcast to 'X' [2, 3]");
  CHECK(bindSource("function (X[2]) -> (Y) { T = tuple(X); Y = element(T, 1); }")
            .firstError() == "element 1 is out of range for a tuple of 1 values");
}

TEST_CASE("a constant condition picks a branch without binding the other",
          "[sema]") {
  auto b = bindSource("function (X: f16[2, 3], N) -> (A, B) {\n"
                "  A = N > 2 ? 1 : X;\n  B = N > 2 ? 1 : N / (N - N);\n}\n",
                {"N=3"});
  REQUIRE(b.program);
  CHECK(b.typeOf("A") == "f16[2, 3]");
  CHECK(b.typeOf("B") == "i32[]");
}

TEST_CASE("deep nesting is an error, never a crash", "[sema]") {
  std::string expr = "X";
  for (int k = 0; k < 150; ++k)
    expr = "exp(" + expr + ")";
  CHECK(bindSource("function (X[2]) -> (Y) { Y = " + expr + "; }").program);
  // Nesting accumulates through calls inside expressions.
  std::string outer = "f(X)";
  for (int k = 0; k < 150; ++k)
    outer = "exp(" + outer + ")";
  auto b = bindSource("function f(X) -> (Y) { Y = " + expr + "; }\n"
                      "function main(X[2]) -> (Y) { Y = " + outer + "; }");
  CHECK(!b.program);
  CHECK(b.firstError().find("nested too deeply") != std::string::npos);
}
