//===- CLProgram.cpp - A manifest's kernels built on one OpenCL device ----===//
//
// Loading does everything that can fail before data moves: the device's
// half and double support, the work-group sizes, the build, the kernels, one
// buffer per manifest buffer (temporaries too, allocated once) and the
// kernel arguments. A run then only uploads the inputs, enqueues the kernels
// in manifest order with a profiling event each and reads the outputs back.
// Every error names the OpenCL error and the kernel or buffer it concerns.
//
//===----------------------------------------------------------------------===//

#include "CLBuildLog.h"
#include "CLErrors.h"
#include "CLHandle.h"
#include "OpenCLInternal.h"

#include <algorithm>
#include <map>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::cl;

namespace {

std::string sizesText(const std::array<uint64_t, 3> &sizes) {
  return "[" + std::to_string(sizes[0]) + ", " + std::to_string(sizes[1]) +
         ", " + std::to_string(sizes[2]) + "]";
}

/// "kernel add: clEnqueueNDRangeKernel failed: CL_INVALID_WORK_GROUP_SIZE".
Status clError(const std::string &where, const char *call, cl_int code) {
  return Status::error(where + ": " + call + " failed: " + errorName(code));
}

/// The first kernel with an argument of type `dtype`, for messages.
std::string kernelUsing(const Manifest &manifest, DType dtype) {
  for (const ManifestKernel &kernel : manifest.kernels)
    for (const KernelArg &arg : kernel.args) {
      const ManifestBuffer *buffer = manifest.findBuffer(arg.buffer);
      if (buffer->role != BufferRole::Temporary && buffer->dtype == dtype)
        return kernel.name;
    }
  return manifest.kernels.empty() ? "" : manifest.kernels.front().name;
}

bool usesType(const Manifest &manifest, const std::string &source, DType dtype,
              const char *extension) {
  if (source.find(extension) != std::string::npos)
    return true;
  for (const ManifestBuffer &buffer : manifest.buffers)
    if (buffer.role != BufferRole::Temporary && buffer.dtype == dtype)
      return true;
  return false;
}

/// f64 kernels, and sources that enable cl_khr_fp16 themselves, need an
/// extension the device may lack; saying so beats the driver's "unknown
/// type 'double'". tilec's own f16 kernels carry f16 as ushort bits and
/// compute in float, so f16 buffers alone need no extension.
Status checkExtensions(const DeviceInfo &device, const Manifest &manifest,
                       const std::string &source) {
  if (!device.fp16 && source.find("cl_khr_fp16") != std::string::npos)
    return Status::error(
        "kernel " + kernelUsing(manifest, DType::F16) +
        ": uses half precision (f16), but device " + device.id +
        " lacks cl_khr_fp16; run it on another device (tilec-run --devices) "
        "or compile the program with f32");
  if (!device.fp64 && usesType(manifest, source, DType::F64, "cl_khr_fp64"))
    return Status::error("kernel " + kernelUsing(manifest, DType::F64) +
                         ": uses double precision (f64), but device " +
                         device.id + " lacks cl_khr_fp64");
  return Status::success();
}

/// Checks a kernel's work-group against the device before the driver does.
Status checkWorkGroup(const DeviceInfo &device, const ManifestKernel &kernel,
                      size_t kernelLimit) {
  uint64_t items = kernel.local[0] * kernel.local[1] * kernel.local[2];
  uint64_t limit = device.maxWorkGroupSize;
  if (kernelLimit != 0 && (limit == 0 || kernelLimit < limit))
    limit = kernelLimit;
  if (limit != 0 && items > limit)
    return Status::error("kernel " + kernel.name + ": work-group " +
                         sizesText(kernel.local) + " has " +
                         std::to_string(items) + " work-items, more than the " +
                         std::to_string(limit) + " device " + device.id +
                         " allows (CL_INVALID_WORK_GROUP_SIZE)");
  for (size_t i = 0; i < 3 && i < device.maxWorkItemSizes.size(); ++i)
    if (kernel.local[i] > device.maxWorkItemSizes[i])
      return Status::error(
          "kernel " + kernel.name + ": work-group " + sizesText(kernel.local) +
          " exceeds device " + device.id + "'s limit of " +
          std::to_string(device.maxWorkItemSizes[i]) + " in dimension " +
          std::to_string(i) + " (CL_INVALID_WORK_ITEM_SIZE)");
  return Status::success();
}

class OpenCLProgram final : public Program {
public:
  OpenCLProgram(const CLDevice &device, const Manifest &manifest)
      : device(device), manifest(manifest) {}

