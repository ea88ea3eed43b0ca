//===- ConstantTest.cpp - Bind-time constants and promotion ---------------===//
//
// Folding of weak and typed constants (docs/language.md 5.2, 5.4) and the
// result-type rule with weak constants (5.3).
//
//===----------------------------------------------------------------------===//

#include "../../lib/Frontend/Constant.h"
#include "../../lib/Frontend/TypeRules.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tilec;
using ast::BinaryOp;
using ast::UnaryOp;

static Const typedInt(DType t, int64_t v) {
  return convertConst(Const::weakInt(v), t);
}

TEST_CASE("weak integers fold exactly on 64 bits", "[constant]") {
  auto r = foldBinary(BinaryOp::Div, Const::weakInt(-7), Const::weakInt(2));
  REQUIRE(r.value);
  CHECK(r.value->i == -3);
  CHECK(r.value->isWeak());

  r = foldBinary(BinaryOp::Mul, Const::weakInt(3),
                 Const::weakInt(4611686018427387904));
  CHECK(!r.value);
  CHECK(r.error == "integer overflow in a constant expression");

  r = foldBinary(BinaryOp::Div, Const::weakInt(1), Const::weakInt(0));
  CHECK(r.error == "division by zero in a constant expression");

  r = foldBinary(BinaryOp::Div, Const::weakInt(INT64_MIN), Const::weakInt(-1));
  CHECK(!r.value);
  CHECK(!foldUnary(UnaryOp::Neg, Const::weakInt(INT64_MIN)).value);

  r = foldBinary(BinaryOp::Lt, Const::weakInt(2), Const::weakInt(3));
  REQUIRE(r.value);
  CHECK(r.value->i == 1);
  CHECK(!r.value->isFloat);

  r = foldBinary(BinaryOp::Shl, Const::weakInt(1), Const::weakInt(62));
  REQUIRE(r.value);
  CHECK(r.value->i == (int64_t(1) << 62));
  CHECK(!foldBinary(BinaryOp::Shl, Const::weakInt(1), Const::weakInt(63))
             .value);
}

TEST_CASE("weak floats fold in f64 and follow IEEE", "[constant]") {
  auto r = foldBinary(BinaryOp::Div, Const::weakFloat(1.0), Const::weakInt(0));
  REQUIRE(r.value);
  CHECK(std::isinf(r.value->f));
  r = foldBinary(BinaryOp::Add, Const::weakInt(1), Const::weakFloat(0.5));
  REQUIRE(r.value);
  CHECK(r.value->isFloat);
  CHECK(r.value->f == 1.5);
  r = foldBinary(BinaryOp::BitAnd, Const::weakFloat(1.0), Const::weakInt(1));
  CHECK(!r.value);
}

TEST_CASE("typed constants wrap in their type", "[constant]") {
  Const x = typedInt(DType::I8, 100);
  auto r = foldBinary(BinaryOp::Mul, x, typedInt(DType::I8, 2));
  REQUIRE(r.value);
  CHECK(r.value->i == -56); // 200 wraps to -56
  CHECK(*r.value->type == DType::I8);

  Const u = typedInt(DType::U8, 0);
  r = foldBinary(BinaryOp::Sub, u, typedInt(DType::U8, 1));
  REQUIRE(r.value);
  CHECK(r.value->i == 255);

  r = foldBinary(BinaryOp::Lt, typedInt(DType::I32, 1),
                 typedInt(DType::I32, 2));
  REQUIRE(r.value);
  CHECK(*r.value->type == DType::Bool);
  CHECK(r.value->i == 1);

  // bool negation gives i32 (5.3 step 3).
  auto n = foldUnary(UnaryOp::Neg, typedInt(DType::Bool, 1));
  REQUIRE(n.value);
  CHECK(*n.value->type == DType::I32);
  CHECK(n.value->i == -1);
}

