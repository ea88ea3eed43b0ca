//===- GLChecks.h - A glsl manifest against a device ------------*- C++ -*-===//
//
// What about a glsl manifest can be wrong for one GL device is checked
// before anything is dispatched, so that the user reads which kernel
// exceeds which GL limit instead of a bare GL_INVALID_VALUE.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_GL_GLCHECKS_H
#define TILEC_LIB_RUNTIME_GL_GLCHECKS_H

#include "tilec/Runtime/Device.h"
#include "tilec/Runtime/Manifest.h"

namespace tilec::rt::gl {

/// Checks the manifest's target, its buffers against the largest storage
/// block, and each kernel's work-group size, work-group count and buffer
/// count against `device`'s limits (`maxStorageBlocks`:
/// GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS). A limit of 0 is not checked.
Status checkManifest(const Manifest &manifest, const DeviceInfo &device,
                     uint64_t maxStorageBlocks);

} // namespace tilec::rt::gl

#endif // TILEC_LIB_RUNTIME_GL_GLCHECKS_H
