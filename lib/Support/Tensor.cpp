//===- Tensor.cpp - A dense host tensor -----------------------------------===//
//
// Element access with the conversion rules of docs/language.md 5.4, and exact
// rounding into the binary floating-point formats. Every conversion into a
// float type goes through one routine that rounds an integer significand
// times a power of two, so double -> f16 never rounds twice (double -> float
// -> half would) and i64 -> bf16 is rounded once too.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/Tensor.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace tilec;

//===----------------------------------------------------------------------===//
// TensorType
//===----------------------------------------------------------------------===//

int64_t TensorType::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string TensorType::str() const {
  std::string s(dtypeName(dtype));
  s += '[';
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  s += ']';
  return s;
}

int64_t tilec::checkedNumElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n))
      return -1;
  }
  return n;
}

//===----------------------------------------------------------------------===//
// Binary floating-point formats
//===----------------------------------------------------------------------===//

namespace {
/// An IEEE-style binary format: `precision` significand bits including the
/// hidden one, `exponentBits` exponent bits.
struct FloatFormat {
  int precision;
  int exponentBits;
  int bias() const { return (1 << (exponentBits - 1)) - 1; }
  int minExponent() const { return 1 - bias(); }
  uint64_t signBit() const {
    return uint64_t(1) << (precision - 1 + exponentBits);
  }
  uint64_t infBits() const {
    return uint64_t((1 << exponentBits) - 1) << (precision - 1);
  }
  uint64_t quietNaNBits() const {
    return infBits() | (uint64_t(1) << (precision - 2));
  }
};
constexpr FloatFormat kHalf{11, 5};
constexpr FloatFormat kBFloat{8, 8};
constexpr FloatFormat kSingle{24, 8};
} // namespace

/// Encodes (-1)^neg * mant * 2^exp2 in `f`, rounding to nearest even.
static uint64_t encodeFloat(bool neg, uint64_t mant, int exp2, FloatFormat f) {
  uint64_t sign = neg ? f.signBit() : 0;
  if (mant == 0)
    return sign;
  int msb = 63 - __builtin_clzll(mant);
  int exponent = msb + exp2; // value in [2^exponent, 2^(exponent+1))
  // The exponent of the last significand bit (the quantum) of the result.
  int quantum = std::max(exponent, f.minExponent()) - (f.precision - 1);
  int shift = quantum - exp2;
  uint64_t r;
  if (shift <= 0) {
    r = mant << -shift; // exact: the value needs at most `precision` bits
  } else if (shift > 64) {
    r = 0; // far below half a quantum
  } else {
    unsigned __int128 m = mant;
    unsigned __int128 one = 1;
    r = uint64_t(m >> shift);
    unsigned __int128 rem = m & ((one << shift) - 1);
    unsigned __int128 half = one << (shift - 1);
    if (rem > half || (rem == half && (r & 1)))
      ++r;
  }
  uint64_t hidden = uint64_t(1) << (f.precision - 1);
  if (r >= 2 * hidden) { // rounding carried into a new binade
    r >>= 1;
    ++quantum;
  }
  if (r < hidden) // subnormal or zero
    return sign | r;
  int64_t biased = int64_t(quantum) + (f.precision - 1) + f.bias();
  if (biased >= (1 << f.exponentBits) - 1)
    return sign | f.infBits();
  return sign | (uint64_t(biased) << (f.precision - 1)) | (r - hidden);
}

/// Encodes a double in `f`.
static uint64_t encodeDouble(double v, FloatFormat f) {
  if (std::isnan(v))
    return (std::signbit(v) ? f.signBit() : 0) | f.quietNaNBits();
  bool neg = std::signbit(v);
  if (std::isinf(v))
    return (neg ? f.signBit() : 0) | f.infBits();
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  int biased = int((bits >> 52) & 0x7ff);
  uint64_t frac = bits & ((uint64_t(1) << 52) - 1);
  if (biased == 0)
    return encodeFloat(neg, frac, -1074, f);
  return encodeFloat(neg, frac | (uint64_t(1) << 52), biased - 1075, f);
}

/// Decodes bits of format `f` to the (exactly representable) double.
static double decodeFloat(uint64_t bits, FloatFormat f) {
  bool neg = bits & f.signBit();
  uint64_t expMask = uint64_t((1 << f.exponentBits) - 1);
  uint64_t biased = (bits >> (f.precision - 1)) & expMask;
  uint64_t frac = bits & ((uint64_t(1) << (f.precision - 1)) - 1);
  double v;
  if (biased == expMask)
    v = frac ? std::numeric_limits<double>::quiet_NaN()
             : std::numeric_limits<double>::infinity();
  else if (biased == 0)
    v = std::ldexp(double(frac), f.minExponent() - (f.precision - 1));
  else
    v = std::ldexp(double(frac | (uint64_t(1) << (f.precision - 1))),
                   int(biased) - f.bias() - (f.precision - 1));
  return neg ? -v : v;
}

uint16_t tilec::floatToHalf(float f) { return encodeDouble(f, kHalf); }
float tilec::halfToFloat(uint16_t h) { return float(decodeFloat(h, kHalf)); }
uint16_t tilec::floatToBFloat(float f) { return encodeDouble(f, kBFloat); }
float tilec::bfloatToFloat(uint16_t b) {
  return float(decodeFloat(b, kBFloat));
}
uint16_t tilec::doubleToHalf(double v) { return encodeDouble(v, kHalf); }

double tilec::roundToFloatType(double v, DType t) {
  switch (t) {
  case DType::F16:
    return decodeFloat(encodeDouble(v, kHalf), kHalf);
  case DType::BF16:
    return decodeFloat(encodeDouble(v, kBFloat), kBFloat);
  case DType::F32:
    return double(float(v)); // the hardware conversion rounds to nearest even
  default:
    return v;
  }
}

