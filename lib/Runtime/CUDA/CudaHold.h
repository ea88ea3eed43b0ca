//===- CudaHold.h - Keep the GPU busy while timed launches queue -*- C++ -*-===//
//
// A CUDA event records when the GPU reaches it. On an idle GPU the start
// event of a timed kernel is reached at once, and the kernel only when the
// host's cuLaunchKernel returns: the event pair then times the launch's
// host overhead too (20-50 us measured on an H200, as much as a row
// kernel's whole run), where OpenCL's and Vulkan's timestamps time the
// kernel alone. So a timed run first launches a kernel that spins on the
// GPU's clock for a while: every event and launch after it is queued
// before the GPU reaches them, and each pair times its kernel alone.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_CUDA_CUDAHOLD_H
#define TILEC_LIB_RUNTIME_CUDA_CUDAHOLD_H

#include "CudaApi.h"

#include "tilec/Runtime/Device.h"

#include <cstdint>

namespace tilec::rt::cuda {

class Hold {
public:
  /// Launches the spinning kernel for `nanoseconds` (on the null stream,
  /// in the current context), loading it on first use.
  Status launch(const Api &api, uint64_t nanoseconds);
  /// Unloads it (in the current context); safe when it was never loaded.
  void unload(const Api &api);

  /// How long to hold the GPU while `launches` timed launches queue.
  static uint64_t nanosecondsFor(size_t launches);

private:
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
};

} // namespace tilec::rt::cuda

#endif // TILEC_LIB_RUNTIME_CUDA_CUDAHOLD_H
