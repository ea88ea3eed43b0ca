//===- Prelude.cpp - Extensions and helper functions a program needs ------===//
//
// Part of the OpenCL target; see Prelude.h. The helpers are plain functions
// (OpenCL C 1.2 has no `static inline` guarantee); every compiler inlines
// them.
//
//===----------------------------------------------------------------------===//

#include "Prelude.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

using namespace tilec;
using namespace tilec::opencl;

std::string Prelude::define(std::string name, std::string text) {
  if (helperNames.insert(name).second)
    helpers.push_back(std::move(text));
  return name;
}

/// The suffix naming the helpers of `format`: "bf16" or "f16".
static const char *suffix(StoredFloat format) {
  return format == StoredFloat::BF16 ? "bf16" : "f16";
}

std::string Prelude::toFloat(StoredFloat format) {
  if (format == StoredFloat::BF16)
    return define("tilec_bf16_to_float",
                  "/* bf16 bits to float (exact). */\n"
                  "float tilec_bf16_to_float(ushort b) {\n"
                  "  return as_float((uint)b << 16);\n"
                  "}\n");
  return define(
      "tilec_f16_to_float",
      "/* f16 bits to float (exact: every f16, subnormals included, is a\n"
      "   normal float). */\n"
      "float tilec_f16_to_float(ushort h) {\n"
      "  uint sign = (uint)(h & 0x8000u) << 16;\n"
      "  uint exponent = (h >> 10) & 0x1Fu, fraction = h & 0x3FFu;\n"
      "  if (exponent == 0x1Fu) /* infinity or NaN */\n"
      "    return as_float(sign | 0x7F800000u | (fraction << 13));\n"
      "  if (exponent == 0) { /* zero or subnormal: fraction * 2^-24 */\n"
      "    float m = (float)fraction * 0x1p-24f;\n"
      "    return sign ? -m : m;\n"
      "  }\n"
      "  return as_float(sign | ((exponent + 112u) << 23) | (fraction << 13));\n"
      "}\n");
}

std::string Prelude::fromFloat(StoredFloat format) {
  if (format == StoredFloat::BF16)
    return define(
        "tilec_float_to_bf16",
        "/* float to bf16 bits, rounding to nearest even; a NaN becomes the\n"
        "   quiet NaN of its sign. */\n"
        "ushort tilec_float_to_bf16(float f) {\n"
        "  uint bits = as_uint(f);\n"
        "  if (isnan(f))\n"
        "    return (ushort)(((bits >> 16) & 0x8000u) | 0x7FC0u);\n"
        "  return (ushort)((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);\n"
        "}\n");
  // Below 2^-14 the f16 quantum is 2^-24, so rint (to nearest even) of
  // the scaled value is the subnormal's fraction; 1024 is the smallest
  // normal's encoding, so rounding up into it needs no special case.
  return define(
      "tilec_float_to_f16",
      "/* float to f16 bits, rounding to nearest even (to subnormals and\n"
      "   infinity too); a NaN becomes the quiet NaN of its sign. */\n"
      "ushort tilec_float_to_f16(float f) {\n"
      "  uint sign = (as_uint(f) >> 16) & 0x8000u;\n"
      "  float a = fabs(f);\n"
      "  if (isnan(f))\n"
      "    return (ushort)(sign | 0x7E00u);\n"
      "  if (a >= 65520.0f) /* half an ulp above the largest f16, or more */\n"
      "    return (ushort)(sign | 0x7C00u);\n"
      "  if (a < 0x1p-14f)\n"
      "    return (ushort)(sign | (uint)rint(a * 0x1p24f));\n"
      "  uint bits = as_uint(a);\n"
      "  bits += 0xFFFu + ((bits >> 13) & 1u);\n"
      "  return (ushort)(sign | ((bits >> 13) - (112u << 10)));\n"
      "}\n");
}

// Rounding to float "to odd" first is exact enough for both formats: float
// has at least two more significant bits than bf16 and f16 need.
std::string Prelude::fromDouble(StoredFloat format) {
  std::string toBits = fromFloat(format);
  useDouble();
  std::string name = fmt::format("tilec_double_to_{}", suffix(format));
  return define(
      name,
      fmt::format(
          "/* double to {0} bits with one rounding: truncating to float and\n"
          "   setting the last bit when inexact (\"round to odd\") keeps what\n"
          "   rounding to nearest even needs. */\n"
          "ushort {1}(double d) {{\n"
          "  float f = convert_float_rtz(d);\n"
          "  if (!isnan(d) && (double)f != d)\n"
          "    f = as_float(as_uint(f) | 1u);\n"
          "  return {2}(f);\n"
          "}}\n",
          suffix(format), name, toBits));
}

