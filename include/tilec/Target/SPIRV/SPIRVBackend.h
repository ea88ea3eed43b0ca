//===- SPIRVBackend.h - The spirv backend in the registry -*- C++ -*-===//
//
// Registers the spirv backend (Target/TargetBackend.h); called once, by
// lib/InitAll's registerAllTargetBackends.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_SPIRV_SPIRVBACKEND_H
#define TILEC_TARGET_SPIRV_SPIRVBACKEND_H

namespace tilec {

void registerSPIRVBackend();

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_SPIRVBACKEND_H
