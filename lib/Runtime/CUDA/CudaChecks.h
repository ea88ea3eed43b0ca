//===- CudaChecks.h - A ptx manifest against a device -----------*- C++ -*-===//
//
// Everything about a ptx manifest that can be wrong for one device is
// checked before the driver is asked, so that the user reads which kernel
// exceeds which limit instead of a bare CUDA_ERROR_INVALID_VALUE from
// cuLaunchKernel.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_CUDA_CUDACHECKS_H
#define TILEC_LIB_RUNTIME_CUDA_CUDACHECKS_H

#include "tilec/Runtime/Device.h"
#include "tilec/Runtime/Manifest.h"

#include <array>
#include <string>

namespace tilec::rt::cuda {

/// Checks the manifest's target, buffer sizes, and each kernel's block and
/// grid sizes and dynamic shared memory against `device`'s limits (a limit
/// the device did not report, 0, is not checked). Messages name the kernel
/// and the CUDA attribute.
Status checkManifest(const Manifest &manifest, const DeviceInfo &device);

} // namespace tilec::rt::cuda

#endif // TILEC_LIB_RUNTIME_CUDA_CUDACHECKS_H