double tilec::integerToFloatType(int64_t v, bool isUnsignedValue, DType t) {
  bool neg = !isUnsignedValue && v < 0;
  // The magnitude of INT64_MIN is 2^63, which fits in uint64_t.
  uint64_t mag = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  switch (t) {
  case DType::F16:
    return decodeFloat(encodeFloat(neg, mag, 0, kHalf), kHalf);
  case DType::BF16:
    return decodeFloat(encodeFloat(neg, mag, 0, kBFloat), kBFloat);
  case DType::F32:
    return decodeFloat(encodeFloat(neg, mag, 0, kSingle), kSingle);
  default:
    // Conversion of an integer to double rounds to nearest in C++ on
    // IEEE hosts.
    return isUnsignedValue ? double(uint64_t(v)) : double(v);
  }
}

int64_t tilec::truncateToInt64(double v) {
  if (std::isnan(v))
    return 0;
  v = std::trunc(v);
  if (v >= -9223372036854775808.0 && v < 9223372036854775808.0)
    return int64_t(v);
  // [2^63, 2^64) is still meaningful for u64 destinations.
  if (v >= 9223372036854775808.0 && v < 18446744073709551616.0)
    return int64_t(uint64_t(v));
  return 0; // out of range: unspecified by the language
}

int64_t tilec::normalizeInteger(int64_t v, DType t) {
  switch (t) {
  case DType::Bool:
    return v != 0;
  case DType::I8:
    return int8_t(v);
  case DType::I16:
    return int16_t(v);
  case DType::I32:
    return int32_t(v);
  case DType::U8:
    return uint8_t(v);
  case DType::U16:
    return uint16_t(v);
  case DType::U32:
    return uint32_t(v);
  default:
    return v;
  }
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

Tensor::Tensor(TensorType t) : type(std::move(t)) {
  data.assign(size_t(type.numElements()) * dtypeBytes(type.dtype), 0);
}

template <typename T> static T load(const std::vector<uint8_t> &d, int64_t i) {
  T v;
  std::memcpy(&v, d.data() + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
static void store(std::vector<uint8_t> &d, int64_t i, T v) {
  std::memcpy(d.data() + i * sizeof(T), &v, sizeof(T));
}

/// Element `i` of integer or bool data of dtype `t`, converted to R: the
/// integer cases shared by getDouble and getInt.
template <typename R>
static R loadInteger(const std::vector<uint8_t> &d, DType t, int64_t i) {
  switch (t) {
  case DType::Bool:
    return R(d[i] != 0);
  case DType::I8:
    return R(load<int8_t>(d, i));
  case DType::I16:
    return R(load<int16_t>(d, i));
  case DType::I32:
    return R(load<int32_t>(d, i));
  case DType::I64:
    return R(load<int64_t>(d, i));
  case DType::U8:
    return R(load<uint8_t>(d, i));
  case DType::U16:
    return R(load<uint16_t>(d, i));
  case DType::U32:
    return R(load<uint32_t>(d, i));
  case DType::U64:
    return R(load<uint64_t>(d, i));
  default:
    break;
  }
  std::abort(); // callers pass integer dtypes only
}

double Tensor::getDouble(int64_t i) const {
  switch (type.dtype) {
  case DType::F16:
    return decodeFloat(load<uint16_t>(data, i), kHalf);
  case DType::BF16:
    return decodeFloat(load<uint16_t>(data, i), kBFloat);
  case DType::F32:
    return load<float>(data, i);
  case DType::F64:
    return load<double>(data, i);
  default:
    return loadInteger<double>(data, type.dtype, i);
  }
}

int64_t Tensor::getInt(int64_t i) const {
  if (isFloat(type.dtype))
    return truncateToInt64(getDouble(i));
  return loadInteger<int64_t>(data, type.dtype, i);
}

void Tensor::setDouble(int64_t i, double v) {
  switch (type.dtype) {
  case DType::Bool:
    data[i] = v != 0;
    return; // NaN != 0 is true
  case DType::F16:
    store<uint16_t>(data, i, encodeDouble(v, kHalf));
    return;
  case DType::BF16:
    store<uint16_t>(data, i, encodeDouble(v, kBFloat));
    return;
  case DType::F32:
    store<float>(data, i, float(v));
    return;
  case DType::F64:
    store<double>(data, i, v);
    return;
  default:
    setInt(i, truncateToInt64(v));
    return;
  }
}

void Tensor::setInt(int64_t i, int64_t v) {
  switch (type.dtype) {
  case DType::Bool:
    data[i] = v != 0;
    return;
  case DType::I8:
  case DType::U8:
    data[i] = uint8_t(v);
    return;
  case DType::I16:
  case DType::U16:
    store<uint16_t>(data, i, uint16_t(v));
    return;
  case DType::I32:
  case DType::U32:
    store<uint32_t>(data, i, uint32_t(v));
    return;
  case DType::I64:
  case DType::U64:
    store<int64_t>(data, i, v);
    return;
  case DType::F16:
  case DType::BF16:
  case DType::F32:
  case DType::F64:
    setDouble(i, integerToFloatType(v, /*isUnsignedValue=*/false, type.dtype));
    return;
  }
}

void Tensor::setUInt(int64_t i, uint64_t v) {
  if (isFloat(type.dtype))
    setDouble(i, integerToFloatType(int64_t(v), /*isUnsignedValue=*/true,
                                    type.dtype));
  else
    setInt(i, int64_t(v));
}
