//===- TensorTest.cpp - Host tensors and float conversions ----------------===//

#include "tilec/Support/Tensor.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace tilec;

TEST_CASE("TensorType prints and counts", "[tensor]") {
  TensorType t{DType::F32, {2, 3}};
  CHECK(t.str() == "f32[2, 3]");
  CHECK(t.numElements() == 6);
  CHECK(TensorType{DType::Bool, {}}.str() == "bool[]");
  CHECK(TensorType{DType::Bool, {}}.numElements() == 1);
  CHECK(checkedNumElements({4, 5}) == 20);
  CHECK(checkedNumElements({int64_t(1) << 40, int64_t(1) << 40}) == -1);
  CHECK(checkedNumElements({-1}) == -1);
}

TEST_CASE("binary16 conversions round to nearest even", "[tensor]") {
  CHECK(floatToHalf(1.0f) == 0x3C00);
  CHECK(floatToHalf(-2.0f) == 0xC000);
  CHECK(floatToHalf(65504.0f) == 0x7BFF);
  CHECK(floatToHalf(65519.0f) == 0x7BFF);
  CHECK(floatToHalf(65520.0f) == 0x7C00); // tie rounds to even: infinity
  CHECK(floatToHalf(-0.0f) == 0x8000);
  CHECK(floatToHalf(std::ldexp(1.0f, -24)) == 0x0001); // least subnormal
  CHECK(floatToHalf(std::ldexp(1.0f, -25)) == 0x0000); // tie to even
  CHECK(floatToHalf(std::ldexp(1.5f, -25)) == 0x0001);
  CHECK(floatToHalf(std::ldexp(1.0f, -14)) == 0x0400); // least normal
  CHECK(floatToHalf(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);
  CHECK(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);
  CHECK(floatToHalf(std::numeric_limits<float>::infinity()) == 0x7C00);
  uint16_t nan = floatToHalf(std::nanf(""));
  CHECK((nan & 0x7C00) == 0x7C00);
  CHECK((nan & 0x03FF) != 0);
  CHECK(std::isnan(halfToFloat(nan)));
  CHECK(halfToFloat(0x0001) == std::ldexp(1.0f, -24));
  CHECK(halfToFloat(0x7BFF) == 65504.0f);
  CHECK(std::isinf(halfToFloat(0xFC00)));
  // Every finite half survives a round trip.
  for (uint32_t h = 0; h < 0x10000; ++h)
    if ((h & 0x7C00) != 0x7C00)
      REQUIRE(floatToHalf(halfToFloat(h)) == h);
}

TEST_CASE("double to half rounds once", "[tensor]") {
  // 1 + 2^-11 + 2^-40 is just above the tie; via f32 it would be the tie.
  double v = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  CHECK(doubleToHalf(v) == 0x3C01);
  CHECK(roundToFloatType(v, DType::F16) == 1.0 + std::ldexp(1.0, -10));
}

TEST_CASE("bfloat16 conversions", "[tensor]") {
  CHECK(floatToBFloat(1.0f) == 0x3F80);
  CHECK(floatToBFloat(1.0f + std::ldexp(1.0f, -8)) == 0x3F80);
  CHECK(floatToBFloat(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3F82);
  CHECK(floatToBFloat(std::numeric_limits<float>::max()) == 0x7F80);
  CHECK(std::isnan(bfloatToFloat(floatToBFloat(std::nanf("")))));
  CHECK(bfloatToFloat(0x0001) == std::ldexp(1.0f, -133)); // subnormal
  for (uint32_t b = 0; b < 0x10000; ++b)
    if ((b & 0x7F80) != 0x7F80)
      REQUIRE(floatToBFloat(bfloatToFloat(b)) == b);
}

TEST_CASE("roundToFloatType and integer conversions", "[tensor]") {
  CHECK(roundToFloatType(0.1, DType::F32) == double(0.1f));
  CHECK(roundToFloatType(0.1, DType::F64) == 0.1);
  CHECK(roundToFloatType(0.1, DType::BF16) == double(bfloatToFloat(0x3DCD)));
  CHECK(integerToFloatType(INT64_MAX, false, DType::F32) ==
        std::ldexp(1.0, 63));
  CHECK(integerToFloatType(2049, false, DType::F16) == 2048.0);
  CHECK(integerToFloatType(2051, false, DType::F16) == 2052.0);
  CHECK(integerToFloatType(-1, true, DType::F64) == std::ldexp(1.0, 64));
  CHECK(integerToFloatType(INT64_MIN, false, DType::BF16) ==
        -std::ldexp(1.0, 63));
  CHECK(truncateToInt64(-2.9) == -2);
  CHECK(truncateToInt64(std::nan("")) == 0);
  CHECK(uint64_t(truncateToInt64(std::ldexp(1.0, 63))) == uint64_t(1) << 63);
  CHECK(normalizeInteger(300, DType::I8) == 44);
  CHECK(normalizeInteger(-1, DType::U16) == 65535);
  CHECK(normalizeInteger(2, DType::Bool) == 1);
}

TEST_CASE("element access follows the conversion rules", "[tensor]") {
  Tensor i8(TensorType{DType::I8, {3}});
  i8.setInt(0, 300);
  i8.setDouble(1, -1.7);
  i8.setDouble(2, 127.9);
  CHECK(i8.getInt(0) == 44);
  CHECK(i8.getInt(1) == -1);
  CHECK(i8.getDouble(2) == 127.0);

  Tensor u8(TensorType{DType::U8, {1}});
  u8.setDouble(0, -1.0);
  CHECK(u8.getInt(0) == 255);

  Tensor b(TensorType{DType::Bool, {3}});
  b.setDouble(0, 0.5);
  b.setDouble(1, std::nan(""));
  b.setInt(2, 0);
  CHECK(b.getInt(0) == 1);
  CHECK(b.getInt(1) == 1);
  CHECK(b.getInt(2) == 0);
  CHECK(b.data[0] == 1);

  Tensor u64(TensorType{DType::U64, {1}});
  u64.setUInt(0, ~uint64_t(0));
  CHECK(u64.getInt(0) == -1);
  CHECK(u64.getDouble(0) == std::ldexp(1.0, 64));

  Tensor f32(TensorType{DType::F32, {2}});
  f32.setUInt(0, ~uint64_t(0));
  f32.setDouble(1, -2.75);
  CHECK(f32.getDouble(0) == std::ldexp(1.0, 64));
  CHECK(f32.getInt(1) == -2);

  Tensor h(TensorType{DType::F16, {1}});
  h.setDouble(0, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40));
  CHECK(h.getDouble(0) == 1.0 + std::ldexp(1.0, -10));
  h.setInt(0, 70000);
  CHECK(std::isinf(h.getDouble(0)));

  Tensor bf(TensorType{DType::BF16, {1}});
  bf.setDouble(0, 3.0);
  CHECK(bf.getDouble(0) == 3.0);

  for (DType t : {DType::I16, DType::I32, DType::I64, DType::U16, DType::U32,
                  DType::F64}) {
    Tensor x(TensorType{t, {2}});
    CHECK(x.data.size() == 2 * dtypeBytes(t));
    x.setInt(1, 7);
    CHECK(x.getInt(1) == 7);
    CHECK(x.getDouble(1) == 7.0);
    CHECK(x.getInt(0) == 0);
  }
}
