//===- GLShaders.cpp - The shaders of a glsl artefact, compiled -----------===//

#include "GLShaders.h"
#include "GLErrors.h"

#include "tilec/Runtime/SourceQuote.h"

#include <regex>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::gl;

namespace {

const char kMarker[] = "//--- shader ";

/// A shader object's or program's info log.
template <typename GetLength, typename GetLog>
std::string infoLog(GLuint object, GetLength getLength, GetLog getLog,
                    GLenum lengthName) {
  GLint length = 0;
  getLength(object, lengthName, &length);
  std::string log(size_t(std::max(length, 1)), '\0');
  GLsizei written = 0;
  getLog(object, GLsizei(log.size()), &written, log.data());
  log.resize(size_t(std::max(written, 0)));
  while (!log.empty() && (log.back() == '\n' || log.back() == '\0'))
    log.pop_back();
  return log;
}

/// `source` under `#version VERSION` (the same line count, so the driver's
/// line numbers stay the artefact's).
std::string withVersion(std::string source, const std::string &version) {
  const std::string ours = "#version 430\n";
  size_t at = source.find(ours);
  if (at != std::string::npos)
    source.replace(at, ours.size(), "#version " + version + "\n");
  return source;
}

/// "WHAT: the GL driver could not compile|link shader 'NAME' on DEVICE".
std::string failure(const Manifest &manifest, const std::string &step,
                    const std::string &name, const std::string &deviceId) {
  return manifest.artefact + ": the GL driver could not " + step +
         " shader '" + name + "' on " + deviceId;
}

Result<GLuint> compileShader(const Api &api, const std::string &name,
                             const std::string &source,
                             const std::string &what) {
  GLuint shader = api.glCreateShader(glc::kComputeShader);
  if (!shader) {
    Status s = checkGL(api, "shader '" + name + "': glCreateShader");
    return s ? Status::error("shader '" + name + "': glCreateShader failed")
             : s;
  }
  const GLchar *text = source.c_str();
  GLint length = GLint(source.size());
  api.glShaderSource(shader, 1, &text, &length);
  api.glCompileShader(shader);
  GLint compiled = 0;
  api.glGetShaderiv(shader, glc::kCompileStatus, &compiled);
  if (compiled)
    return shader;
  std::string log = infoLog(shader, api.glGetShaderiv,
                            api.glGetShaderInfoLog, glc::kInfoLogLength);
  api.glDeleteShader(shader);
  std::string quote = locateShaderError(log, source);
  return Status::error(what + (quote.empty() ? "\n" : ", " + quote) +
                       "driver log:\n" + log);
}

Result<GLuint> linkProgram(const Api &api, GLuint shader,
                           const std::string &what) {
  GLuint program = api.glCreateProgram();
  api.glAttachShader(program, shader);
  api.glLinkProgram(program);
  api.glDeleteShader(shader); // the program keeps it
  GLint linked = 0;
  api.glGetProgramiv(program, glc::kLinkStatus, &linked);
  if (linked)
    return program;
  std::string log = infoLog(program, api.glGetProgramiv,
                            api.glGetProgramInfoLog, glc::kInfoLogLength);
  api.glDeleteProgram(program);
  // Linking is where a shader over the device's limits (shared memory,
  // invocations) fails.
  return Status::error(what + "\ndriver log:\n" + log);
}

} // namespace

Result<std::map<std::string, std::string>>
gl::splitShaders(const std::string &artefact) {
  std::map<std::string, std::string> shaders;
  size_t at = artefact.find(kMarker);
  while (at != std::string::npos) {
    size_t nameStart = at + sizeof(kMarker) - 1;
    size_t lineEnd = artefact.find('\n', nameStart);
    if (lineEnd == std::string::npos)
      break;
    std::string name = artefact.substr(nameStart, lineEnd - nameStart);
    size_t next = artefact.find(kMarker, lineEnd);
    std::string source = artefact.substr(
        lineEnd + 1,
        (next == std::string::npos ? artefact.size() : next) - lineEnd - 1);
    if (!shaders.emplace(name, std::move(source)).second)
      return Status::error("the glsl artefact has two shaders called '" +
                           name + "'");
    at = next;
  }
  if (shaders.empty())
    return Status::error("the glsl artefact has no shader (no line starting "
                         "with '//--- shader NAME'); is it tilec's output?");
  return shaders;
}

std::string gl::locateShaderError(const std::string &log,
                                  const std::string &source) {
  std::smatch match;
  size_t line = 0, column = 0;
  if (std::regex_search(log, match,
                        std::regex("\\b0:([0-9]{1,9})\\(([0-9]{1,9})\\)"))) {
    line = std::stoul(match[1].str());
    column = std::stoul(match[2].str());
  } else if (std::regex_search(log, match,
                               std::regex("\\b0\\(([0-9]{1,9})\\)"))) {
    line = std::stoul(match[1].str());
  } else {
    return "";
  }
  return quoteSourceLine(splitLines(source), line, column, "");
}

Status ShaderPrograms::build(const Api &api, const Manifest &manifest,
                             const std::string &artefact,
                             const std::string &deviceId,
                             const std::string &glslVersion) {
  Result<std::map<std::string, std::string>> shaders = splitShaders(artefact);
  if (!shaders)
    return shaders.status();
  for (const ManifestKernel &kernel : manifest.kernels) {
    if (programs_.count(kernel.name))
      continue;
    auto found = shaders->find(kernel.name);
    if (found == shaders->end())
      return Status::error(kernelPrefix(kernel) +
                           "the glsl artefact has no shader of this name");
    std::string source = withVersion(found->second, glslVersion);
    Result<GLuint> shader = compileShader(
        api, kernel.name, source,
        failure(manifest, "compile", kernel.name, deviceId));
    if (!shader)
      return shader.status();
    Result<GLuint> program = linkProgram(
        api, *shader, failure(manifest, "link", kernel.name, deviceId));
    if (!program)
      return program.status();
    programs_[kernel.name] = *program;
  }
  return Status::success();
}

void ShaderPrograms::release(const Api &api) {
  for (const auto &entry : programs_)
    api.glDeleteProgram(entry.second);
  programs_.clear();
}