std::string Prelude::fromLong(StoredFloat format, bool isUnsigned) {
  std::string toBits = fromFloat(format);
  const char *type = isUnsigned ? "ulong" : "long";
  std::string name = fmt::format("tilec_{}_to_{}", type, suffix(format));
  return define(name,
                fmt::format("/* {0} to {3} bits with one rounding, as for "
                            "double: truncate, mark inexact. */\n"
                            "ushort {1}({0} x) {{\n"
                            "  float f = convert_float_rtz(x);\n"
                            "  if (({0})f != x)\n"
                            "    f = as_float(as_uint(f) | 1u);\n"
                            "  return {2}(f);\n"
                            "}}\n",
                            type, name, toBits, suffix(format)));
}

std::string Prelude::floorDiv(llvm::StringRef type) {
  std::string name = fmt::format("tilec_floordiv_{}", type.str());
  return define(name, fmt::format("/* arith.floordivsi: the quotient rounded "
                                  "towards negative infinity. */\n"
                                  "{0} {1}({0} a, {0} b) {{\n"
                                  "  {0} q = a / b;\n"
                                  "  return (q * b != a && (a < 0) != (b < 0)) "
                                  "? q - 1 : q;\n"
                                  "}}\n",
                                  type.str(), name));
}

std::string Prelude::ceilDiv(llvm::StringRef type, bool isUnsigned) {
  std::string name = fmt::format("tilec_ceildiv_{}", type.str());
  const char *roundUp = isUnsigned ? "q * b != a"
                                   : "q * b != a && (a < 0) == (b < 0)";
  return define(name, fmt::format("/* arith.ceildiv{2}i: the quotient rounded "
                                  "towards positive infinity. */\n"
                                  "{0} {1}({0} a, {0} b) {{\n"
                                  "  {0} q = a / b;\n"
                                  "  return ({3}) ? q + 1 : q;\n"
                                  "}}\n",
                                  type.str(), name, isUnsigned ? 'u' : 's',
                                  roundUp));
}

std::string Prelude::maximum(llvm::StringRef type, bool isMax) {
  const char *op = isMax ? "maximum" : "minimum";
  std::string name = fmt::format("tilec_{}_{}", op, type.str());
  return define(
      name, fmt::format("/* arith.{2}f: NaN if either operand is NaN, and "
                        "-0 < +0. */\n"
                        "{0} {1}({0} a, {0} b) {{\n"
                        "  if (isnan(a) || isnan(b))\n"
                        "    return a + b;\n"
                        "  if (a == b)\n"
                        "    return signbit(a) ? {3} : {4};\n"
                        "  return a {5} b ? a : b;\n"
                        "}}\n",
                        type.str(), name, op, isMax ? "b" : "a",
                        isMax ? "a" : "b", isMax ? ">" : "<"));
}

std::string Prelude::floatTanh() {
  // 1 - tanh(x) is about 2 exp(-2x), below half an ulp of 1 (2^-25) from
  // x = 13 ln 2 = 9.0109 on; the threshold keeps a margin above it.
  return define("tilec_tanh_float",
                "/* tanh, exactly +-1 where it rounds to +-1. */\n"
                "float tilec_tanh_float(float x) {\n"
                "  return fabs(x) >= 9.011f ? copysign(1.0f, x) : tanh(x);\n"
                "}\n");
}

/// Enables an optional extension and stops the build with a clear message
/// on a device that lacks it (the macro is defined exactly when it has it).
static void printExtension(llvm::raw_ostream &os, llvm::StringRef extension,
                           llvm::StringRef dtype) {
  os << "#ifndef " << extension << "\n#error \"this program computes in "
     << dtype << ", which needs the OpenCL extension " << extension
     << "; the device lacks it\"\n#endif\n#pragma OPENCL EXTENSION "
     << extension << " : enable\n";
}

void Prelude::print(llvm::raw_ostream &os) const {
  if (dbl) {
    os << "\n";
    printExtension(os, "cl_khr_fp64", "f64");
  }
  for (const std::string &helper : helpers)
    os << "\n" << helper;
}
