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
#include "Prelude.h"

#include "mlir/IR/Value.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
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
class KernelEmitter {
public:
  KernelEmitter(const GPUProgram &program, const KernelFunction &function,
                Prelude &prelude, llvm::raw_ostream &os)
      : program(program), function(function),
        launch(program.launches[function.launches.front()]),
        prelude(prelude), os(os) {}

  /// Writes the kernel: its comment, signature and body.
  mlir::LogicalResult emit();

  //===--- For the op emitters --------------------------------------------===//

  Prelude &getPrelude() { return prelude; }

  /// The C type of `type`, noting double for the prelude; an error
  /// on `op` if OpenCL C cannot represent it.
  mlir::FailureOr<std::string> typeName(mlir::Operation *op, mlir::Type type);
  /// The C expression of a value: its variable, or a literal.
  std::string get(mlir::Value value) const;
  /// `value` as a float (bf16 and f16 bits converted), for computing in
  /// float.
  std::string getAsFloat(mlir::Value value);
  /// `expr`, a float, converted to the representation of `type` (bf16,
  /// f16: rounded to bits; other types unchanged).
  std::string fromFloat(mlir::Type type, const std::string &expr);

  /// Writes `T name = expr;` for a new variable holding `result`.
  mlir::LogicalResult define(mlir::Operation *op, mlir::Value result,
                             const std::string &expr,
                             llvm::StringRef prefix = "v");
  /// Declares a variable for `value` without initialising it (`T name;`).
  mlir::LogicalResult declare(mlir::Operation *op, mlir::Value value,
                              llvm::StringRef prefix);
  /// Makes `value` stand for the C expression `expr` (no statement).
  void bind(mlir::Value value, std::string expr) {
    names[value] = std::move(expr);
  }
  /// A name not used yet in this kernel. A descriptive base with an
  /// underscore ("in_A", "lid_x") is used as it is when still free; a short
  /// prefix ("v", "i", "acc") always gets a number: v0, v1, ...
  std::string freshName(llvm::StringRef base);
  /// The stream, indented for a new statement.
  llvm::raw_ostream &line();
  void indent() { ++depth; }
  void dedent() { --depth; }

  /// Emits the ops of `block` except its terminator.
  mlir::LogicalResult emitBlock(mlir::Block &block);

private:
  void emitComment();
  mlir::LogicalResult emitSignature();
  mlir::LogicalResult emitOp(mlir::Operation &op);

  const GPUProgram &program;
  const KernelFunction &function;
  const KernelLaunch &launch; ///< the first launch of the function
  Prelude &prelude;
  llvm::raw_ostream &os;
  unsigned depth = 0;
  llvm::DenseMap<mlir::Value, std::string> names;
  llvm::StringMap<unsigned> nameCounts; ///< next number per prefix
  llvm::StringSet<> usedNames;
};

/// The translations of each dialect's ops. Each writes the op's statements
/// through `emitter`, or emits an error on an op it cannot translate.
mlir::LogicalResult emitArithOp(KernelEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitMathOp(KernelEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitMemRefOp(KernelEmitter &emitter, mlir::Operation &op);
mlir::LogicalResult emitSCFOp(KernelEmitter &emitter, mlir::Operation &op);
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

/// The linear element offset of `indices` into `memref` (by its static
/// strides: row-major for the identity layout), as a C expression such as
/// "i0 * 6 + v2", or std::nullopt for a dynamic layout.
std::optional<std::string> linearIndex(KernelEmitter &emitter,
                                       mlir::MemRefType memref,
                                       mlir::ValueRange indices);

} // namespace tilec::opencl

#endif // TILEC_LIB_TARGET_OPENCL_KERNELEMITTER_H
