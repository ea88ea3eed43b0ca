//===- GLDevices.h - The OpenGL devices EGL offers --------------*- C++ -*-===//
//
// One GL device per EGL device (EGL_EXT_device_enumeration: a GPU, or
// Mesa's software rasteriser llvmpipe), each with a display of the device
// platform and one context, current on no surface: no window and no X or
// Wayland server. Where EGL cannot enumerate devices, Mesa's surfaceless
// platform gives its default device. A context is OpenGL 4.3 core where
// the driver offers it, else OpenGL ES 3.1.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_GL_GLDEVICES_H
#define TILEC_LIB_RUNTIME_GL_GLDEVICES_H

#include "GLApi.h"

#include "tilec/Runtime/Device.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec::rt::gl {

struct GLDevice {
  DeviceInfo info;
  EGLDisplay display = nullptr;
  EGLContext context = nullptr;
  bool es = false; ///< the context is OpenGL ES 3.1 or later, not desktop GL
  /// The `#version` line its shaders need: "430", or "310 es" / "320 es".
  std::string glslVersion = "430";
  bool timerQueries = false; ///< GL_TIMESTAMP queries work
};

/// The devices EGL offers, each with its context made. A device whose
/// display or context cannot be made is left out, and why goes to
/// `whyNone` (what `tilec devices` says when none is left).
std::vector<GLDevice> enumerateDevices(Library &library,
                                       std::string &whyNone);

/// Makes `device`'s context current on this thread.
Status makeCurrent(const Api &api, const GLDevice &device);

} // namespace tilec::rt::gl

#endif // TILEC_LIB_RUNTIME_GL_GLDEVICES_H
