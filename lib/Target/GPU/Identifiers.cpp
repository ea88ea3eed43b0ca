//===- Identifiers.cpp - Kernel names valid in every GPU language ---------===//
//
// Part of lib/Target/GPU; see Identifiers.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/Identifiers.h"

#include "llvm/ADT/StringSet.h"

#include <cctype>

using namespace tilec;

/// Words an OpenCL C 1.2 identifier may not be: C keywords, OpenCL
/// qualifiers, scalar type names and `main`. A type name followed by digits
/// is reserved too, which covers the vector types (`float4`).
static bool isReserved(llvm::StringRef word) {
  word = word.rtrim("0123456789");
  static const char *const words[] = {
      "auto", "break", "case", "char", "const", "continue", "default", "do",
      "double", "else", "enum", "extern", "float", "for", "goto", "if",
      "inline", "int", "long", "register", "restrict", "return", "short",
      "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
      "unsigned", "void", "volatile", "while", "bool", "half", "uchar",
      "ushort", "uint", "ulong", "size_t", "ptrdiff_t", "intptr_t",
      "uintptr_t", "true", "false", "main", "kernel", "__kernel", "global",
      "__global", "local", "__local", "constant", "__constant", "private",
      "__private", "read_only", "write_only", "read_write", "image2d_t",
      "image3d_t", "sampler_t", "event_t"};
  for (const char *candidate : words)
    if (word == candidate)
      return true;
  return false;
}

std::string gpuprogram::clIdentifier(llvm::StringRef name) {
  std::string result;
  for (char c : name)
    result += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (result.empty() || std::isdigit(static_cast<unsigned char>(result[0])) ||
      isReserved(result) || llvm::StringRef(result).starts_with("tilec_"))
    result = "k_" + result;
  return result;
}
