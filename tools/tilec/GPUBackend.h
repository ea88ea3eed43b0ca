//===- GPUBackend.h - The opencl and spirv targets in the driver -*- C++ -*-===//
//
// What `tilec FILE --target=opencl|spirv` and `tilec run --target=opencl|spirv`
// do after the front end: lower the loop level to the gpu level
// (buildLoopsToGPUPipeline), then print it (--emit=gpu), print the kernels
// (--emit=cl, --emit=spirv-asm), write OUT with the launch manifest beside it
// as OUT.json, or load the kernels on a device through the runtime library
// and run them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_GPUBACKEND_H
#define TILEC_TOOLS_TILEC_GPUBACKEND_H

#include "Options.h"
#include "ProgramLoader.h"
#include "Targets.h"

#include "tilec/Support/Tensor.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec::driver {

/// Compiles `program` for `target` (OpenCL or SPIRV); `emit` is std::nullopt,
/// GPU, CL (opencl) or SPIRVAsm (spirv). The artefact goes to -o (default:
/// the input's stem + ".cl" or ".spv") and its manifest to OUT.json; `-o -`
/// writes only the artefact, to stdout.
void compileForGPU(Target target, const CompileOptions &options,
                   std::optional<EmitKind> emit, ProgramLoader &loader,
                   const typed::Program &program);

/// The same for a FILE.mlir already at the gpu level (kernels written or
/// transformed by hand, and the emitters' tests): no front end runs, and
/// the manifest's dtypes come from the memref element types.
void compileGPULevelFile(Target target, const CompileOptions &options,
                         std::optional<EmitKind> emit);

/// Compiles `program` for the device `deviceRequest` names (see
/// rt::selectDevice; empty: the first GPU, else the first device) of
/// `target`'s runtime, specialised on that device's limits, and runs it on
/// `inputs`. With `verbose`, says on stderr which device ran it.
std::vector<Tensor> runOnDevice(Target target, const std::string &deviceRequest,
                                ProgramLoader &loader,
                                const typed::Program &program,
                                const std::vector<Tensor> &inputs,
                                bool verbose);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_GPUBACKEND_H
