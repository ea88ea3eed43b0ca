//===- CompilerRuntime.h - Helper functions the JIT's code calls -*- C++ -*-===//
//
// LLVM's x86 back end lowers some conversions to calls of compiler-runtime
// functions (libgcc / compiler-rt) rather than instructions: float -> bf16
// rounding becomes `__truncsfbf2` on CPUs without AVX512-BF16 conversions
// in the instruction mix it picks. GCC 12's libgcc lacks it, so the JIT
// defines it itself. (Objects from `tilec -o` link against the C compiler's
// runtime: clang's compiler-rt has it.) Private to lib/Runtime/JIT.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_JIT_COMPILERRUNTIME_H
#define TILEC_LIB_RUNTIME_JIT_COMPILERRUNTIME_H

#include "llvm/ExecutionEngine/Orc/CoreContainers.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

namespace tilec::jit {

/// The helper functions, for ExecutionEngine::registerSymbols.
llvm::orc::SymbolMap compilerRuntimeSymbols(
    llvm::orc::MangleAndInterner interner);

} // namespace tilec::jit

#endif // TILEC_LIB_RUNTIME_JIT_COMPILERRUNTIME_H
