//===- GLApi.h - The EGL and OpenGL entry points tilec uses -----*- C++ -*-===//
//
// tilec opens libEGL.so.1 with dlopen instead of linking it, so neither
// EGL nor GL headers or libraries are needed to build tilec, and a machine
// without them simply lists no GL devices. The few EGL and GL types and
// constants tilec needs are declared here with their Khronos names (minus
// the prefix), from the documented ABI. EGL functions come from the
// library; GL functions from eglGetProcAddress, which returns core
// functions too where EGL_KHR_client_get_all_proc_addresses holds (EGL 1.5
// and every Mesa and NVIDIA EGL).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_GL_GLAPI_H
#define TILEC_LIB_RUNTIME_GL_GLAPI_H

#include "tilec/Support/Result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace tilec::rt::gl {

//===----------------------------------------------------------------------===//
// EGL (egl.h, eglext.h)
//===----------------------------------------------------------------------===//

using EGLint = int32_t;
using EGLBoolean = unsigned;
using EGLenum = unsigned;
using EGLDisplay = void *;
using EGLContext = void *;
using EGLConfig = void *;
using EGLDeviceEXT = void *;

namespace egl {
constexpr EGLint kSuccess = 0x3000;
constexpr EGLint kNone = 0x3038;
constexpr EGLint kVendor = 0x3053;
constexpr EGLint kVersion = 0x3054;
constexpr EGLint kExtensions = 0x3055;
constexpr EGLenum kOpenGLESAPI = 0x30A0;
constexpr EGLenum kOpenGLAPI = 0x30A2;
constexpr EGLint kContextMajorVersion = 0x3098;
constexpr EGLint kContextMinorVersion = 0x30FB;
constexpr EGLint kContextOpenGLProfileMask = 0x30FD;
constexpr EGLint kContextOpenGLCoreProfileBit = 0x1;
constexpr EGLenum kPlatformDeviceEXT = 0x313F;
constexpr EGLenum kPlatformSurfacelessMESA = 0x31DD;
} // namespace egl

//===----------------------------------------------------------------------===//
// OpenGL (gl.h, glext.h; 4.3 core and ES 3.1)
//===----------------------------------------------------------------------===//

using GLenum = unsigned;
using GLuint = unsigned;
using GLint = int;
using GLsizei = int;
using GLbitfield = unsigned;
using GLboolean = unsigned char;
using GLchar = char;
using GLubyte = unsigned char;
using GLint64 = int64_t;
using GLuint64 = uint64_t;
using GLintptr = intptr_t;
using GLsizeiptr = intptr_t;

namespace glc {
constexpr GLenum kNoError = 0;
constexpr GLenum kVendor = 0x1F00;
constexpr GLenum kRenderer = 0x1F01;
constexpr GLenum kVersion = 0x1F02;
constexpr GLenum kExtensions = 0x1F03;
constexpr GLenum kShadingLanguageVersion = 0x8B8C;
constexpr GLenum kNumExtensions = 0x821D;
constexpr GLenum kMajorVersion = 0x821B;
constexpr GLenum kMinorVersion = 0x821C;
constexpr GLenum kMaxComputeWorkGroupCount = 0x91BE;
constexpr GLenum kMaxComputeWorkGroupSize = 0x91BF;
constexpr GLenum kMaxComputeWorkGroupInvocations = 0x90EB;
constexpr GLenum kMaxComputeSharedMemorySize = 0x8262;
constexpr GLenum kMaxComputeShaderStorageBlocks = 0x90DB;
constexpr GLenum kMaxShaderStorageBlockSize = 0x90DE;
constexpr GLenum kComputeShader = 0x91B9;
constexpr GLenum kCompileStatus = 0x8B81;
constexpr GLenum kLinkStatus = 0x8B82;
constexpr GLenum kInfoLogLength = 0x8B84;
constexpr GLenum kShaderStorageBuffer = 0x90D2;
constexpr GLenum kCopyReadBuffer = 0x8F36;
constexpr GLenum kCopyWriteBuffer = 0x8F37;
constexpr GLenum kDynamicCopy = 0x88EA;
constexpr GLenum kStreamRead = 0x88E1;
constexpr GLbitfield kMapReadBit = 0x0001;
constexpr GLbitfield kAllBarrierBits = 0xFFFFFFFF;
constexpr GLenum kTimestamp = 0x8E28;
constexpr GLenum kQueryResult = 0x8866;
} // namespace glc

//===----------------------------------------------------------------------===//
// The function tables
//===----------------------------------------------------------------------===//

/// X(name, return type, (parameter types)): the EGL functions of the
/// library.
#define TILEC_EGL_FUNCTIONS(X)                                                 \
  X(eglGetProcAddress, void *, (const char *))                                 \
  X(eglGetError, EGLint, ())                                                   \
  X(eglQueryString, const char *, (EGLDisplay, EGLint))                        \
  X(eglInitialize, EGLBoolean, (EGLDisplay, EGLint *, EGLint *))               \
  X(eglTerminate, EGLBoolean, (EGLDisplay))                                    \
  X(eglBindAPI, EGLBoolean, (EGLenum))                                         \
  X(eglCreateContext, EGLContext,                                              \
    (EGLDisplay, EGLConfig, EGLContext, const EGLint *))                       \
  X(eglDestroyContext, EGLBoolean, (EGLDisplay, EGLContext))                   \
  X(eglMakeCurrent, EGLBoolean,                                                \
    (EGLDisplay, void *, void *, EGLContext))

