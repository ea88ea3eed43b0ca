//===- GPUBackend.h - The opencl and spirv targets in the driver -*- C++ -*-===//
//
// What `tilec FILE --target=opencl|spirv` and `tilec run --target=opencl|spirv`
// do after the front end: lower the loop level to the gpu level
// (buildLoopsToGPUPipeline), then print it (--emit=gpu), print the kernels
// (--emit=cl, --emit=spirv-asm), or write OUT with the launch manifest
// beside it as OUT.json. Running on a device is DeviceSession's.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_GPUBACKEND_H
#define TILEC_TOOLS_TILEC_GPUBACKEND_H

#include "Options.h"
#include "Targets.h"

#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Runtime/Device.h"
#include "tilec/Runtime/Manifest.h"
#include "tilec/Target/GPU/ManifestBuilder.h"
#include "tilec/Target/SPIRV/SPIRVTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec::driver {

using compiler::ProgramLoader;

/// Compiles `program` for `target` (OpenCL or SPIRV); `emit` is std::nullopt,
/// GPU, CL (opencl) or SPIRVAsm (spirv). The artefact goes to -o (default:
/// the input's stem + ".cl" or ".spv") and its manifest to OUT.json; `-o -`
/// writes only the artefact, to stdout. Without --emit, the outputs come
/// from the compile cache when it has them (CompileCache.h).
void compileForGPU(Target target, const CompileOptions &options,
                   std::optional<EmitKind> emit, ProgramLoader &loader,
                   const typed::Program &program);

// The steps of a GPU compile, shared with DeviceSession (which compiles for
// an opened device and loads the result).

/// The kernels of one program for one target: the file's bytes (OpenCL C
/// source or a SPIR-V binary) and the launch manifest that goes with them.
struct GPUArtefact {
  std::string bytes;
  rt::Manifest manifest;
};

/// The kernels of a gpu-level module for `target` with their manifest;
/// `artefactName` is the kernel file's name as the manifest records it.
GPUArtefact makeArtefact(Target target, mlir::ModuleOp module,
                         ManifestContext context,
                         llvm::StringRef artefactName);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_GPUBACKEND_H
