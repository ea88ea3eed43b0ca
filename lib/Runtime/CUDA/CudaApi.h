//===- CudaApi.h - The CUDA driver entry points tilec uses ------*- C++ -*-===//
//
// tilec opens libcuda.so.1 with dlopen instead of linking it, so neither the
// CUDA toolkit nor a driver is needed to build tilec, and a machine without
// a driver simply lists no CUDA devices. cuda.h is not included either: the
// few driver types and constants tilec needs are declared here, with their
// CUDA names, from the driver API's documented ABI.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_CUDA_CUDAAPI_H
#define TILEC_LIB_RUNTIME_CUDA_CUDAAPI_H

#include "tilec/Support/Result.h"

#include <cstddef>
#include <memory>
#include <string>

namespace tilec::rt::cuda {

//===----------------------------------------------------------------------===//
// Driver types (cuda.h's, by their ABI)
//===----------------------------------------------------------------------===//

using CUresult = int; ///< enum cudaError_enum
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

constexpr CUresult kSuccess = 0; ///< CUDA_SUCCESS

/// CUdevice_attribute values tilec reads; each comment is the name after
/// CU_DEVICE_ATTRIBUTE_.
enum DeviceAttribute : int {
  kMaxThreadsPerBlock = 1,                ///< MAX_THREADS_PER_BLOCK
  kMaxBlockDimX = 2,                      ///< MAX_BLOCK_DIM_X (Y, Z follow)
  kMaxGridDimX = 5,                       ///< MAX_GRID_DIM_X (Y, Z follow)
  kMaxSharedMemoryPerBlock = 8,           ///< MAX_SHARED_MEMORY_PER_BLOCK
  kWarpSize = 10,                         ///< WARP_SIZE
  kMaxRegistersPerBlock = 12,             ///< MAX_REGISTERS_PER_BLOCK
  kClockRate = 13,                        ///< CLOCK_RATE (kHz)
  kMultiprocessorCount = 16,              ///< MULTIPROCESSOR_COUNT
  kMemoryClockRate = 36,                  ///< MEMORY_CLOCK_RATE (kHz)
  kGlobalMemoryBusWidth = 37,             ///< GLOBAL_MEMORY_BUS_WIDTH (bits)
  kL2CacheSize = 38,                      ///< L2_CACHE_SIZE
  kComputeCapabilityMajor = 75,           ///< COMPUTE_CAPABILITY_MAJOR
  kComputeCapabilityMinor = 76,           ///< COMPUTE_CAPABILITY_MINOR
  kMaxSharedMemoryPerMultiprocessor = 81, ///< ..._PER_MULTIPROCESSOR
  kMaxSharedMemoryPerBlockOptin = 97,     ///< ..._PER_BLOCK_OPTIN
};

/// CUfunction_attribute values tilec reads or sets.
enum FunctionAttribute : int {
  kFuncMaxThreadsPerBlock = 0, ///< CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
  kFuncSharedSizeBytes = 1,    ///< CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
  kFuncNumRegs = 4,            ///< CU_FUNC_ATTRIBUTE_NUM_REGS
  kFuncMaxDynamicSharedSizeBytes = 8, ///< ..._MAX_DYNAMIC_SHARED_SIZE_BYTES
};

/// CUjit_option values for cuModuleLoadDataEx.
enum JitOption : int {
  kJitInfoLogBuffer = 3,           ///< CU_JIT_INFO_LOG_BUFFER
  kJitInfoLogBufferSizeBytes = 4,  ///< CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES
  kJitErrorLogBuffer = 5,          ///< CU_JIT_ERROR_LOG_BUFFER
  kJitErrorLogBufferSizeBytes = 6, ///< CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
};

//===----------------------------------------------------------------------===//
// The function table
//===----------------------------------------------------------------------===//

#define TILEC_CUDA_UNPAREN(...) __VA_ARGS__

/// X(member, (symbols to try, in order), (parameter types)); every entry
/// point returns CUresult. Where cuda.h maps a name to a versioned symbol
/// (cuMemAlloc -> cuMemAlloc_v2, 64-bit sizes), only that symbol is taken:
/// the unversioned one has another ABI. A fallback is listed only where the
/// two symbols share one signature.
#define TILEC_CUDA_FUNCTIONS(X)                                                \
  X(cuInit, ("cuInit"), (unsigned))                                            \
  X(cuDriverGetVersion, ("cuDriverGetVersion"), (int *))                       \
  X(cuDeviceGetCount, ("cuDeviceGetCount"), (int *))                           \
  X(cuDeviceGet, ("cuDeviceGet"), (CUdevice *, int))                           \
  X(cuDeviceGetName, ("cuDeviceGetName"), (char *, int, CUdevice))             \
  X(cuDeviceGetAttribute, ("cuDeviceGetAttribute"), (int *, int, CUdevice))    \
  X(cuDeviceTotalMem, ("cuDeviceTotalMem_v2"), (size_t *, CUdevice))           \
  X(cuDevicePrimaryCtxRetain, ("cuDevicePrimaryCtxRetain"),                    \
    (CUcontext *, CUdevice))                                                   \
  X(cuDevicePrimaryCtxRelease,                                                 \
    ("cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"), (CUdevice)) \
  X(cuCtxSetCurrent, ("cuCtxSetCurrent"), (CUcontext))                         \
  X(cuCtxSynchronize, ("cuCtxSynchronize"), ())                                \
  X(cuModuleLoadDataEx, ("cuModuleLoadDataEx"),                                \
    (CUmodule *, const void *, unsigned, int *, void **))                      \
  X(cuModuleUnload, ("cuModuleUnload"), (CUmodule))                            \
  X(cuModuleGetFunction, ("cuModuleGetFunction"),                              \
    (CUfunction *, CUmodule, const char *))                                    \
  X(cuFuncGetAttribute, ("cuFuncGetAttribute"), (int *, int, CUfunction))      \
  X(cuFuncSetAttribute, ("cuFuncSetAttribute"), (CUfunction, int, int))        \
  X(cuMemAlloc, ("cuMemAlloc_v2"), (CUdeviceptr *, size_t))                    \
  X(cuMemFree, ("cuMemFree_v2"), (CUdeviceptr))                                \
  X(cuMemsetD8, ("cuMemsetD8_v2"), (CUdeviceptr, unsigned char, size_t))       \
  X(cuMemcpyHtoD, ("cuMemcpyHtoD_v2"), (CUdeviceptr, const void *, size_t))    \
  X(cuMemcpyDtoH, ("cuMemcpyDtoH_v2"), (void *, CUdeviceptr, size_t))          \
  X(cuMemcpyDtoD, ("cuMemcpyDtoD_v2"), (CUdeviceptr, CUdeviceptr, size_t))     \
  X(cuLaunchKernel, ("cuLaunchKernel"),                                        \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
     unsigned, CUstream, void **, void **))                                    \
  X(cuEventCreate, ("cuEventCreate"), (CUevent *, unsigned))                   \
  X(cuEventDestroy, ("cuEventDestroy_v2", "cuEventDestroy"), (CUevent))        \
  X(cuEventRecord, ("cuEventRecord"), (CUevent, CUstream))                     \
  X(cuEventElapsedTime, ("cuEventElapsedTime_v2", "cuEventElapsedTime"),       \
    (float *, CUevent, CUevent))                                               \
  X(cuGetErrorName, ("cuGetErrorName"), (CUresult, const char **))

