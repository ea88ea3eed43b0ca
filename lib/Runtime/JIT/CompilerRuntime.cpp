//===- CompilerRuntime.cpp - Helper functions the JIT's code calls --------===//
//
// Part of lib/Runtime/JIT; see CompilerRuntime.h.
//
//===----------------------------------------------------------------------===//

#include "CompilerRuntime.h"

#include <cstdint>
#include <cstring>

/// float -> bf16, rounding to nearest even; a NaN stays a (quiet) NaN. The
/// ABI of libgcc's and compiler-rt's function of the same name: the result
/// is a __bf16 in xmm0.
extern "C" __bf16 tilecTruncSFBF2(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  uint16_t half;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    half = uint16_t((bits >> 16) | 0x40u);
  else
    half = uint16_t((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
  __bf16 result;
  std::memcpy(&result, &half, sizeof(result));
  return result;
}

llvm::orc::SymbolMap
tilec::jit::compilerRuntimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  symbols[interner("__truncsfbf2")] = {
      llvm::orc::ExecutorAddr::fromPtr(&tilecTruncSFBF2),
      llvm::JITSymbolFlags::Exported};
  return symbols;
}
