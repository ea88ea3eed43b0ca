//===- Tensor.h - A dense host tensor ---------------------------*- C++ -*-===//
//
// The host-side tensor: an element type, a shape and row-major bytes. It is
// what .npy files are read into, what the interpreter computes on and what
// every runtime copies to and from a device. Elements are stored in their own
// type: bool as one byte 0/1, f16 and bf16 as their raw 16-bit patterns.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_TENSOR_H
#define TILEC_SUPPORT_TENSOR_H

#include "tilec/Support/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

/// A tensor's type: element type and shape (every size >= 1; rank 0 allowed).
struct TensorType {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;

  /// The product of the sizes (1 for rank 0). Callers check for overflow
  /// before building types (see checkedNumElements).
  int64_t numElements() const;
  unsigned rank() const { return shape.size(); }
  bool operator==(const TensorType &o) const {
    return dtype == o.dtype && shape == o.shape;
  }
  bool operator!=(const TensorType &o) const { return !(*this == o); }
  /// "f32[2, 3]"; rank 0 prints as "f32[]".
  std::string str() const;
};

/// The product of `shape`, or -1 if it overflows int64.
int64_t checkedNumElements(const std::vector<int64_t> &shape);

/// A dense row-major tensor owning its bytes.
struct Tensor {
  TensorType type;
  std::vector<uint8_t> data; ///< numElements() * dtypeBytes(dtype) bytes

  Tensor() = default;
  /// A zero-filled tensor of the given type.
  explicit Tensor(TensorType t);

  int64_t numElements() const { return type.numElements(); }
  /// Element `i` (row-major) converted to double / int64. Integers convert
  /// exactly to int64 (u64 values above INT64_MAX wrap), floats truncate
  /// toward zero for getInt.
  double getDouble(int64_t i) const;
  int64_t getInt(int64_t i) const;
  /// Stores `v` into element `i` with the conversion rules of section 5.4
  /// (round to nearest for floats, low bits for integers, != 0 for bool).
  void setDouble(int64_t i, double v);
  void setInt(int64_t i, int64_t v);
  /// Stores the unsigned value `v` (a u64 above INT64_MAX converts to a float
  /// type by its value, not its bit pattern).
  void setUInt(int64_t i, uint64_t v);
};

/// IEEE binary16 and bfloat16 conversions (round to nearest even).
uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);
uint16_t floatToBFloat(float f);
float bfloatToFloat(uint16_t b);
/// Rounds a double to the nearest value representable in float type `t`.
double roundToFloatType(double v, DType t);
/// Double to binary16 with a single rounding (no detour via f32).
uint16_t doubleToHalf(double v);
/// The integer `v` (read as unsigned if `isUnsignedValue`) rounded once to
/// the nearest value of float type `t`, returned as a double.
double integerToFloatType(int64_t v, bool isUnsignedValue, DType t);
/// Float to integer truncating toward zero; NaN and values outside
/// [-2^63, 2^64) give 0 (unspecified by the language); [2^63, 2^64) gives the
/// u64 bit pattern.
int64_t truncateToInt64(double v);
/// Keeps the low bits of `v` for integer type `t` (sign- or zero-extended;
/// bool gives v != 0): the canonical int64 form of an element of type `t`.
int64_t normalizeInteger(int64_t v, DType t);

} // namespace tilec

#endif // TILEC_SUPPORT_TENSOR_H
