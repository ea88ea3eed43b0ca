//===- PTXBackend.h - The ptx backend in the registry ------------*- C++ -*-===//
//
// Registers the ptx backend (Target/TargetBackend.h); called once, by
// lib/InitAll's registerAllTargetBackends.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PTX_PTXBACKEND_H
#define TILEC_TARGET_PTX_PTXBACKEND_H

namespace tilec {

void registerPTXBackend();

} // namespace tilec

#endif // TILEC_TARGET_PTX_PTXBACKEND_H