/// The EGL extension functions, from eglGetProcAddress; may be null.
#define TILEC_EGL_EXTENSION_FUNCTIONS(X)                                       \
  X(eglQueryDevicesEXT, EGLBoolean, (EGLint, EGLDeviceEXT *, EGLint *))        \
  X(eglGetPlatformDisplayEXT, EGLDisplay, (EGLenum, void *, const EGLint *))

/// The GL functions, from eglGetProcAddress once a context is current.
#define TILEC_GL_FUNCTIONS(X)                                                  \
  X(glGetError, GLenum, ())                                                    \
  X(glGetString, const GLubyte *, (GLenum))                                    \
  X(glGetStringi, const GLubyte *, (GLenum, GLuint))                           \
  X(glGetIntegerv, void, (GLenum, GLint *))                                    \
  X(glGetInteger64v, void, (GLenum, GLint64 *))                                \
  X(glGetIntegeri_v, void, (GLenum, GLuint, GLint *))                          \
  X(glCreateShader, GLuint, (GLenum))                                          \
  X(glShaderSource, void,                                                      \
    (GLuint, GLsizei, const GLchar *const *, const GLint *))                   \
  X(glCompileShader, void, (GLuint))                                           \
  X(glGetShaderiv, void, (GLuint, GLenum, GLint *))                            \
  X(glGetShaderInfoLog, void, (GLuint, GLsizei, GLsizei *, GLchar *))          \
  X(glDeleteShader, void, (GLuint))                                            \
  X(glCreateProgram, GLuint, ())                                               \
  X(glAttachShader, void, (GLuint, GLuint))                                    \
  X(glLinkProgram, void, (GLuint))                                             \
  X(glGetProgramiv, void, (GLuint, GLenum, GLint *))                           \
  X(glGetProgramInfoLog, void, (GLuint, GLsizei, GLsizei *, GLchar *))         \
  X(glDeleteProgram, void, (GLuint))                                           \
  X(glUseProgram, void, (GLuint))                                              \
  X(glGenBuffers, void, (GLsizei, GLuint *))                                   \
  X(glDeleteBuffers, void, (GLsizei, const GLuint *))                          \
  X(glBindBuffer, void, (GLenum, GLuint))                                      \
  X(glBindBufferBase, void, (GLenum, GLuint, GLuint))                          \
  X(glBufferData, void, (GLenum, GLsizeiptr, const void *, GLenum))            \
  X(glBufferSubData, void, (GLenum, GLintptr, GLsizeiptr, const void *))       \
  X(glCopyBufferSubData, void,                                                 \
    (GLenum, GLenum, GLintptr, GLintptr, GLsizeiptr))                          \
  X(glMapBufferRange, void *, (GLenum, GLintptr, GLsizeiptr, GLbitfield))      \
  X(glUnmapBuffer, GLboolean, (GLenum))                                        \
  X(glDispatchCompute, void, (GLuint, GLuint, GLuint))                         \
  X(glMemoryBarrier, void, (GLbitfield))                                       \
  X(glFinish, void, ())                                                        \
  X(glGenQueries, void, (GLsizei, GLuint *))                                   \
  X(glDeleteQueries, void, (GLsizei, const GLuint *))                          \
  X(glQueryCounter, void, (GLuint, GLenum))                                    \
  X(glGetQueryObjectui64v, void, (GLuint, GLenum, GLuint64 *))

struct Api {
#define TILEC_GL_DECLARE(name, result, params) result(*name) params = nullptr;
  TILEC_EGL_FUNCTIONS(TILEC_GL_DECLARE)
  TILEC_EGL_EXTENSION_FUNCTIONS(TILEC_GL_DECLARE)
  TILEC_GL_FUNCTIONS(TILEC_GL_DECLARE)
#undef TILEC_GL_DECLARE
};

/// The opened libEGL.so.1 and its function table. Devices and programs
/// share it (shared_ptr), so the table outlives every one of them.
class Library {
public:
  /// Opens libEGL.so.1 and resolves its functions. The error is what
  /// `tilec devices` prints for a runtime without devices.
  static Result<std::shared_ptr<Library>> open();
  Library(const Library &) = delete;
  Library &operator=(const Library &) = delete;

  const Api &api() const { return api_; }
  /// Resolves the GL functions (with a context current); an error names a
  /// missing one. GL ES 3.1 lacks glQueryCounter and glGetQueryObjectui64v
  /// (timings are then unavailable), the only ones allowed to be missing.
  Status loadGL();

private:
  Library() = default;
  /// Never closed: drivers keep threads and exit handlers in it.
  void *library_ = nullptr;
  Api api_;
};

} // namespace tilec::rt::gl

#endif // TILEC_LIB_RUNTIME_GL_GLAPI_H
