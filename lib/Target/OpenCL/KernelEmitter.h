//===- KernelEmitter.h - One gpu.func as an OpenCL C kernel -----*- C++ -*-===//
//
// Part of the OpenCL target. Each op becomes one statement that defines a
// named temporary (`float v3 = v1 * v2;`), so the C code reads like the IR
// it came from; constants are written inline. The ops of each dialect are
// translated in their own file (EmitArith.cpp, EmitMath.cpp, ...), which use
// the helpers below.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_OPENCL_KERNELEMITTER_H
#define TILEC_LIB_TARGET_OPENCL_KERNELEMITTER_H

#include "tilec/Target/GPU/GPUProgram.h"
#include "tilec/Target/GPU/SourceEmitter.h"
#include "Prelude.h"

#include "mlir/IR/Value.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilec::opencl {

// The OpenCL emitter walks the program that lib/Target/GPU analyses.
using gpuprogram::GPUProgram;
using gpuprogram::KernelFunction;
using gpuprogram::KernelLaunch;
using gpuprogram::LaunchArg;
using gpuprogram::ProgramBuffer;
using gpuprogram::ProgramConstant;

/// Writes one kernel function, which serves every launch of it: its code
/// is the gpu.func's with what the launches agree on (the work-group size,
/// the constants bound to arguments) compiled in.
class KernelEmitter : public source::SourceEmitter {
public:
  KernelEmitter(const GPUProgram &program, const KernelFunction &function,
                Prelude &prelude, llvm::raw_ostream &os)
      : SourceEmitter(os, "OpenCL C"), program(program), function(function),
        launch(program.launches[function.launches.front()]),
        prelude(prelude) {}

  /// Writes the kernel: its comment, signature and body.
  mlir::LogicalResult emit();

  //===--- For the op emitters --------------------------------------------===//

  Prelude &getPrelude() { return prelude; }

  /// The C type of `type`, noting double for the prelude; an error
  /// on `op` if OpenCL C cannot represent it.
  mlir::FailureOr<std::string> typeName(mlir::Operation *op,
                                        mlir::Type type) override;
  /// `value` as a float (bf16 and f16 bits converted), for computing in
  /// float.
  std::string getAsFloat(mlir::Value value);
  /// `expr`, a float, converted to the representation of `type` (bf16,
  /// f16: rounded to bits; other types unchanged).
  std::string fromFloat(mlir::Type type, const std::string &expr);

  mlir::LogicalResult emitOp(mlir::Operation &op) override;

private:
  void emitComment();
  mlir::LogicalResult emitSignature();

  const GPUProgram &program;
  const KernelFunction &function;
  const KernelLaunch &launch; ///< the first launch of the function
  Prelude &prelude;
};

/// The translations of each dialect's ops. Each writes the op's statements
/// through `emitter`, or emits an error on an op it cannot translate.
mlir::LogicalResult emitArithOp(KernelEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitMathOp(KernelEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitMemRefOp(KernelEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitGPUOp(KernelEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitVectorOp(KernelEmitter &emitter, mlir::Operation &op);

/// Writes `__constant T name[N] = {...};` for a constant tensor, noting
/// double in `prelude`; an error on the global if unsupported.
mlir::LogicalResult emitConstantArray(const ProgramConstant &constant,
                                      Prelude &prelude, llvm::raw_ostream &os);

/// The literal of a constant `attr` (scalar or splat/dense vector), or
/// std::nullopt if unsupported.
std::optional<std::string> constantLiteral(KernelEmitter &emitter,
                                           mlir::Operation *op,
                                           mlir::TypedAttr attr);

/// The linear element offset of `indices` into `memref` (SourceEmitter.h),
/// local and private offsets computed in int.
inline std::optional<std::string> linearIndex(KernelEmitter &emitter,
                                              mlir::MemRefType memref,
                                              mlir::ValueRange indices) {
  return source::linearIndex(emitter, memref, indices, "(int)");
}

} // namespace tilec::opencl

#endif // TILEC_LIB_TARGET_OPENCL_KERNELEMITTER_H
