//===- GLProgram.h - A glsl artefact loaded on one GL device ----*- C++ -*-===//

#ifndef TILEC_LIB_RUNTIME_GL_GLPROGRAM_H
#define TILEC_LIB_RUNTIME_GL_GLPROGRAM_H

#include "GLApi.h"
#include "GLDevices.h"

#include "tilec/Runtime/Device.h"

#include <memory>
#include <string>

namespace tilec::rt::gl {

/// Compiles the shaders of `artefact` on `device` (in its context), checks
/// the manifest against the device's limits and allocates the manifest's
/// buffers: ready to run.
Result<std::unique_ptr<Program>>
loadProgram(std::shared_ptr<const Library> library, const GLDevice &device,
            const Manifest &manifest, const std::string &artefact);

} // namespace tilec::rt::gl

#endif // TILEC_LIB_RUNTIME_GL_GLPROGRAM_H