  Status build(const std::string &source);
  Status run(const std::map<std::string, Tensor> &inputs,
             std::map<std::string, Tensor> &outputs,
             std::vector<KernelTiming> *timings) override;
  Status setInput(const std::string &name, const Tensor &tensor) override;
  Status runResident(const std::map<std::string, Tensor> &fresh,
                     const std::vector<Carry> &carried) override;
  Status readBack(const std::string &name, Tensor &tensor) override;

private:
  /// Enqueues every kernel in manifest order, one event each.
  Status enqueueKernels(std::vector<Event> &events);
  /// Waits for the queue; a failure names the kernel of `events` whose
  /// event failed.
  Status finish(const std::vector<Event> &events);
  /// The events of the last resident run, to explain a failure.
  std::vector<Event> residentEvents;

  Status buildProgram(const std::string &source);
  Status createBuffers();
  Status createKernels();
  /// After a failed clFinish: the first kernel whose event failed.
  Status explainFailure(const std::vector<Event> &events, cl_int code) const;

  CLDevice device;
  Manifest manifest;
  Context context;
  Queue queue;
  ProgramHandle program;
  std::vector<Kernel> kernels;
  std::map<int, Buffer> buffers;
};

Status OpenCLProgram::build(const std::string &source) {
  if (Status s = checkExtensions(device.info, manifest, source); !s)
    return s;
  cl_int code = CL_SUCCESS;
  cl_device_id id = device.device;
  cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, cl_context_properties(device.platform), 0};
  context =
      Context(clCreateContext(properties, 1, &id, nullptr, nullptr, &code));
  if (code != CL_SUCCESS)
    return clError("device " + device.info.id, "clCreateContext", code);
  queue = Queue(clCreateCommandQueue(context.get(), id,
                                     CL_QUEUE_PROFILING_ENABLE, &code));
  if (code != CL_SUCCESS)
    return clError("device " + device.info.id, "clCreateCommandQueue", code);
  if (Status s = buildProgram(source); !s)
    return s;
  if (Status s = createKernels(); !s)
    return s;
  return createBuffers();
}

Status OpenCLProgram::buildProgram(const std::string &source) {
  cl_int code = CL_SUCCESS;
  const char *text = source.data();
  size_t length = source.size();
  program = ProgramHandle(
      clCreateProgramWithSource(context.get(), 1, &text, &length, &code));
  if (code != CL_SUCCESS)
    return clError(manifest.artefact, "clCreateProgramWithSource", code);
  cl_device_id id = device.device;
  code = clBuildProgram(program.get(), 1, &id, "", nullptr, nullptr);
  if (code == CL_SUCCESS)
    return Status::success();
  std::string log;
  size_t size = 0;
  if (clGetProgramBuildInfo(program.get(), id, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                            &size) == CL_SUCCESS &&
      size > 1) {
    log.resize(size);
    clGetProgramBuildInfo(program.get(), id, CL_PROGRAM_BUILD_LOG, size,
                          log.data(), nullptr);
    log.resize(log.find('\0') == std::string::npos ? size : log.find('\0'));
  }
  std::string where = locateBuildError(log, source, manifest);
  return Status::error(manifest.artefact + ": the OpenCL build failed on " +
                       device.info.id + " (" + errorName(code) + ")" +
                       (where.empty() ? "\n" : ", " + where) + "driver log:\n" +
                       (log.empty() ? "(empty)" : log));
}

Status OpenCLProgram::createKernels() {
  for (const ManifestKernel &entry : manifest.kernels) {
    cl_int code = CL_SUCCESS;
    Kernel kernel(clCreateKernel(program.get(), entry.name.c_str(), &code));
    if (code != CL_SUCCESS)
      return clError("kernel " + entry.name + " (in " + manifest.artefact + ")",
                     "clCreateKernel", code);
    size_t limit = 0;
    clGetKernelWorkGroupInfo(kernel.get(), device.device,
                             CL_KERNEL_WORK_GROUP_SIZE, sizeof(limit), &limit,
                             nullptr);
    if (Status s = checkWorkGroup(device.info, entry, limit); !s)
      return s;
    kernels.push_back(std::move(kernel));
  }
  return Status::success();
}

