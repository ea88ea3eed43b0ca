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

std::string Prelude::bf16ToFloat() {
  return define("tilec_bf16_to_float",
                "/* bf16 bits to float (exact). */\n"
                "float tilec_bf16_to_float(ushort b) {\n"
                "  return as_float((uint)b << 16);\n"
                "}\n");
}

std::string Prelude::floatToBF16() {
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
}

std::string Prelude::doubleToBF16() {
  std::string toBF16 = floatToBF16();
  useDouble();
  return define(
      "tilec_double_to_bf16",
      fmt::format(
          "/* double to bf16 bits with one rounding: truncating to float and\n"
          "   setting the last bit when inexact (\"round to odd\") keeps what\n"
          "   rounding to nearest even needs. */\n"
          "ushort tilec_double_to_bf16(double d) {{\n"
          "  float f = convert_float_rtz(d);\n"
          "  if (!isnan(d) && (double)f != d)\n"
          "    f = as_float(as_uint(f) | 1u);\n"
          "  return {}(f);\n"
          "}}\n",
          toBF16));
}

std::string Prelude::longToBF16(bool isUnsigned) {
  std::string toBF16 = floatToBF16();
  const char *type = isUnsigned ? "ulong" : "long";
  std::string name = fmt::format("tilec_{}_to_bf16", type);
  return define(name,
                fmt::format("/* {0} to bf16 bits with one rounding, as for "
                            "double: truncate, mark inexact. */\n"
                            "ushort {1}({0} x) {{\n"
                            "  float f = convert_float_rtz(x);\n"
                            "  if (({0})f != x)\n"
                            "    f = as_float(as_uint(f) | 1u);\n"
                            "  return {2}(f);\n"
                            "}}\n",
                            type, name, toBF16));
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
  if (half || dbl)
    os << "\n";
  if (half)
    printExtension(os, "cl_khr_fp16", "f16");
  if (dbl)
    printExtension(os, "cl_khr_fp64", "f64");
  for (const std::string &helper : helpers)
    os << "\n" << helper;
}
