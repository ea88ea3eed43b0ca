//===- LLVMBackend.h - The llvm-x86 backend in the registry -*- C++ -*-===//
//
// Registers the llvm-x86 backend (Target/TargetBackend.h); called once, by
// lib/InitAll's registerAllTargetBackends.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_LLVM_LLVMBACKEND_H
#define TILEC_TARGET_LLVM_LLVMBACKEND_H

namespace tilec {

void registerLLVMBackend();

} // namespace tilec

#endif // TILEC_TARGET_LLVM_LLVMBACKEND_H
