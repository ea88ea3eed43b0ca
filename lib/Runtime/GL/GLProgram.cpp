//===- GLProgram.cpp - A glsl artefact loaded on one GL device ------------===//
//
// Loading does everything that can fail before data moves: the shaders
// compiled and linked, the limits checked, one storage buffer per manifest
// buffer (temporaries too, allocated once, zeroed). A run uploads the
// inputs, dispatches the kernels in manifest order with a memory barrier
// between them (each sees what the ones before wrote), and maps the
// outputs to read them back through a staging buffer: a buffer the host
// maps is one NVIDIA's driver moves to host memory, where every kernel
// then reads and writes it across PCIe (35 times slower on an H200).
// Buffers are rounded up to whole 32-bit words:
// shaders address 8- and 16-bit elements through the word that holds them.
// Every error names the GL call, its error code and the kernel or buffer.
//
//===----------------------------------------------------------------------===//

#include "GLProgram.h"
#include "GLChecks.h"
#include "GLErrors.h"
#include "GLShaders.h"

#include <chrono>
#include <cstring>
#include <map>
#include <vector>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::gl;

namespace {

/// `bytes` rounded up to whole words, at least one.
GLsizeiptr wordBytes(uint64_t bytes) {
  return GLsizeiptr(std::max<uint64_t>(4, (bytes + 3) / 4 * 4));
}

class GLProgram final : public Program {
public:
  GLProgram(std::shared_ptr<const Library> library, const GLDevice &device,
            const Manifest &manifest)
      : library_(std::move(library)), api_(library_->api()), device_(device),
        manifest_(manifest) {}
  ~GLProgram() override;

  Status build(const std::string &artefact);
  Status run(const std::map<std::string, Tensor> &inputs,
             std::map<std::string, Tensor> &outputs,
             std::vector<KernelTiming> *timings) override;
  Status setInput(const std::string &name, const Tensor &tensor) override;
  Status runResident(const std::map<std::string, Tensor> &fresh,
                     const std::vector<Carry> &carried) override;
  Status readBack(const std::string &name, Tensor &tensor) override;

private:
  Status createBuffers();
  Status upload(int buffer, const Tensor &tensor, const std::string &what);
  Status download(int buffer, Tensor &tensor, const std::string &what);
  /// Dispatches every kernel in manifest order; with `timed`, each between
  /// two GL_TIMESTAMP queries (llvmpipe's GL_TIME_ELAPSED queries time
  /// draws, not dispatches), or on the host where there are none.
  Status dispatchAll(bool timed);
  Status collectTimings(std::vector<KernelTiming> &timings);

