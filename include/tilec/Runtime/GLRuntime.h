//===- GLRuntime.h - Compute shaders through OpenGL and EGL -----*- C++ -*-===//
//
// The OpenGL back end of the runtime interface (Device.h): it runs the GLSL
// compute shaders that `tilec --target=glsl` writes, through EGL without a
// window (any GPU whose driver offers OpenGL 4.3 or ES 3.1, and Mesa's
// llvmpipe on a CPU). libEGL.so.1 is opened at run time, never linked, so a
// machine without EGL simply has no GL devices. No LLVM here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_GLRUNTIME_H
#define TILEC_RUNTIME_GLRUNTIME_H

#include "tilec/Runtime/Device.h"

#include <memory>

namespace tilec::rt {

/// The runtime "gl". Creating it is cheap: EGL is opened and its devices'
/// contexts made on first use (devices() or load()).
std::unique_ptr<Runtime> createGLRuntime();

} // namespace tilec::rt

#endif // TILEC_RUNTIME_GLRUNTIME_H
