//===- OpenCLEmitter.h - The gpu level as OpenCL C 1.2 source ---*- C++ -*-===//
//
// `tilec FILE -o kernel.cl` (the default target) translates the gpu level
// (Pipelines.h, buildLoopsToGPUPipeline) to OpenCL C 1.2, the most widely
// supported version: one `__kernel` per gpu.func, named like it, in launch
// order. Each kernel starts with a comment naming the Tile statements
// (file:line) it computes. Buffers are `__global`, `restrict` (the manifest
// never passes one buffer twice to a kernel) and `const` when only read;
// workgroup memory becomes `__local` arrays.
//
// Element types: f16 and bf16 are stored and carried as `ushort` bits and
// computed in float, rounded to nearest even after every operation (the
// interpreter's rounding), so f16 needs no cl_khr_fp16 and runs on every
// device; f64 is `double` (cl_khr_fp64, with an #error naming the extension
// when the device lacks it). Signless integers are the signed C types; the
// signedness an operation needs (arith.divui, cmpi ult, ...) is a cast.
//
// Anything the emitter cannot translate exactly is an error on its op.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_OPENCL_OPENCLEMITTER_H
#define TILEC_TARGET_OPENCL_OPENCLEMITTER_H

#include "mlir/Support/LLVM.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec {

/// Writes the OpenCL C source of every kernel `module` launches. On failure
/// an error has been emitted on the offending op and nothing is written.
mlir::LogicalResult emitOpenCL(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_TARGET_OPENCL_OPENCLEMITTER_H
