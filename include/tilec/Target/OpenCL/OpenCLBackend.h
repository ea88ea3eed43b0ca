//===- OpenCLBackend.h - The opencl backend in the registry -*- C++ -*-===//
//
// Registers the opencl backend (Target/TargetBackend.h); called once, by
// lib/InitAll's registerAllTargetBackends.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_OPENCL_OPENCLBACKEND_H
#define TILEC_TARGET_OPENCL_OPENCLBACKEND_H

namespace tilec {

void registerOpenCLBackend();

} // namespace tilec

#endif // TILEC_TARGET_OPENCL_OPENCLBACKEND_H
