//===- OpenCLBackend.h - The opencl target in the driver --------*- C++ -*-===//
//
// What `tilec FILE [--target=opencl]` does after the front end: lower the
// loop level to the gpu level (buildLoopsToGPUPipeline), then print it
// (--emit=gpu), print its OpenCL C (--emit=cl), or write OUT (default: the
// input's stem + ".cl") with the launch manifest beside it as OUT.json.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_OPENCLBACKEND_H
#define TILEC_TOOLS_TILEC_OPENCLBACKEND_H

#include "Options.h"
#include "ProgramLoader.h"
#include "Targets.h"

#include <optional>

namespace tilec::driver {

/// Compiles `program` for OpenCL; `emit` is std::nullopt, GPU or CL.
/// `-o -` writes only the source, to stdout.
void compileForOpenCL(const CompileOptions &options,
                      std::optional<EmitKind> emit, ProgramLoader &loader,
                      const typed::Program &program);

/// The same for a FILE.mlir already at the gpu level (kernels written or
/// transformed by hand, and the emitter's tests): no front end runs, and
/// the manifest's dtypes come from the memref element types.
void compileGPULevelFile(const CompileOptions &options,
                         std::optional<EmitKind> emit);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_OPENCLBACKEND_H
