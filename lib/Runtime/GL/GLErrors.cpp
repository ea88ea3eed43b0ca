//===- GLErrors.cpp - EGL and GL error codes by name ----------------------===//

#include "GLErrors.h"

#include <cstdio>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::gl;

/// "PREFIX error 0xCODE".
static std::string unknown(const char *prefix, unsigned code) {
  char text[32];
  std::snprintf(text, sizeof text, "%s error 0x%04X", prefix, code);
  return text;
}

std::string gl::eglErrorName(EGLint code) {
  static const char *const names[] = {
      "EGL_SUCCESS",           "EGL_NOT_INITIALIZED",   "EGL_BAD_ACCESS",
      "EGL_BAD_ALLOC",         "EGL_BAD_ATTRIBUTE",     "EGL_BAD_CONFIG",
      "EGL_BAD_CONTEXT",       "EGL_BAD_CURRENT_SURFACE", "EGL_BAD_DISPLAY",
      "EGL_BAD_MATCH",         "EGL_BAD_NATIVE_PIXMAP", "EGL_BAD_NATIVE_WINDOW",
      "EGL_BAD_PARAMETER",     "EGL_BAD_SURFACE",       "EGL_CONTEXT_LOST"};
  EGLint index = code - egl::kSuccess;
  if (index >= 0 && index < EGLint(std::size(names)))
    return names[index];
  return unknown("EGL", unsigned(code));
}

std::string gl::glErrorName(GLenum code) {
  switch (code) {
  case 0x0500:
    return "GL_INVALID_ENUM";
  case 0x0501:
    return "GL_INVALID_VALUE";
  case 0x0502:
    return "GL_INVALID_OPERATION";
  case 0x0503:
    return "GL_STACK_OVERFLOW";
  case 0x0504:
    return "GL_STACK_UNDERFLOW";
  case 0x0505:
    return "GL_OUT_OF_MEMORY";
  case 0x0506:
    return "GL_INVALID_FRAMEBUFFER_OPERATION";
  case 0x0507:
    return "GL_CONTEXT_LOST";
  default:
    return unknown("GL", code);
  }
}

Status gl::eglFailed(const Api &api, const std::string &call) {
  return Status::error(call + " failed: " + eglErrorName(api.eglGetError()));
}

Status gl::checkGL(const Api &api, const std::string &where) {
  std::string errors;
  // glGetError returns one flag per call; a lost context keeps returning
  // one, so the loop is bounded.
  for (int i = 0; i < 8; ++i) {
    GLenum code = api.glGetError();
    if (code == glc::kNoError)
      break;
    errors += (errors.empty() ? "" : ", ") + glErrorName(code);
  }
  if (errors.empty())
    return Status::success();
  return Status::error(where + ": " + errors);
}
