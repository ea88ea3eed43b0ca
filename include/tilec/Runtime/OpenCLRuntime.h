//===- OpenCLRuntime.h - The OpenCL device runtime --------------*- C++ -*-===//
//
// Runs `--target=opencl` manifests through the OpenCL ICD loader (never a
// vendor library), so any installed driver works: PoCL on a CPU, NVIDIA,
// AMD, Intel. No LLVM here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_OPENCLRUNTIME_H
#define TILEC_RUNTIME_OPENCLRUNTIME_H

#include "tilec/Runtime/Device.h"

#include <memory>

namespace tilec::rt {

/// The runtime "opencl": every device of every platform the loader finds.
std::unique_ptr<Runtime> createOpenCLRuntime();

} // namespace tilec::rt

#endif // TILEC_RUNTIME_OPENCLRUNTIME_H
