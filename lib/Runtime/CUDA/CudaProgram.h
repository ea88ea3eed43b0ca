//===- CudaProgram.h - A PTX module loaded on one CUDA device ---*- C++ -*-===//

#ifndef TILEC_LIB_RUNTIME_CUDA_CUDAPROGRAM_H
#define TILEC_LIB_RUNTIME_CUDA_CUDAPROGRAM_H

#include "CudaApi.h"
#include "CudaDevices.h"

#include "tilec/Runtime/Device.h"

#include <memory>
#include <string>

namespace tilec::rt::cuda {

/// JIT-compiles `ptx` on `device` (in its primary context), finds every
/// kernel of `manifest`, checks each launch against what its compiled code
/// allows, and allocates the manifest's buffers: ready to run. The manifest
/// was checked against the device (CudaChecks.h) before.
Result<std::unique_ptr<Program>>
loadProgram(std::shared_ptr<const Driver> driver, const CudaDevice &device,
            const Manifest &manifest, const std::string &ptx);

} // namespace tilec::rt::cuda

#endif // TILEC_LIB_RUNTIME_CUDA_CUDAPROGRAM_H
