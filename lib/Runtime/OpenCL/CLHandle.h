//===- CLHandle.h - Owning handles for OpenCL objects ------------*- C++
//-*-===//
//
// Each OpenCL object is released exactly once, on every path out of a
// function, error paths included.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_OPENCL_CLHANDLE_H
#define TILEC_LIB_RUNTIME_OPENCL_CLHANDLE_H

#include "CLHeaders.h"

#include <utility>

namespace tilec::rt::cl {

/// Owns one reference to an OpenCL object of type T.
template <typename T, cl_int (*Release)(T)> class Handle {
public:
  Handle() = default;
  explicit Handle(T value) : value(value) {}
  Handle(Handle &&other) noexcept
      : value(std::exchange(other.value, nullptr)) {}
  Handle &operator=(Handle &&other) noexcept {
    if (this != &other) {
      reset();
      value = std::exchange(other.value, nullptr);
    }
    return *this;
  }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  ~Handle() { reset(); }

  T get() const { return value; }
  void reset() {
    if (value)
      Release(value);
    value = nullptr;
  }

private:
  T value = nullptr;
};

using Context = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using ProgramHandle = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Buffer = Handle<cl_mem, clReleaseMemObject>;
using Event = Handle<cl_event, clReleaseEvent>;

} // namespace tilec::rt::cl

#endif // TILEC_LIB_RUNTIME_OPENCL_CLHANDLE_H
