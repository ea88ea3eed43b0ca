//===- Prelude.cpp - Extensions and helper functions a shader needs -------===//
//
// Part of the GLSL target; see Prelude.h.
//
//===----------------------------------------------------------------------===//

#include "Prelude.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

using namespace tilec;
using namespace tilec::glsl;

std::string Prelude::define(std::string name, std::string text) {
  if (helperNames.insert(name).second)
    helpers.push_back(std::move(text));
  return name;
}

static const char *suffix(StoredFloat format) {
  return format == StoredFloat::BF16 ? "bf16" : "f16";
}

std::string Prelude::toFloat(StoredFloat format) {
  if (format == StoredFloat::BF16)
    return define("tilec_bf16_to_float",
                  "// bf16 bits to float (exact).\n"
                  "float tilec_bf16_to_float(uint b) {\n"
                  "  return uintBitsToFloat(b << 16);\n"
                  "}\n");
  return define(
      "tilec_f16_to_float",
      "// f16 bits to float (exact: every f16 is a normal float).\n"
      "float tilec_f16_to_float(uint h) {\n"
      "  uint sign = (h & 0x8000u) << 16;\n"
      "  uint exponent = (h >> 10) & 0x1Fu, fraction = h & 0x3FFu;\n"
      "  if (exponent == 0x1Fu) // infinity or NaN\n"
      "    return uintBitsToFloat(sign | 0x7F800000u | (fraction << 13));\n"
      "  if (exponent == 0u) { // zero or subnormal: fraction * 2^-24\n"
      "    float m = float(fraction) * 5.9604644775390625e-8;\n"
      "    return sign != 0u ? -m : m;\n"
      "  }\n"
      "  return uintBitsToFloat(sign | ((exponent + 112u) << 23) |\n"
      "                         (fraction << 13));\n"
      "}\n");
}

std::string Prelude::fromFloat(StoredFloat format) {
  if (format == StoredFloat::BF16)
    return define(
        "tilec_float_to_bf16",
        "// float to bf16 bits, rounding to nearest even; a NaN becomes the\n"
        "// quiet NaN of its sign.\n"
        "uint tilec_float_to_bf16(float f) {\n"
        "  uint bits = floatBitsToUint(f);\n"
        "  if (isnan(f))\n"
        "    return ((bits >> 16) & 0x8000u) | 0x7FC0u;\n"
        "  return (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;\n"
        "}\n");
  // Below 2^-14 the f16 quantum is 2^-24, so roundEven of the scaled value
  // is the subnormal's fraction; 1024 is the smallest normal's encoding,
  // so rounding up into it needs no special case.
  return define(
      "tilec_float_to_f16",
      "// float to f16 bits, rounding to nearest even (to subnormals and\n"
      "// infinity too); a NaN becomes the quiet NaN of its sign.\n"
      "uint tilec_float_to_f16(float f) {\n"
      "  uint sign = (floatBitsToUint(f) >> 16) & 0x8000u;\n"
      "  float a = abs(f);\n"
      "  if (isnan(f))\n"
      "    return sign | 0x7E00u;\n"
      "  if (a >= 65520.0) // half an ulp above the largest f16, or more\n"
      "    return sign | 0x7C00u;\n"
      "  if (a < 6.103515625e-5) // 2^-14\n"
      "    return sign | uint(roundEven(a * 16777216.0));\n"
      "  uint bits = floatBitsToUint(a);\n"
      "  bits += 0xFFFu + ((bits >> 13) & 1u);\n"
      "  return sign | ((bits >> 13) - (112u << 10));\n"
      "}\n");
}

std::string Prelude::fromDouble(StoredFloat format) {
  std::string toBits = fromFloat(format);
  std::string name = fmt::format("tilec_double_to_{}", suffix(format));
  return define(
      name,
      fmt::format(
          "// double to {0} bits with one rounding: the float nearer zero,\n"
          "// its last bit set when inexact (\"round to odd\"), keeps what\n"
          "// rounding to nearest even needs.\n"
          "uint {1}(double d) {{\n"
          "  float f = float(d);\n"
          "  if (!isnan(d) && double(f) != d) {{\n"
          "    if (abs(double(f)) > abs(d))\n"
          "      f = uintBitsToFloat(floatBitsToUint(f) - 1u);\n"
          "    f = uintBitsToFloat(floatBitsToUint(f) | 1u);\n"
          "  }}\n"
          "  return {2}(f);\n"
          "}}\n",
          suffix(format), name, toBits));
}

/// Whether `value`, of float type `type`, has its sign bit set (-0 too).
static std::string signBit(llvm::StringRef type, llvm::StringRef value) {
  if (type == "double")
    return fmt::format("(unpackDouble2x32({}).y & 0x80000000u) != 0u",
                       value.str());
  return fmt::format("(floatBitsToUint({}) & 0x80000000u) != 0u",
                     value.str());
}

