//===- CudaJitLog.h - Explaining a failed PTX build -------------*- C++ -*-===//

#ifndef TILEC_LIB_RUNTIME_CUDA_CUDAJITLOG_H
#define TILEC_LIB_RUNTIME_CUDA_CUDAJITLOG_H

#include <string>

namespace tilec::rt::cuda {

/// Where the JIT's log puts the first error: the .entry of `ptx` that holds
/// that line, and the line itself ("in kernel K, line N:\n  N | ...\n").
/// The driver's ptxas writes "ptxas application ptx input, line N; error
/// : ..."; for a log without such a line the result is empty.
std::string locateJitError(const std::string &log, const std::string &ptx);

} // namespace tilec::rt::cuda

#endif // TILEC_LIB_RUNTIME_CUDA_CUDAJITLOG_H
