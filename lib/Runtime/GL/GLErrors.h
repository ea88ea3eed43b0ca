//===- GLErrors.h - EGL and GL error codes by name --------------*- C++ -*-===//

#ifndef TILEC_LIB_RUNTIME_GL_GLERRORS_H
#define TILEC_LIB_RUNTIME_GL_GLERRORS_H

#include "GLApi.h"

#include <string>

namespace tilec::rt::gl {

/// "EGL_BAD_ALLOC", or "EGL error 0x3456" for a code tilec does not know.
std::string eglErrorName(EGLint code);
/// "GL_OUT_OF_MEMORY", or "GL error 0x1234".
std::string glErrorName(GLenum code);

/// "CALL failed: EGL_..." with eglGetError's code.
Status eglFailed(const Api &api, const std::string &call);
/// Success if glGetError reports no error, else "WHERE: GL_..." (every
/// error flag the driver set, in order).
Status checkGL(const Api &api, const std::string &where);

} // namespace tilec::rt::gl

#endif // TILEC_LIB_RUNTIME_GL_GLERRORS_H
