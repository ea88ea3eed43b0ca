//===- GLShaders.h - The shaders of a glsl artefact, compiled ---*- C++ -*-===//
//
// A glsl artefact holds one compute shader per kernel function, each after
// a line `//--- shader NAME` (lib/Target/GLSL). Each is compiled and linked
// into a program once, however many launches run it; a failure quotes the
// driver's info log and the shader line it names. On an OpenGL ES 3.1
// context the `#version 430` line becomes `#version 310 es` (`320 es` on ES
// 3.2, which has fma): tilec writes shaders in what the languages share,
// unless a kernel needs double or int64_t, which ES lacks (its compiler then
// names the line).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_GL_GLSHADERS_H
#define TILEC_LIB_RUNTIME_GL_GLSHADERS_H

#include "GLApi.h"

#include "tilec/Runtime/Manifest.h"

#include <map>
#include <string>

namespace tilec::rt::gl {

/// The shaders of `artefact` by name; an error when the text has none or
/// names one twice.
Result<std::map<std::string, std::string>>
splitShaders(const std::string &artefact);

/// "line N:\n  N | <line>\n" (and a caret under the column) for the first
/// line a GL info log names (Mesa's "0:N(C): error", NVIDIA's "0(N) :
/// error"), or "".
std::string locateShaderError(const std::string &log,
                              const std::string &source);

/// Compiled programs, one per shader a manifest's kernels run.
class ShaderPrograms {
public:
  /// Compiles and links every shader `manifest` runs (with a context of
  /// `api` current, on device `deviceId`, named in errors), under the
  /// `#version` `glslVersion` ("430", or "310 es" for OpenGL ES).
  Status build(const Api &api, const Manifest &manifest,
               const std::string &artefact, const std::string &deviceId,
               const std::string &glslVersion);
  /// Deletes the programs (with the context current).
  void release(const Api &api);
  /// The program kernel `name` runs.
  GLuint program(const std::string &name) const { return programs_.at(name); }

private:
  std::map<std::string, GLuint> programs_;
};

} // namespace tilec::rt::gl

#endif // TILEC_LIB_RUNTIME_GL_GLSHADERS_H
