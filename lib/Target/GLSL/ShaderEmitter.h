//===- ShaderEmitter.h - One gpu.func as a GLSL compute shader --*- C++ -*-===//
//
// Part of the GLSL target. A shader is a whole compilation unit: #version,
// extensions, the work-group size, one storage block per buffer argument
// (binding N for the kernel's N-th buffer, as the manifest lists them),
// shared arrays and constant tensors at global scope, the helpers the body
// uses, then main() with one statement per op (SourceEmitter.h). The ops of
// each dialect are translated in their own file (EmitArith.cpp, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_GLSL_SHADEREMITTER_H
#define TILEC_LIB_TARGET_GLSL_SHADEREMITTER_H

#include "Prelude.h"

#include "tilec/Target/GPU/GPUProgram.h"
#include "tilec/Target/GPU/SourceEmitter.h"

#include "mlir/IR/Value.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilec::glsl {

using gpuprogram::GPUProgram;
using gpuprogram::KernelFunction;
using gpuprogram::KernelLaunch;

class ShaderEmitter : public source::SourceEmitter {
public:
  ShaderEmitter(const GPUProgram &program, const KernelFunction &function,
                bool deviceHasInt64)
      : SourceEmitter(bodyStream, "GLSL"), program(program),
        function(function),
        launch(program.launches[function.launches.front()]),
        deviceHasInt64(deviceHasInt64) {}

  /// Writes the whole shader to `out`.
  mlir::LogicalResult emit(llvm::raw_ostream &out);

  //===--- For the op emitters --------------------------------------------===//

  Prelude &getPrelude() { return prelude; }
  /// The GLSL type of `type`, noting int64_t for the prelude; an error on
  /// `op` if GLSL (or the device) cannot represent it.
  mlir::FailureOr<std::string> typeName(mlir::Operation *op,
                                        mlir::Type type) override;
  mlir::LogicalResult emitOp(mlir::Operation &op) override;
  /// "precise " for floating-point values: without it GLSL lets a compiler
  /// treat fma(a, b, c) as a * b + c and reassociate, and Mesa folded the
  /// two steps of exp's Cody-Waite reduction, fma(k, -ln2_lo, fma(k,
  /// -ln2_hi, x)), into one with ln2 rounded to float (errors of 2^-17 in
  /// llvmpipe's exp). Precise keeps every operation as written, the fused
  /// ones fused, as the other targets compute them.
  llvm::StringRef qualifier(llvm::StringRef typeName) override;

  /// `value` as a float (bf16 and f16 bits converted), for computing in
  /// float.
  std::string getAsFloat(mlir::Value value);
  /// `expr`, a float, converted to the representation of `type` (bf16,
  /// f16: rounded to bits; other types unchanged).
  std::string fromFloat(mlir::Type type, const std::string &expr);
  /// Whether `memref` is a storage buffer, whose 8- and 16-bit elements
  /// are packed into uints (not a shared, private or constant array).
  bool isStorageBuffer(mlir::Value memref) const {
    return storageBuffers.contains(memref);
  }
  /// The array of `type` (2 or 4 32-bit elements) that views the
  /// read-only storage buffer `memref` a vector at a time (a second block
  /// at the same binding, declared on first use), or "" when `memref` is
  /// not one. NVIDIA's compiler makes one wide load of `view[i]`, and four
  /// of four neighbouring scalars.
  std::string vectorView(mlir::Value memref, mlir::VectorType type);

private:
  void emitComment(llvm::raw_ostream &out);
  mlir::LogicalResult bindArguments();
  mlir::LogicalResult emitAttributions();
  mlir::LogicalResult emitConstantArray(int index);

  const GPUProgram &program;
  const KernelFunction &function;
  const KernelLaunch &launch; ///< the first launch of the function
  bool deviceHasInt64;
  Prelude prelude;
  std::string body, blocks, globalDecls;
  llvm::raw_string_ostream bodyStream{body}, blockStream{blocks},
      globalStream{globalDecls};
  llvm::DenseSet<mlir::Value> storageBuffers;
  struct ReadOnlyBuffer {
    int binding;
    std::string name;
  };
  llvm::DenseMap<mlir::Value, ReadOnlyBuffer> readOnlyBuffers;
  llvm::StringMap<std::string> vectorViews; ///< block name -> view name
};

/// The translations of each dialect's ops. Each writes the op's statements
/// through `emitter`, or emits an error on an op it cannot translate.
mlir::LogicalResult emitArithOp(ShaderEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitMathOp(ShaderEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitMemRefOp(ShaderEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitGPUOp(ShaderEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitVectorOp(ShaderEmitter &emitter, mlir::Operation &op);
/// vector.load and vector.store (EmitMemory.cpp).
mlir::LogicalResult emitVectorMemoryOp(ShaderEmitter &emitter,
                                       mlir::Operation &op);

/// The literal of a constant `attr` (scalar or splat/dense vector), or
/// std::nullopt if unsupported.
std::optional<std::string> constantLiteral(ShaderEmitter &emitter,
                                           mlir::Operation *op,
                                           mlir::TypedAttr attr);
/// The literal of one scalar constant, parenthesised when negative.
std::optional<std::string> scalarLiteral(mlir::Attribute attr);

/// An element of `memref` at linear offset `index` (an int expression):
/// its value (converted from packed storage), for a load.
mlir::FailureOr<std::string> loadElement(ShaderEmitter &emitter,
                                         mlir::Operation &op,
                                         mlir::Value memref,
                                         const std::string &index);
/// Writes the statements that store `value` at linear offset `index`.
mlir::LogicalResult storeElement(ShaderEmitter &emitter, mlir::Operation &op,
                                 mlir::Value memref, const std::string &index,
                                 const std::string &value);

/// The linear element offset of `indices` into `memref` (SourceEmitter.h).
inline std::optional<std::string> linearIndex(ShaderEmitter &emitter,
                                              mlir::MemRefType memref,
                                              mlir::ValueRange indices) {
  return source::linearIndex(emitter, memref, indices);
}

} // namespace tilec::glsl

#endif // TILEC_LIB_TARGET_GLSL_SHADEREMITTER_H
