//===- CudaProgram.cpp - A PTX module loaded on one CUDA device -----------===//
//
// Loading does everything that can fail before data moves: the context, the
// JIT build, the kernels and their limits, one device buffer per manifest
// buffer (temporaries too, allocated once). A run then uploads the inputs,
// launches the kernels in manifest order on the context's default stream
// (in order: each kernel sees what the ones before wrote), synchronises and
// reads the outputs back. Every error names the driver call, its CUresult
// and the kernel or buffer it concerns.
//
//===----------------------------------------------------------------------===//

#include "CudaProgram.h"
#include "CudaChecks.h"
#include "CudaErrors.h"
#include "CudaHold.h"
#include "CudaModule.h"

#include <map>
#include <set>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::cuda;

namespace {

class CudaProgram final : public Program {
public:
  CudaProgram(std::shared_ptr<const Driver> driver, const CudaDevice &device,
              const Manifest &manifest)
      : driver_(std::move(driver)), api_(driver_->api()), device_(device),
        manifest_(manifest) {}
  ~CudaProgram() override;

  Status build(const std::string &ptx);
  Status run(const std::map<std::string, Tensor> &inputs,
             std::map<std::string, Tensor> &outputs,
             std::vector<KernelTiming> *timings) override;
  Status setInput(const std::string &name, const Tensor &tensor) override;
  Status runResident(const std::map<std::string, Tensor> &fresh,
                     const std::vector<Carry> &carried) override;
  Status readBack(const std::string &name, Tensor &tensor) override;

private:
  Status fail(const std::string &where, const char *call, CUresult code) const {
    return callFailed(where, call, code, &api_);
  }
  /// The driver's current context is per thread: every entry point makes
  /// this program's the current one, so programs on several devices (or a
  /// caller on another thread) work.
  Status makeCurrent() const;
  Status createBuffers();
  /// Launches every kernel in manifest order; with `timed`, between two
  /// events each.
  Status launchAll(bool timed);
  /// Waits for the launches; a failure names the kernels it may be.
  Status synchronize();
  Status collectTimings(std::vector<KernelTiming> &timings) const;