/// The quiet NaN of float type `type`.
static std::string quietNaN(llvm::StringRef type) {
  if (type == "double")
    return "packDouble2x32(uvec2(0u, 0x7FF80000u))";
  return "uintBitsToFloat(0x7FC00000u)";
}

/// The part of a helper's name for GLSL type `type`: "int64_t" -> "int64".
static std::string typeSuffix(llvm::StringRef type) {
  return type.ends_with("_t") ? type.drop_back(2).str() : type.str();
}

std::string Prelude::floorDiv(llvm::StringRef type) {
  std::string name = "tilec_floordiv_" + typeSuffix(type);
  return define(name, fmt::format("// arith.floordivsi: the quotient rounded "
                                  "towards negative infinity.\n"
                                  "{0} {1}({0} a, {0} b) {{\n"
                                  "  {0} q = a / b;\n"
                                  "  return (q * b != a && (a < {0}(0)) != "
                                  "(b < {0}(0))) ? q - {0}(1) : q;\n"
                                  "}}\n",
                                  type.str(), name));
}

std::string Prelude::ceilDiv(llvm::StringRef type, bool isUnsigned) {
  std::string name = "tilec_ceildiv_" + typeSuffix(type);
  std::string roundUp =
      isUnsigned ? "q * b != a"
                 : fmt::format("q * b != a && (a < {0}(0)) == (b < {0}(0))",
                               type.str());
  return define(name, fmt::format("// arith.ceildiv{2}i: the quotient rounded "
                                  "towards positive infinity.\n"
                                  "{0} {1}({0} a, {0} b) {{\n"
                                  "  {0} q = a / b;\n"
                                  "  return ({3}) ? q + {0}(1) : q;\n"
                                  "}}\n",
                                  type.str(), name, isUnsigned ? 'u' : 's',
                                  roundUp));
}

std::string Prelude::maximum(llvm::StringRef type, bool isMax) {
  const char *op = isMax ? "maximum" : "minimum";
  std::string name = fmt::format("tilec_{}_{}", op, type.str());
  return define(
      name, fmt::format("// arith.{2}f: NaN if either operand is NaN, and "
                        "-0 < +0.\n"
                        "{0} {1}({0} a, {0} b) {{\n"
                        "  {0} ordered = mix(b, a, a {5} b);\n"
                        "  {0} zeros = mix({4}, {3}, {6});\n"
                        "  return mix(mix(ordered, zeros, a == b), a + b, "
                        "isnan(a) || isnan(b));\n"
                        "}}\n",
                        type.str(), name, op, isMax ? "b" : "a",
                        isMax ? "a" : "b", isMax ? ">" : "<",
                        signBit(type, "a")));
}

std::string Prelude::maxNum(llvm::StringRef type, bool isMax) {
  const char *op = isMax ? "max" : "min";
  std::string name = fmt::format("tilec_{}num_{}", op, type.str());
  return define(name,
                fmt::format("// arith.{2}numf: the other operand when one "
                            "is NaN.\n"
                            "{0} {1}({0} a, {0} b) {{\n"
                            "  return mix(mix({2}(a, b), a, isnan(b)), b, "
                            "isnan(a));\n"
                            "}}\n",
                            type.str(), name, op));
}

std::string Prelude::roundHalfAway(llvm::StringRef type) {
  std::string name = "tilec_round_" + type.str();
  // x - trunc(x) is exact, so the comparison with 0.5 decides exactly.
  return define(name, fmt::format("// math.round: halfway cases away from "
                                  "zero.\n"
                                  "{0} {1}({0} x) {{\n"
                                  "  {0} t = trunc(x);\n"
                                  "  return abs(x - t) >= {0}(0.5) ? t + "
                                  "sign(x) : t;\n"
                                  "}}\n",
                                  type.str(), name));
}

std::string Prelude::fmod(llvm::StringRef type) {
  std::string name = "tilec_fmod_" + type.str();
  // Long division on the exponents: each step subtracts the largest
  // |y| * 2^k not above the remainder, exactly (Sterbenz: t <= r < 2t).
  return define(
      name,
      fmt::format("// arith.remf: C's fmod, exact; the sign of x.\n"
                  "{0} {1}({0} x, {0} y) {{\n"
                  "  if (isnan(x) || isnan(y) || isinf(x) || y == {0}(0.0))\n"
                  "    return {2};\n"
                  "  {0} r = abs(x), ay = abs(y);\n"
                  "  if (isinf(y) || r < ay)\n"
                  "    return x;\n"
                  "  int ey, er;\n"
                  "  frexp(ay, ey);\n"
                  "  while (r >= ay) {{\n"
                  "    frexp(r, er);\n"
                  "    {0} t = ldexp(ay, er - ey);\n"
                  "    if (t > r)\n"
                  "      t *= {0}(0.5);\n"
                  "    r -= t;\n"
                  "  }}\n"
                  "  return x < {0}(0.0) ? -r : r;\n"
                  "}}\n",
                  type.str(), name, quietNaN(type)));
}