TEST_CASE("conversions follow 5.4", "[constant]") {
  CHECK(convertConst(Const::weakFloat(-2.7), DType::I32).i == -2);
  CHECK(convertConst(Const::weakInt(300), DType::U8).i == 44);
  CHECK(convertConst(Const::weakInt(-1), DType::U16).i == 65535);
  CHECK(convertConst(Const::weakFloat(0.5), DType::Bool).i == 1);
  CHECK(convertConst(Const::weakFloat(0.1), DType::F32).f == double(0.1f));
  CHECK(convertConst(Const::weakFloat(65519.0), DType::F16).f == 65504.0);
  CHECK(std::isinf(convertConst(Const::weakFloat(70000.0), DType::F16).f));
  CHECK(convertConst(Const::weakFloat(1.0 / 3), DType::BF16).f == 0.333984375);
}

TEST_CASE("default types of weak constants", "[constant]") {
  CHECK(Const::weakInt(5).defaultType() == DType::I32);
  CHECK(Const::weakInt(int64_t(1) << 40).defaultType() == DType::I64);
  CHECK(Const::weakFloat(0.5).defaultType() == DType::F32);
  CHECK(fitsIn(255, DType::U8));
  CHECK(!fitsIn(256, DType::U8));
  CHECK(!fitsIn(-1, DType::U64));
  CHECK(fitsIn(-128, DType::I8));
}

TEST_CASE("float text is short and round-trips", "[constant]") {
  CHECK(floatText(20.0) == "20.0");
  CHECK(floatText(0.1) == "0.1");
  CHECK(floatText(double(0.1f), DType::F32) == "0.1");
  CHECK(floatText(1e-5) == "1e-05");
  CHECK(floatText(-0.5) == "-0.5");
}

/// The result type of `a op b` for a tensor of type `t` and a constant.
static TypeDecision withConst(DType t, Const c, bool cmp = false) {
  TypeInput ins[2];
  ins[0].tensorType = t;
  ins[1].constant = &c;
  return decideType(ins, cmp);
}

static DType tensors(DType a, DType b) {
  TypeInput ins[2];
  ins[0].tensorType = a;
  ins[1].tensorType = b;
  return decideType(ins, false).type;
}

TEST_CASE("the promotion table of 5.3", "[types]") {
  CHECK(withConst(DType::I8, Const::weakInt(2)).type == DType::I8);
  CHECK(withConst(DType::U8, Const::weakInt(1)).type == DType::U8);
  CHECK(withConst(DType::F16, Const::weakFloat(0.5)).type == DType::F16);
  CHECK(withConst(DType::I32, Const::weakFloat(0.5)).type == DType::F32);
  CHECK(withConst(DType::Bool, Const::weakInt(1)).type == DType::I32);
  CHECK(tensors(DType::I32, DType::U32) == DType::I64);
  CHECK(tensors(DType::F16, DType::BF16) == DType::F32);
  CHECK(tensors(DType::U8, DType::F16) == DType::F16);
  CHECK(tensors(DType::Bool, DType::Bool) == DType::Bool);
  CHECK(tensors(DType::I8, DType::U8) == DType::I16);
  CHECK(tensors(DType::I64, DType::U64) == DType::I64);

  TypeDecision d = withConst(DType::I8, Const::weakInt(300));
  CHECK(d.error == "constant 300 does not fit in i8");
  // In a comparison the constant is compared by value instead.
  d = withConst(DType::I8, Const::weakInt(300), true);
  CHECK(d.error.empty());
  CHECK(d.type == DType::I32);
  // Typed constants take part like tensors.
  d = withConst(DType::I8, typedInt(DType::I16, 300));
  CHECK(d.type == DType::I16);
}

TEST_CASE("broadcasting aligns on the right", "[types]") {
  int64_t a = 0, b = 0;
  auto s = broadcastShapes({4, 1, 3}, {5, 1}, a, b);
  REQUIRE(s);
  CHECK(*s == std::vector<int64_t>{4, 5, 3});
  CHECK(!broadcastShapes({2, 3}, {4}, a, b));
  CHECK(a == 3);
  CHECK(b == 4);
  CHECK(elementCount({int64_t(1) << 40, int64_t(1) << 40}) == -1);
}