/// The resolved entry points. cuGetErrorName may be null (errors are then
/// named from tilec's own table); every other one is present once
/// Driver::open succeeded.
struct Api {
#define TILEC_CUDA_DECLARE(name, symbols, params)                              \
  CUresult(*name) params = nullptr;
  TILEC_CUDA_FUNCTIONS(TILEC_CUDA_DECLARE)
#undef TILEC_CUDA_DECLARE
};

/// The opened libcuda.so.1, initialised (cuInit). Programs share it
/// (shared_ptr), so its function table outlives every one of them.
class Driver {
public:
  /// Opens libcuda.so.1, resolves the table and calls cuInit(0). The error
  /// is what `tilec devices` prints for a runtime without devices:
  /// "libcuda.so.1 not found (<dlerror>)", "cuInit failed: CUDA_ERROR_...".
  static Result<std::shared_ptr<Driver>> open();
  Driver(const Driver &) = delete;
  Driver &operator=(const Driver &) = delete;

  const Api &api() const { return api_; }
  /// cuDriverGetVersion's value: 13000 for CUDA 13.0.
  int version() const { return version_; }

private:
  Driver() = default;
  /// Never closed: the driver's own threads and exit handlers may still run
  /// its code, and once initialised it stays loaded for the process anyway.
  void *library_ = nullptr;
  Api api_;
  int version_ = 0;
};

} // namespace tilec::rt::cuda

#endif // TILEC_LIB_RUNTIME_CUDA_CUDAAPI_H