std::string Prelude::copySign(llvm::StringRef type) {
  std::string name = "tilec_copysign_" + type.str();
  if (type == "double")
    return define(name,
                  "// math.copysign: |x| with the sign of y.\n"
                  "double " + name + "(double x, double y) {\n"
                  "  uvec2 a = unpackDouble2x32(x), b = unpackDouble2x32(y);\n"
                  "  a.y = (a.y & 0x7FFFFFFFu) | (b.y & 0x80000000u);\n"
                  "  return packDouble2x32(a);\n"
                  "}\n");
  return define(name,
                "// math.copysign: |x| with the sign of y.\n"
                "float " + name + "(float x, float y) {\n"
                "  return uintBitsToFloat((floatBitsToUint(x) & 0x7FFFFFFFu) |\n"
                "                         (floatBitsToUint(y) & 0x80000000u));\n"
                "}\n");
}

std::string Prelude::toInt64(llvm::StringRef type, bool isUnsigned) {
  useInt64();
  const char *result = isUnsigned ? "uint64_t" : "int64_t";
  std::string name = fmt::format("tilec_{}_to_{}", type.str(),
                                 isUnsigned ? "uint64" : "int64");
  // A value within int converts by int(t), the one conversion NVIDIA's
  // GL compiler gets right (int64_t(roundEven(d)) came out 0 on the H200,
  // and the two-halves form below, for the software exp's small 2^k, made
  // f64 exp wrong there). Beyond: t and hi * 2^32 are exact, so lo, in
  // [0, 2^32), is too, and each half converts from a value within int (lo
  // - 2^31; hi, or hi - 2^31 for fptoui); int64_t arithmetic wraps, and
  // uint64_t of it keeps the bits.
  std::string high = isUnsigned
                         ? "(int64_t(int(hi - 2147483648.0lf)) + 2147483648l)"
                         : "int64_t(int(hi))";
  return define(
      name,
      fmt::format("// fpto{3}i to i64: by int, else from two 32-bit halves.\n"
                  "{2} {0}({1} x) {{\n"
                  "  double t = trunc(double(x));\n"
                  "  if (abs(t) < 2147483648.0lf)\n"
                  "    return {2}(int(t));\n"
                  "  double hi = floor(t * 2.3283064365386963E-10lf);\n"
                  "  double lo = t - hi * 4294967296.0lf;\n"
                  "  return {2}(({4}) * 4294967296l +\n"
                  "             (int64_t(int(lo - 2147483648.0lf)) + "
                  "2147483648l));\n"
                  "}}\n",
                  name, type.str(), result, isUnsigned ? 'u' : 's', high));
}

std::string Prelude::low32() {
  useInt64();
  // The masked value fits uint exactly, and int(uint) keeps the bits.
  return define("tilec_low32", "// The low 32 bits of an int64_t.\n"
                               "int tilec_low32(int64_t x) {\n"
                               "  return int(uint(x & 0xFFFFFFFFl));\n"
                               "}\n");
}

std::string Prelude::doubleBits() {
  useInt64();
  return define("tilec_double_bits",
                "// The bits of a double, as an int64_t.\n"
                "int64_t tilec_double_bits(double d) {\n"
                "  uvec2 w = unpackDouble2x32(d);\n"
                "  return (int64_t(w.y) << 32) | int64_t(w.x);\n"
                "}\n");
}

std::string Prelude::bitsDouble() {
  useInt64();
  return define("tilec_bits_double",
                "// The double of the bits of an int64_t.\n"
                "double tilec_bits_double(int64_t x) {\n"
                "  return packDouble2x32(uvec2(uint(x & 0xFFFFFFFFl),\n"
                "                              uint((x >> 32) & 0xFFFFFFFFl)));\n"
                "}\n");
}

void Prelude::printExtensions(llvm::raw_ostream &os) const {
  if (int64)
    os << "#extension GL_ARB_gpu_shader_int64 : require\n";
  if (precise)
    os << "#if defined(GL_ES) && __VERSION__ < 320\n"
          "#extension GL_OES_gpu_shader5 : require\n"
          "#endif\n";
  if (subgroupShuffle)
    os << "#extension GL_KHR_shader_subgroup_shuffle : require\n";
}

void Prelude::printHelpers(llvm::raw_ostream &os) const {
  for (const std::string &helper : helpers)
    os << "\n" << helper;
}
