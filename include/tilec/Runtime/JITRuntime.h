//===- JITRuntime.h - The host CPU as an rt::Runtime ------------*- C++ -*-===//
//
// The runtime "cpu" with the JIT behind it: `tilec run`, `tilec bench` and
// `tilec autotune` load and run llvm-x86 programs through rt::Runtime and
// rt::Program (Device.h) exactly as they do OpenCL and Vulkan programs
// (docs/architecture.md, "Three things that exist once"). It lists the same
// device as HostCpuRuntime, which it extends; builds without LLVM have only
// that one.
//
// The artefact is the scheduled loop-level module as MLIR bytecode
// (writeJITArtefact). Of the manifest the JIT reads the inputs and outputs
// (names, dtypes and shapes, the entry's memref arguments in that order)
// and the kernels, one per kernel nest in program order, which each run's
// timings name; buffers' sizes, launch sizes and bindings do not apply, the
// JIT allocates its temporaries itself.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_JITRUNTIME_H
#define TILEC_RUNTIME_JITRUNTIME_H

#include "tilec/Runtime/Device.h"
#include "tilec/Runtime/JIT.h"

#include <memory>
#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec::rt {

/// The host CPU's runtime, compiling every program it loads with `options`.
/// Kernels are always timed (options.timeKernels is ignored), as the
/// profiling counters of the GPU runtimes always are.
std::unique_ptr<Runtime> createJITRuntime(const JITOptions &options = {});

/// `module`, a loop-level module with its schedules, as the artefact the
/// JIT runtime loads. Bytecode keeps the locations, so a lowering error
/// still names the Tile source line.
Result<std::string> writeJITArtefact(mlir::ModuleOp module);

} // namespace tilec::rt

#endif // TILEC_RUNTIME_JITRUNTIME_H