Status OpenCLProgram::createBuffers() {
  for (const ManifestBuffer &entry : manifest.buffers) {
    cl_int code = CL_SUCCESS;
    Buffer buffer(clCreateBuffer(context.get(), CL_MEM_READ_WRITE, entry.bytes,
                                 nullptr, &code));
    if (code != CL_SUCCESS)
      return clError("buffer " + std::to_string(entry.id) +
                         (entry.name.empty() ? "" : " (" + entry.name + ")") +
                         " of " + std::to_string(entry.bytes) + " bytes",
                     "clCreateBuffer", code);
    buffers[entry.id] = std::move(buffer);
  }
  for (size_t k = 0; k < kernels.size(); ++k) {
    const ManifestKernel &entry = manifest.kernels[k];
    for (size_t i = 0; i < entry.args.size(); ++i) {
      cl_mem mem = buffers[entry.args[i].buffer].get();
      cl_int code =
          clSetKernelArg(kernels[k].get(), cl_uint(i), sizeof(mem), &mem);
      if (code != CL_SUCCESS)
        return clError("kernel " + entry.name + " argument " +
                           std::to_string(i),
                       "clSetKernelArg", code);
    }
  }
  return Status::success();
}

Status OpenCLProgram::explainFailure(const std::vector<Event> &events,
                                     cl_int code) const {
  for (size_t k = 0; k < events.size(); ++k) {
    cl_int status = CL_COMPLETE;
    clGetEventInfo(events[k].get(), CL_EVENT_COMMAND_EXECUTION_STATUS,
                   sizeof(status), &status, nullptr);
    if (status < 0)
      return clError("kernel " + manifest.kernels[k].name, "the launch",
                     status);
  }
  return clError("device " + device.info.id, "clFinish", code);
}

Status OpenCLProgram::run(const std::map<std::string, Tensor> &inputs,
                          std::map<std::string, Tensor> &outputs,
                          std::vector<KernelTiming> *timings) {
  if (Status s = checkInputs(manifest, inputs); !s)
    return s;
  // Enqueued copies read and write host memory the caller owns: on every
  // way out, wait until the queue no longer touches it.
  struct Drain {
    cl_command_queue queue;
    ~Drain() { clFinish(queue); }
  } drain{queue.get()};
  cl_int code;
  for (const ManifestValue &value : manifest.inputs) {
    const Tensor &tensor = inputs.at(value.name);
    code = clEnqueueWriteBuffer(queue.get(), buffers[value.buffer].get(),
                                CL_FALSE, 0, tensor.data.size(),
                                tensor.data.data(), 0, nullptr, nullptr);
    if (code != CL_SUCCESS)
      return clError("input '" + value.name + "'", "clEnqueueWriteBuffer",
                     code);
  }
  std::vector<Event> events;
  if (Status s = enqueueKernels(events); !s)
    return s;
  std::map<std::string, Tensor> results;
  for (const ManifestValue &value : manifest.outputs) {
    const ManifestBuffer &buffer = *manifest.findBuffer(value.buffer);
    Tensor &tensor = results[value.name] =
        Tensor(TensorType{buffer.dtype, buffer.shape});
    code = clEnqueueReadBuffer(queue.get(), buffers[value.buffer].get(),
                               CL_FALSE, 0, tensor.data.size(),
                               tensor.data.data(), 0, nullptr, nullptr);
    if (code != CL_SUCCESS)
      return clError("output '" + value.name + "'", "clEnqueueReadBuffer",
                     code);
  }
  if (Status s = finish(events); !s)
    return s;
  if (timings) {
    for (size_t k = 0; k < events.size(); ++k) {
      cl_ulong start = 0, end = 0;
      cl_int a =
          clGetEventProfilingInfo(events[k].get(), CL_PROFILING_COMMAND_START,
                                  sizeof(start), &start, nullptr);
      cl_int b =
          clGetEventProfilingInfo(events[k].get(), CL_PROFILING_COMMAND_END,
                                  sizeof(end), &end, nullptr);
      if (a != CL_SUCCESS || b != CL_SUCCESS)
        return clError("kernel " + manifest.kernels[k].name,
                       "clGetEventProfilingInfo", a != CL_SUCCESS ? a : b);
      timings->push_back({manifest.kernels[k].name,
                          end > start ? double(end - start) * 1e-9 : 0});
    }
  }
  for (auto &[name, tensor] : results)
    outputs[name] = std::move(tensor);
  return Status::success();
}

