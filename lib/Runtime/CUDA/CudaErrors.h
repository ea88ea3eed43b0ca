//===- CudaErrors.h - CUresult codes as names -------------------*- C++ -*-===//

#ifndef TILEC_LIB_RUNTIME_CUDA_CUDAERRORS_H
#define TILEC_LIB_RUNTIME_CUDA_CUDAERRORS_H

#include "CudaApi.h"

#include <string>

namespace tilec::rt::cuda {

/// "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701)": the name from tilec's own
/// table, else from the driver's cuGetErrorName (when `api` has it), else
/// "CUDA error 1234".
std::string resultName(CUresult code, const Api *api = nullptr);

/// "<where>: <call> failed: <resultName>", e.g. "kernel 'matmul_C':
/// cuLaunchKernel failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701)".
Status callFailed(const std::string &where, const char *call, CUresult code,
                  const Api *api);

} // namespace tilec::rt::cuda

#endif // TILEC_LIB_RUNTIME_CUDA_CUDAERRORS_H
