//===- GLRuntime.cpp - Compute shaders through OpenGL and EGL -------------===//
//
// The Runtime of Device.h for OpenGL. libEGL.so.1 is opened once, on first
// use, and its devices' contexts live as long as the runtime's library:
// programs share them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/GLRuntime.h"

#include "GLApi.h"
#include "GLDevices.h"
#include "GLProgram.h"

using namespace tilec;
using namespace tilec::rt;

namespace {

class GLRuntime final : public Runtime {
public:
  std::string name() const override { return "gl"; }
  std::vector<DeviceInfo> devices() override;
  std::string whyNone() const override { return whyNone_; }
  Result<std::unique_ptr<Program>> load(const std::string &deviceId,
                                        const Manifest &manifest,
                                        const std::string &artefact) override;

private:
  /// Opens EGL and makes a context per device, once.
  void open();

  bool opened_ = false;
  std::shared_ptr<gl::Library> library_;
  std::vector<gl::GLDevice> devices_;
  std::string whyNone_;
};

void GLRuntime::open() {
  if (opened_)
    return;
  opened_ = true;
  Result<std::shared_ptr<gl::Library>> library = gl::Library::open();
  if (!library) {
    whyNone_ = library.message();
    return;
  }
  library_ = *library;
  devices_ = gl::enumerateDevices(*library_, whyNone_);
  if (devices_.empty() && whyNone_.empty())
    whyNone_ = "EGL found no device";
}

std::vector<DeviceInfo> GLRuntime::devices() {
  open();
  return deviceInfos(devices_);
}

Result<std::unique_ptr<Program>>
GLRuntime::load(const std::string &deviceId, const Manifest &manifest,
                const std::string &artefact) {
  open();
  Result<const gl::GLDevice *> found =
      findDevice(devices_, deviceId, "GL", whyNone_);
  if (!found)
    return found.status();
  return gl::loadProgram(library_, **found, manifest, artefact);
}

} // namespace

std::unique_ptr<Runtime> tilec::rt::createGLRuntime() {
  return std::make_unique<GLRuntime>();
}
