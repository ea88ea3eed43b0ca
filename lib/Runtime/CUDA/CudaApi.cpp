//===- CudaApi.cpp - Opening libcuda.so.1 and initialising it -------------===//

#include "CudaApi.h"
#include "CudaErrors.h"

#include <dlfcn.h>
#include <string_view>

using namespace tilec;
using namespace tilec::rt::cuda;

/// The first of `symbols` that `library` has, or null.
template <size_t N>
static void *resolve(void *library, const char *const (&symbols)[N]) {
  for (const char *symbol : symbols)
    if (void *address = dlsym(library, symbol))
      return address;
  return nullptr;
}

Result<std::shared_ptr<Driver>> Driver::open() {
  std::shared_ptr<Driver> self(new Driver());
  // Only the versioned name: the driver package installs it, while a bare
  // libcuda.so is usually the toolkit's link-time stub.
  self->library_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!self->library_) {
    const char *why = dlerror();
    return Status::error(std::string("libcuda.so.1 not found (") +
                         (why ? why : "dlopen failed") + ")");
  }

  Api &api = self->api_;
  const char *missing = nullptr;
#define TILEC_CUDA_LOAD(name, symbols, params)                                 \
  {                                                                            \
    const char *const candidates[] = {TILEC_CUDA_UNPAREN symbols};             \
    api.name = reinterpret_cast<decltype(api.name)>(                           \
        resolve(self->library_, candidates));                                  \
    if (!api.name && !missing && std::string_view(#name) != "cuGetErrorName")  \
      missing = candidates[0];                                                 \
  }
  TILEC_CUDA_FUNCTIONS(TILEC_CUDA_LOAD)
#undef TILEC_CUDA_LOAD
  // cuGetErrorName may be missing: it only refines messages. Nothing of
  // the library has run yet, so it can be closed again; after cuInit, even
  // a failed one, it stays (see library_).
  if (missing) {
    dlclose(self->library_);
    return Status::error(std::string("libcuda.so.1 has no ") + missing +
                         " (a driver older than CUDA 11?)");
  }

  if (CUresult r = api.cuInit(0); r != kSuccess) {
    std::string text = "cuInit failed: " + resultName(r, &api);
    // 34: CUDA_ERROR_STUB_LIBRARY. Naming it saves a search.
    if (r == 34)
      text += "; libcuda.so.1 is the CUDA toolkit's stub, not a driver";
    return Status::error(text);
  }
  if (api.cuDriverGetVersion(&self->version_) != kSuccess)
    self->version_ = 0;
  return self;
}