Status OpenCLProgram::enqueueKernels(std::vector<Event> &events) {
  for (size_t k = 0; k < kernels.size(); ++k) {
    const ManifestKernel &entry = manifest.kernels[k];
    size_t global[3], local[3];
    for (int d = 0; d < 3; ++d) {
      global[d] = size_t(entry.global[d]);
      local[d] = size_t(entry.local[d]);
    }
    cl_event event = nullptr;
    cl_int code = clEnqueueNDRangeKernel(queue.get(), kernels[k].get(), 3,
                                         nullptr, global, local, 0, nullptr,
                                         &event);
    if (code != CL_SUCCESS)
      return Status::error(
          "kernel " + entry.name +
          ": clEnqueueNDRangeKernel failed: " + errorName(code) + " (global " +
          sizesText(entry.global) + ", local " + sizesText(entry.local) + ")");
    events.emplace_back(event);
  }
  return Status::success();
}


Status OpenCLProgram::finish(const std::vector<Event> &events) {
  cl_int code = clFinish(queue.get());
  if (code != CL_SUCCESS)
    return explainFailure(events, code);
  for (const Event &event : events) {
    cl_int status = CL_COMPLETE;
    clGetEventInfo(event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS,
                   sizeof(status), &status, nullptr);
    if (status < 0)
      return explainFailure(events, status);
  }
  return Status::success();
}

Status OpenCLProgram::setInput(const std::string &name, const Tensor &tensor) {
  if (Status s = checkInputs(manifest, {{name, tensor}}, /*partial=*/true); !s)
    return s;
  const ManifestValue *value = manifest.findValue(name);
  // Blocking: the caller's tensor may go away when this returns.
  cl_int code = clEnqueueWriteBuffer(queue.get(), buffers[value->buffer].get(),
                                     CL_TRUE, 0, tensor.data.size(),
                                     tensor.data.data(), 0, nullptr, nullptr);
  if (code != CL_SUCCESS)
    return clError("input '" + name + "'", "clEnqueueWriteBuffer", code);
  return Status::success();
}

Status OpenCLProgram::runResident(const std::map<std::string, Tensor> &fresh,
                                  const std::vector<Carry> &carried) {
  for (const auto &[name, tensor] : fresh)
    if (Status s = setInput(name, tensor); !s)
      return s;
  residentEvents.clear();
  if (Status s = enqueueKernels(residentEvents); !s)
    return s;
  Result<std::vector<CarriedCopy>> copies = carriedCopies(manifest, carried);
  if (!copies)
    return copies.status();
  for (const CarriedCopy &copy : *copies) {
    cl_int code = clEnqueueCopyBuffer(queue.get(), buffers[copy.from].get(),
                                      buffers[copy.to].get(), 0, 0, copy.bytes,
                                      0, nullptr, nullptr);
    if (code != CL_SUCCESS)
      return clError("carrying '" + copy.output + "' to '" + copy.input + "'",
                     "clEnqueueCopyBuffer", code);
  }
  clFlush(queue.get());
  return Status::success();
}

Status OpenCLProgram::readBack(const std::string &name, Tensor &tensor) {
  const ManifestValue *value = manifest.findValue(name);
  if (!value)
    return Status::error("'" + name + "' is not an input or output");
  if (Status s = finish(residentEvents); !s)
    return s;
  const ManifestBuffer &buffer = *manifest.findBuffer(value->buffer);
  tensor = Tensor(TensorType{buffer.dtype, buffer.shape});
  cl_int code = clEnqueueReadBuffer(queue.get(), buffers[value->buffer].get(),
                                    CL_TRUE, 0, tensor.data.size(),
                                    tensor.data.data(), 0, nullptr, nullptr);
  if (code != CL_SUCCESS)
    return clError("'" + name + "'", "clEnqueueReadBuffer", code);
  return Status::success();
}

} // namespace

Result<std::unique_ptr<Program>> cl::loadProgram(const CLDevice &device,
                                                 const Manifest &manifest,
                                                 const std::string &source) {
  if (manifest.target != "opencl")
    return Result<std::unique_ptr<Program>>::error(
        manifest.artefact + ": a " + manifest.target +
        " manifest, which the OpenCL runtime does not run");
  auto program = std::make_unique<OpenCLProgram>(device, manifest);
  if (Status s = program->build(source); !s)
    return s;
  return std::unique_ptr<Program>(std::move(program));
}
