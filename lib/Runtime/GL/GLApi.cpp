//===- GLApi.cpp - Opening libEGL.so.1 and resolving GL -------------------===//

#include "GLApi.h"

#include <dlfcn.h>
#include <string_view>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::gl;

Result<std::shared_ptr<Library>> Library::open() {
  std::shared_ptr<Library> self(new Library());
  // libEGL.so.1 is the glvnd dispatcher (or a vendor's EGL): it finds the
  // driver, Mesa's or NVIDIA's, by itself.
  self->library_ = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!self->library_) {
    const char *why = dlerror();
    return Status::error(std::string("libEGL.so.1 not found (") +
                         (why ? why : "dlopen failed") +
                         "); install an EGL driver (Debian: libegl1 and "
                         "libegl-mesa0)");
  }
  Api &api = self->api_;
  const char *missing = nullptr;
#define TILEC_GL_LOAD(name, result, params)                                    \
  api.name = reinterpret_cast<decltype(api.name)>(                             \
      dlsym(self->library_, #name));                                           \
  if (!api.name && !missing)                                                   \
    missing = #name;
  TILEC_EGL_FUNCTIONS(TILEC_GL_LOAD)
#undef TILEC_GL_LOAD
  if (missing) {
    dlclose(self->library_);
    return Status::error(std::string("libEGL.so.1 has no ") + missing);
  }
#define TILEC_GL_EXTENSION(name, result, params)                               \
  api.name = reinterpret_cast<decltype(api.name)>(api.eglGetProcAddress(#name));
  TILEC_EGL_EXTENSION_FUNCTIONS(TILEC_GL_EXTENSION)
#undef TILEC_GL_EXTENSION
  return self;
}

Status Library::loadGL() {
  Api &api = api_;
  const char *missing = nullptr;
#define TILEC_GL_RESOLVE(name, result, params)                                 \
  if (!api.name)                                                               \
    api.name = reinterpret_cast<decltype(api.name)>(                           \
        api.eglGetProcAddress(#name));                                         \
  if (!api.name && !missing &&                                                 \
      std::string_view(#name) != "glGetQueryObjectui64v" &&                    \
      std::string_view(#name) != "glQueryCounter")                             \
    missing = #name;
  TILEC_GL_FUNCTIONS(TILEC_GL_RESOLVE)
#undef TILEC_GL_RESOLVE
  if (missing)
    return Status::error(std::string("the GL driver has no ") + missing +
                         " (OpenGL 4.3 or ES 3.1 is needed)");
  return Status::success();
}