  std::shared_ptr<const Library> library_;
  const Api &api_;
  GLDevice device_;
  Manifest manifest_;
  ShaderPrograms programs_;
  std::map<int, GLuint> buffers_;
  /// Where outputs are copied to be mapped, made on the first read.
  GLuint staging_ = 0;
  GLsizeiptr stagingBytes_ = 0;
  std::vector<GLuint> queries_;
  /// Each kernel's host-timed seconds, where the device has no queries.
  std::vector<double> hostSeconds_;
};

Status GLProgram::build(const std::string &artefact) {
  if (Status s = makeCurrent(api_, device_); !s)
    return s;
  GLint maxBlocks = 0;
  api_.glGetIntegerv(glc::kMaxComputeShaderStorageBlocks, &maxBlocks);
  if (Status s = checkManifest(manifest_, device_.info, uint64_t(maxBlocks));
      !s)
    return s;
  if (Status s = programs_.build(api_, manifest_, artefact, device_.info.id,
                                device_.glslVersion);
      !s)
    return s;
  return createBuffers();
}

Status GLProgram::createBuffers() {
  for (const ManifestBuffer &entry : manifest_.buffers) {
    GLuint buffer = 0;
    api_.glGenBuffers(1, &buffer);
    buffers_[entry.id] = buffer;
    // Zeroed, so a kernel that reads what no kernel wrote reads the same
    // on every run and every device.
    std::vector<char> zeros(size_t(wordBytes(entry.bytes)), 0);
    api_.glBindBuffer(glc::kShaderStorageBuffer, buffer);
    api_.glBufferData(glc::kShaderStorageBuffer, GLsizeiptr(zeros.size()),
                      zeros.data(), glc::kDynamicCopy);
    if (Status s = checkGL(api_, describeBuffer(entry) + ": glBufferData"); !s)
      return s;
  }
  return Status::success();
}

GLProgram::~GLProgram() {
  if (!makeCurrent(api_, device_))
    return;
  if (!queries_.empty())
    api_.glDeleteQueries(GLsizei(queries_.size()), queries_.data());
  for (const auto &entry : buffers_)
    api_.glDeleteBuffers(1, &entry.second);
  if (staging_)
    api_.glDeleteBuffers(1, &staging_);
  programs_.release(api_);
}

Status GLProgram::upload(int buffer, const Tensor &tensor,
                         const std::string &what) {
  api_.glBindBuffer(glc::kShaderStorageBuffer, buffers_.at(buffer));
  api_.glBufferSubData(glc::kShaderStorageBuffer, 0,
                       GLsizeiptr(tensor.data.size()), tensor.data.data());
  return checkGL(api_, what + ": glBufferSubData");
}

Status GLProgram::download(int buffer, Tensor &tensor,
                           const std::string &what) {
  GLsizeiptr bytes = GLsizeiptr(tensor.data.size());
  if (bytes == 0)
    return Status::success();
  if (bytes > stagingBytes_) {
    if (!staging_)
      api_.glGenBuffers(1, &staging_);
    api_.glBindBuffer(glc::kCopyWriteBuffer, staging_);
    api_.glBufferData(glc::kCopyWriteBuffer, bytes, nullptr,
                      glc::kStreamRead);
    stagingBytes_ = bytes;
  }
  api_.glBindBuffer(glc::kCopyReadBuffer, buffers_.at(buffer));
  api_.glBindBuffer(glc::kCopyWriteBuffer, staging_);
  api_.glCopyBufferSubData(glc::kCopyReadBuffer, glc::kCopyWriteBuffer, 0, 0,
                           bytes);
  if (Status s = checkGL(api_, what + ": glCopyBufferSubData"); !s)
    return s;
  api_.glBindBuffer(glc::kCopyReadBuffer, staging_);
  void *mapped = api_.glMapBufferRange(glc::kCopyReadBuffer, 0, bytes,
                                       glc::kMapReadBit);
  if (!mapped) {
    Status s = checkGL(api_, what + ": glMapBufferRange");
    return s ? Status::error(what + ": glMapBufferRange failed") : s;
  }
  std::memcpy(tensor.data.data(), mapped, tensor.data.size());
  api_.glUnmapBuffer(glc::kCopyReadBuffer);
  return checkGL(api_, what + ": glUnmapBuffer");
}

Status GLProgram::dispatchAll(bool timed) {
  // Without timer queries (OpenGL ES), each dispatch is timed on the host
  // between two glFinish calls: it includes the driver's overhead.
  bool hostTimed = timed && !device_.timerQueries;
  hostSeconds_.assign(hostTimed ? manifest_.kernels.size() : 0, 0.0);
  if (timed && !hostTimed && queries_.empty()) {
    queries_.resize(2 * manifest_.kernels.size());
    api_.glGenQueries(GLsizei(queries_.size()), queries_.data());
  }
  for (size_t k = 0; k < manifest_.kernels.size(); ++k) {
    const ManifestKernel &kernel = manifest_.kernels[k];
    api_.glUseProgram(programs_.program(kernel.name));
    // Binding i is the kernel's i-th buffer, as the shader declares them.
    for (size_t i = 0; i < kernel.args.size(); ++i)
      api_.glBindBufferBase(glc::kShaderStorageBuffer, GLuint(i),
                            buffers_.at(kernel.args[i].buffer));
    std::array<uint64_t, 3> groups = workGroupCounts(kernel);
    if (hostTimed)
      api_.glFinish();
    auto start = std::chrono::steady_clock::now();
    if (timed && !hostTimed)
      api_.glQueryCounter(queries_[2 * k], glc::kTimestamp);
    api_.glDispatchCompute(GLuint(groups[0]), GLuint(groups[1]),
                           GLuint(groups[2]));
    if (timed && !hostTimed)
      api_.glQueryCounter(queries_[2 * k + 1], glc::kTimestamp);
    if (hostTimed) {
      api_.glFinish();
      hostSeconds_[k] = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count();
    }
    // What a dispatch wrote is visible to the next one and to the reads.
    api_.glMemoryBarrier(glc::kAllBarrierBits);
    if (Status s = checkGL(api_, kernelWhere(kernel) + ": glDispatchCompute " +
                                     sizesText(groups));
        !s)
      return s;
  }
  return Status::success();
}

Status GLProgram::collectTimings(std::vector<KernelTiming> &timings) {
  if (!hostSeconds_.empty()) {
    for (size_t k = 0; k < manifest_.kernels.size(); ++k)
      timings.push_back({manifest_.kernels[k].name, hostSeconds_[k]});
    return Status::success();
  }
  for (size_t k = 0; k < manifest_.kernels.size(); ++k) {
    GLuint64 start = 0, end = 0;
    api_.glGetQueryObjectui64v(queries_[2 * k], glc::kQueryResult, &start);
    api_.glGetQueryObjectui64v(queries_[2 * k + 1], glc::kQueryResult, &end);
    timings.push_back({manifest_.kernels[k].name,
                       double(end > start ? end - start : 0) * 1e-9});
  }
  return checkGL(api_, "glGetQueryObjectui64v");
}

Status GLProgram::run(const std::map<std::string, Tensor> &inputs,
                      std::map<std::string, Tensor> &outputs,
                      std::vector<KernelTiming> *timings) {
  if (Status s = checkInputs(manifest_, inputs); !s)
    return s;
  if (Status s = makeCurrent(api_, device_); !s)
    return s;
  for (const ManifestValue &value : manifest_.inputs)
    if (Status s = upload(value.buffer, inputs.at(value.name),
                          "input '" + value.name + "'");
        !s)
      return s;
  if (Status s = dispatchAll(timings != nullptr); !s)
    return s;
  std::map<std::string, Tensor> results;
  for (const ManifestValue &value : manifest_.outputs) {
    const ManifestBuffer &buffer = *manifest_.findBuffer(value.buffer);
    Tensor &tensor = results[value.name] =
        Tensor(TensorType{buffer.dtype, buffer.shape});
    if (Status s = download(value.buffer, tensor, "output '" + value.name + "'");
        !s)
      return s;
  }
  if (timings)
    if (Status s = collectTimings(*timings); !s)
      return s;
  for (auto &[name, tensor] : results)
    outputs[name] = std::move(tensor);
  return Status::success();
}

Status GLProgram::setInput(const std::string &name, const Tensor &tensor) {
  if (Status s = checkInputs(manifest_, {{name, tensor}}, /*partial=*/true); !s)
    return s;
  if (Status s = makeCurrent(api_, device_); !s)
    return s;
  return upload(manifest_.findValue(name)->buffer, tensor,
                "input '" + name + "'");
}

Status GLProgram::runResident(const std::map<std::string, Tensor> &fresh,
                              const std::vector<Carry> &carried) {
  for (const auto &[name, tensor] : fresh)
    if (Status s = setInput(name, tensor); !s)
      return s;
  if (Status s = makeCurrent(api_, device_); !s)
    return s;
  if (Status s = dispatchAll(false); !s)
    return s;
  Result<std::vector<CarriedCopy>> copies = carriedCopies(manifest_, carried);
  if (!copies)
    return copies.status();
  for (const CarriedCopy &copy : *copies) {
    api_.glBindBuffer(glc::kCopyReadBuffer, buffers_.at(copy.from));
    api_.glBindBuffer(glc::kCopyWriteBuffer, buffers_.at(copy.to));
    api_.glCopyBufferSubData(glc::kCopyReadBuffer, glc::kCopyWriteBuffer, 0, 0,
                             GLsizeiptr(copy.bytes));
    if (Status s = checkGL(api_, "carrying '" + copy.output + "' to '" +
                                     copy.input + "': glCopyBufferSubData");
        !s)
      return s;
  }
  return Status::success();
}

Status GLProgram::readBack(const std::string &name, Tensor &tensor) {
  const ManifestValue *value = manifest_.findValue(name);
  if (!value)
    return Status::error("'" + name + "' is not an input or output");
  if (Status s = makeCurrent(api_, device_); !s)
    return s;
  const ManifestBuffer &buffer = *manifest_.findBuffer(value->buffer);
  tensor = Tensor(TensorType{buffer.dtype, buffer.shape});
  return download(value->buffer, tensor, "'" + name + "'");
}

} // namespace

Result<std::unique_ptr<Program>>
gl::loadProgram(std::shared_ptr<const Library> library, const GLDevice &device,
                const Manifest &manifest, const std::string &artefact) {
  auto program =
      std::make_unique<GLProgram>(std::move(library), device, manifest);
  if (Status s = program->build(artefact); !s)
    return s;
  return std::unique_ptr<Program>(std::move(program));
}
