//===- CudaModule.h - A PTX module's kernels, checked -----------*- C++ -*-===//
//
// The JIT build of the PTX artefact and the function of every launch, with
// the limits only the compiled code knows (its registers bound the block
// size, its static shared memory adds to the dynamic) checked per launch.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_CUDA_CUDAMODULE_H
#define TILEC_LIB_RUNTIME_CUDA_CUDAMODULE_H

#include "CudaApi.h"

#include "tilec/Runtime/Device.h"

#include <vector>

namespace tilec::rt::cuda {

class Module {
public:
  /// Builds `ptx` in the current context, finds each kernel of `manifest`
  /// and prepares its launches. A failed build quotes the JIT log and the
  /// PTX line it names.
  Status load(const Api &api, const DeviceInfo &device,
              const Manifest &manifest, const std::string &ptx);
  /// Unloads the module (in the current context); safe when none is loaded.
  void unload(const Api &api);
  /// The function launch `k` (the manifest's kernel k) runs.
  CUfunction function(size_t k) const { return functions_[k]; }

private:
  Status build(const Api &api, const DeviceInfo &device,
               const Manifest &manifest, const std::string &ptx);
  Status findFunctions(const Api &api, const Manifest &manifest);
  Status checkLaunches(const Api &api, const DeviceInfo &device,
                       const Manifest &manifest);

  CUmodule module_ = nullptr;
  std::vector<CUfunction> functions_;
};

} // namespace tilec::rt::cuda

#endif // TILEC_LIB_RUNTIME_CUDA_CUDAMODULE_H