  std::shared_ptr<const Driver> driver_;
  const Api &api_;
  CudaDevice device_;
  Manifest manifest_;
  CUcontext context_ = nullptr;
  Module module_;
  Hold hold_;
  std::map<int, CUdeviceptr> buffers_;
  /// Start and end event of each launch, made on the first timed run.
  std::vector<CUevent> events_;
  /// Launches since the last synchronisation.
  size_t pending_ = 0;
};

Status CudaProgram::makeCurrent() const {
  if (CUresult r = api_.cuCtxSetCurrent(context_); r != kSuccess)
    return fail("device " + device_.info.id, "cuCtxSetCurrent", r);
  return Status::success();
}

Status CudaProgram::build(const std::string &ptx) {
  // The primary context is the one the CUDA runtime and libraries share, so
  // tilec's kernels can run beside them in one process.
  if (CUresult r = api_.cuDevicePrimaryCtxRetain(&context_, device_.handle);
      r != kSuccess) {
    context_ = nullptr;
    return fail("device " + device_.info.id, "cuDevicePrimaryCtxRetain", r);
  }
  if (Status s = makeCurrent(); !s)
    return s;
  if (Status s = module_.load(api_, device_.info, manifest_, ptx); !s)
    return s;
  return createBuffers();
}

Status CudaProgram::createBuffers() {
  for (const ManifestBuffer &entry : manifest_.buffers) {
    CUdeviceptr pointer = 0;
    if (CUresult r = api_.cuMemAlloc(&pointer, entry.bytes); r != kSuccess)
      return fail(describeBuffer(entry), "cuMemAlloc", r);
    buffers_[entry.id] = pointer;
    // Zeroed, so a kernel that reads what no kernel wrote reads the same on
    // every run and every device.
    if (CUresult r = api_.cuMemsetD8(pointer, 0, entry.bytes); r != kSuccess)
      return fail(describeBuffer(entry), "cuMemsetD8", r);
  }
  return Status::success();
}

CudaProgram::~CudaProgram() {
  if (!context_)
    return;
  // Errors are ignored: after a failed kernel the context refuses every
  // call, and releasing it frees everything anyway.
  api_.cuCtxSetCurrent(context_);
  for (CUevent event : events_)
    api_.cuEventDestroy(event);
  for (const auto &entry : buffers_)
    api_.cuMemFree(entry.second);
  module_.unload(api_);
  hold_.unload(api_);
  api_.cuCtxSetCurrent(nullptr);
  api_.cuDevicePrimaryCtxRelease(device_.handle);
}

Status CudaProgram::launchAll(bool timed) {
  if (timed && events_.empty())
    for (size_t i = 0; i < 2 * manifest_.kernels.size(); ++i) {
      CUevent event = nullptr;
      if (CUresult r = api_.cuEventCreate(&event, 0); r != kSuccess)
        return fail("device " + device_.info.id, "cuEventCreate", r);
      events_.push_back(event);
    }
  // So that each event pair times its kernel, not its launch (CudaHold.h).
  if (timed)
    if (Status s = hold_.launch(
            api_, Hold::nanosecondsFor(manifest_.kernels.size()));
        !s)
      return s;
  for (size_t k = 0; k < manifest_.kernels.size(); ++k) {
    const ManifestKernel &entry = manifest_.kernels[k];
    // kernelParams holds a pointer to each argument's value; every
    // argument is a buffer's bare device pointer.
    std::vector<CUdeviceptr> values;
    for (const KernelArg &arg : entry.args)
      values.push_back(buffers_.at(arg.buffer));
    std::vector<void *> params;
    for (CUdeviceptr &value : values)
      params.push_back(&value);
    std::array<uint64_t, 3> grid = workGroupCounts(entry);
    std::string where = kernelWhere(entry);
    if (timed)
      if (CUresult r = api_.cuEventRecord(events_[2 * k], nullptr);
          r != kSuccess)
        return fail(where, "cuEventRecord", r);
    CUresult launch = api_.cuLaunchKernel(
        module_.function(k), unsigned(grid[0]), unsigned(grid[1]),
        unsigned(grid[2]), unsigned(entry.local[0]), unsigned(entry.local[1]),
        unsigned(entry.local[2]), unsigned(entry.dynamicSharedBytes), nullptr,
        params.empty() ? nullptr : params.data(), nullptr);
    if (launch != kSuccess)
      return Status::error(
          where + ": cuLaunchKernel failed: " + resultName(launch, &api_) +
          "; grid " + sizesText(grid) + ", block " + sizesText(entry.local) +
          ", dynamic shared memory " +
          std::to_string(entry.dynamicSharedBytes) + " bytes");
    ++pending_;
    if (timed)
      if (CUresult r = api_.cuEventRecord(events_[2 * k + 1], nullptr);
          r != kSuccess)
        return fail(where, "cuEventRecord", r);
  }
  return Status::success();
}

Status CudaProgram::synchronize() {
  size_t launched = pending_;
  pending_ = 0;
  CUresult r = api_.cuCtxSynchronize();
  if (r == kSuccess)
    return Status::success();
  // A kernel's failure shows at the next synchronisation, which cannot say
  // whose it was; with one kernel there is no doubt.
  std::set<std::string> names;
  std::string list;
  for (const ManifestKernel &kernel : manifest_.kernels)
    if (names.insert(kernel.name).second)
      list += (list.empty() ? "'" : ", '") + kernel.name + "'";
  if (names.size() == 1)
    return fail("kernel " + list, "cuCtxSynchronize", r);
  return Status::error(
      "cuCtxSynchronize failed after " + std::to_string(launched) +
      " kernel launches: " + resultName(r, &api_) +
      "; CUDA reports a failed kernel at the next synchronisation, so it is "
      "one of " +
      list + " (with CUDA_LAUNCH_BLOCKING=1 the error names it)");
}

Status CudaProgram::collectTimings(std::vector<KernelTiming> &timings) const {
  for (size_t k = 0; k < manifest_.kernels.size(); ++k) {
    float milliseconds = 0;
    if (CUresult r = api_.cuEventElapsedTime(&milliseconds, events_[2 * k],
                                             events_[2 * k + 1]);
        r != kSuccess)
      return fail(kernelWhere(manifest_.kernels[k]), "cuEventElapsedTime", r);
    timings.push_back({manifest_.kernels[k].name, double(milliseconds) * 1e-3});
  }
  return Status::success();
}

Status CudaProgram::run(const std::map<std::string, Tensor> &inputs,
                        std::map<std::string, Tensor> &outputs,
                        std::vector<KernelTiming> *timings) {
  if (Status s = checkInputs(manifest_, inputs); !s)
    return s;
  if (Status s = makeCurrent(); !s)
    return s;
  for (const ManifestValue &value : manifest_.inputs) {
    const Tensor &tensor = inputs.at(value.name);
    if (CUresult r = api_.cuMemcpyHtoD(buffers_.at(value.buffer),
                                       tensor.data.data(), tensor.data.size());
        r != kSuccess)
      return fail("input '" + value.name + "'", "cuMemcpyHtoD", r);
  }
  if (Status s = launchAll(timings != nullptr); !s)
    return s;
  if (Status s = synchronize(); !s)
    return s;
  std::map<std::string, Tensor> results;
  for (const ManifestValue &value : manifest_.outputs) {
    const ManifestBuffer &buffer = *manifest_.findBuffer(value.buffer);
    Tensor &tensor = results[value.name] =
        Tensor(TensorType{buffer.dtype, buffer.shape});
    if (CUresult r = api_.cuMemcpyDtoH(
            tensor.data.data(), buffers_.at(value.buffer), tensor.data.size());
        r != kSuccess)
      return fail("output '" + value.name + "'", "cuMemcpyDtoH", r);
  }
  if (timings)
    if (Status s = collectTimings(*timings); !s)
      return s;
  for (auto &[name, tensor] : results)
    outputs[name] = std::move(tensor);
  return Status::success();
}

Status CudaProgram::setInput(const std::string &name, const Tensor &tensor) {
  if (Status s = checkInputs(manifest_, {{name, tensor}}, /*partial=*/true); !s)
    return s;
  if (Status s = makeCurrent(); !s)
    return s;
  const ManifestValue *value = manifest_.findValue(name);
  // From pageable memory the copy has left the caller's tensor when it
  // returns, so the tensor may go away.
  if (CUresult r = api_.cuMemcpyHtoD(buffers_.at(value->buffer),
                                     tensor.data.data(), tensor.data.size());
      r != kSuccess)
    return fail("input '" + name + "'", "cuMemcpyHtoD", r);
  return Status::success();
}

Status CudaProgram::runResident(const std::map<std::string, Tensor> &fresh,
                                const std::vector<Carry> &carried) {
  for (const auto &[name, tensor] : fresh)
    if (Status s = setInput(name, tensor); !s)
      return s;
  if (Status s = makeCurrent(); !s)
    return s;
  if (Status s = launchAll(false); !s)
    return s;
  Result<std::vector<CarriedCopy>> copies = carriedCopies(manifest_, carried);
  if (!copies)
    return copies.status();
  // On the default stream, after the kernels: no host synchronisation.
  for (const CarriedCopy &copy : *copies)
    if (CUresult r = api_.cuMemcpyDtoD(buffers_.at(copy.to),
                                       buffers_.at(copy.from), copy.bytes);
        r != kSuccess)
      return fail("carrying '" + copy.output + "' to '" + copy.input + "'",
                  "cuMemcpyDtoD", r);
  return Status::success();
}

Status CudaProgram::readBack(const std::string &name, Tensor &tensor) {
  const ManifestValue *value = manifest_.findValue(name);
  if (!value)
    return Status::error("'" + name + "' is not an input or output");
  if (Status s = makeCurrent(); !s)
    return s;
  if (Status s = synchronize(); !s)
    return s;
  const ManifestBuffer &buffer = *manifest_.findBuffer(value->buffer);
  tensor = Tensor(TensorType{buffer.dtype, buffer.shape});
  if (CUresult r = api_.cuMemcpyDtoH(
          tensor.data.data(), buffers_.at(value->buffer), tensor.data.size());
      r != kSuccess)
    return fail("'" + name + "'", "cuMemcpyDtoH", r);
  return Status::success();
}

} // namespace

Result<std::unique_ptr<Program>>
cuda::loadProgram(std::shared_ptr<const Driver> driver,
                  const CudaDevice &device, const Manifest &manifest,
                  const std::string &ptx) {
  auto program =
      std::make_unique<CudaProgram>(std::move(driver), device, manifest);
  if (Status s = program->build(ptx); !s)
    return s;
  return std::unique_ptr<Program>(std::move(program));
}
