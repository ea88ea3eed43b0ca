//===- CUDARuntime.h - Kernels on NVIDIA GPUs through CUDA ------*- C++ -*-===//
//
// The CUDA back end of the runtime interface (Device.h): it runs the PTX
// that `tilec --target=ptx` writes through the CUDA driver API, on any
// NVIDIA GPU the driver sees. libcuda.so.1 is opened at run time, never
// linked, so a machine without the driver simply has no CUDA devices. No
// LLVM here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_CUDARUNTIME_H
#define TILEC_RUNTIME_CUDARUNTIME_H

#include "tilec/Runtime/Device.h"

#include <memory>

namespace tilec::rt {

/// The runtime "cuda". Creating it is cheap: the driver is opened and
/// initialised on first use (devices() or load()).
std::unique_ptr<Runtime> createCUDARuntime();

} // namespace tilec::rt

#endif // TILEC_RUNTIME_CUDARUNTIME_H
