//===- CudaHold.cpp - Keep the GPU busy while timed launches queue --------===//

#include "CudaHold.h"

#include "CudaErrors.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::cuda;

namespace {

/// One thread that waits until %globaltimer (nanoseconds) has moved on by
/// its parameter. PTX 6.0 for sm_50 is JIT-compiled for any GPU since.
constexpr const char *kHoldPTX = R"(.version 6.0
.target sm_50
.address_size 64
.visible .entry tilec_hold(.param .u64 nanoseconds)
{
  .reg .pred %p;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [nanoseconds];
  mov.u64 %rd2, %globaltimer;
  add.u64 %rd3, %rd2, %rd1;
$wait:
  mov.u64 %rd4, %globaltimer;
  setp.lt.u64 %p, %rd4, %rd3;
  @%p bra $wait;
  ret;
}
)";

/// Long enough for the host to queue a launch and its two events.
constexpr uint64_t kPerLaunchNs = 20'000;
constexpr uint64_t kBaseNs = 50'000;
/// A program of many kernels is timed with gaps after this rather than
/// stalling the GPU for long.
constexpr uint64_t kMostNs = 5'000'000;

constexpr const char *kWhere = "the timing hold kernel";

} // namespace

uint64_t Hold::nanosecondsFor(size_t launches) {
  return std::min(kMostNs, kBaseNs + kPerLaunchNs * launches);
}

Status Hold::launch(const Api &api, uint64_t nanoseconds) {
  if (!function_) {
    if (!module_)
      if (CUresult r = api.cuModuleLoadDataEx(&module_, kHoldPTX, 0, nullptr,
                                              nullptr);
          r != kSuccess) {
        module_ = nullptr;
        return callFailed(kWhere, "cuModuleLoadDataEx", r, &api);
      }
    if (CUresult r = api.cuModuleGetFunction(&function_, module_, "tilec_hold");
        r != kSuccess) {
      function_ = nullptr;
      return callFailed(kWhere, "cuModuleGetFunction", r, &api);
    }
  }
  void *params[] = {&nanoseconds};
  if (CUresult r = api.cuLaunchKernel(function_, 1, 1, 1, 1, 1, 1, 0, nullptr,
                                      params, nullptr);
      r != kSuccess)
    return callFailed(kWhere, "cuLaunchKernel", r, &api);
  return Status::success();
}

void Hold::unload(const Api &api) {
  if (module_)
    api.cuModuleUnload(module_);
  module_ = nullptr;
  function_ = nullptr;
}
