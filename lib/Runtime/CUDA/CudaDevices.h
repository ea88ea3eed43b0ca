//===- CudaDevices.h - The devices the CUDA driver sees ---------*- C++ -*-===//

#ifndef TILEC_LIB_RUNTIME_CUDA_CUDADEVICES_H
#define TILEC_LIB_RUNTIME_CUDA_CUDADEVICES_H

#include "CudaApi.h"

#include "tilec/Runtime/Device.h"

#include <vector>

namespace tilec::rt::cuda {

/// One CUDA device and what `tilec devices` says about it.
struct CudaDevice {
  CUdevice handle = 0;
  DeviceInfo info;
};

/// Every device of the driver, in its ordinal order, with ids
/// "cuda:nvidia:<name>:<index>". An error names the failing driver call.
Result<std::vector<CudaDevice>> enumerateDevices(const Driver &driver);

/// cuDriverGetVersion's number as text: 13000 -> "13.0", 12080 -> "12.8".
std::string versionText(int version);

} // namespace tilec::rt::cuda

#endif // TILEC_LIB_RUNTIME_CUDA_CUDADEVICES_H
