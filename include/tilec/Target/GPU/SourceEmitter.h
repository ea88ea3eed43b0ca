//===- SourceEmitter.h - Kernels as C-family source text ---------*- C++ -*-===//
//
// What the GPU targets that write kernel source (OpenCL C, GLSL) share: the
// kernel body as one statement per op, each defining a named temporary
// (`float v3 = v1 * v2;`), constants written inline, structured control
// flow as C `for` and `if` (their syntax is the same in both languages),
// and the row-major offset of a buffer access. A target derives from
// SourceEmitter, spells its types (typeName) and translates the ops of each
// dialect (emitOp); scf ops come from here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GPU_SOURCEEMITTER_H
#define TILEC_TARGET_GPU_SOURCEEMITTER_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace llvm {
class APFloat;
} // namespace llvm

namespace tilec::source {

//===----------------------------------------------------------------------===//
// Types, as both languages see them
//===----------------------------------------------------------------------===//

/// Scalar type of `type` (its element type for a vector).
mlir::Type scalarType(mlir::Type type);
/// The 16-bit float formats, carried as their bits and computed in float
/// (neither language has bf16, and f16 arithmetic is an optional extension
/// in both).
enum class StoredFloat { BF16, F16 };
/// The format of bf16 or f16 (or a vector of them), else std::nullopt.
std::optional<StoredFloat> storedFloat(mlir::Type type);
bool isBool(mlir::Type type); ///< i1 or a vector of it
/// Width of the integer (or index: 64) scalar type of `type`.
unsigned intWidth(mlir::Type type);

/// The shortest decimal of a finite `value` that converts back to it, in a
/// form both languages read as a floating constant ("1.0", "2.5E-3").
std::string shortestDecimal(const llvm::APFloat &value);

//===----------------------------------------------------------------------===//
// The emitter
//===----------------------------------------------------------------------===//

class SourceEmitter {
public:
  /// `language` names the target language in errors ("OpenCL C").
  SourceEmitter(llvm::raw_ostream &os, llvm::StringRef language)
      : os(os), language_(language) {}
  virtual ~SourceEmitter();

  /// The language's type for a value of `type`; an error on `op` when it
  /// has none.
  virtual mlir::FailureOr<std::string> typeName(mlir::Operation *op,
                                                mlir::Type type) = 0;
  /// Translates one op (scf ops by calling emitSCFOp).
  virtual mlir::LogicalResult emitOp(mlir::Operation &op) = 0;
  /// What precedes a variable's type, given as typeName wrote it
  /// ("precise " before GLSL's floating-point types).
  virtual llvm::StringRef qualifier(llvm::StringRef typeName) { return ""; }

  llvm::StringRef language() const { return language_; }
  /// "operation 'NAME' cannot be translated to LANGUAGE".
  mlir::InFlightDiagnostic untranslatable(mlir::Operation &op);

  /// The expression of a value: its variable, or a literal.
  std::string get(mlir::Value value) const;
  /// Writes `T name = expr;` for a new variable holding `result`.
  mlir::LogicalResult define(mlir::Operation *op, mlir::Value result,
                             const std::string &expr,
                             llvm::StringRef prefix = "v");
  /// Declares a variable for `value` without initialising it (`T name;`).
  mlir::LogicalResult declare(mlir::Operation *op, mlir::Value value,
                              llvm::StringRef prefix);
  /// Makes `value` stand for the expression `expr` (no statement).
  void bind(mlir::Value value, std::string expr) {
    names[value] = std::move(expr);
  }
  /// A name not used yet in this kernel. A descriptive base with an
  /// underscore ("in_A", "lid_x") is used as it is when still free; a short
  /// prefix ("v", "i", "acc") always gets a number: v0, v1, ...
  std::string freshName(llvm::StringRef base);
  /// The stream, indented for a new statement of the kernel's body.
  llvm::raw_ostream &line();
  void indent() { ++depth; }
  void dedent() { --depth; }

  /// Emits the ops of `block` except its terminator.
  mlir::LogicalResult emitBlock(mlir::Block &block);

protected:
  llvm::raw_ostream &os;

private:
  std::string language_;
  unsigned depth = 0;
  llvm::DenseMap<mlir::Value, std::string> names;
  llvm::StringMap<unsigned> nameCounts; ///< next number per prefix
  llvm::StringSet<> usedNames;
};

/// scf.for and scf.if as C statements (EmitSCF.cpp).
mlir::LogicalResult emitSCFOp(SourceEmitter &emitter, mlir::Operation &op);

/// The linear element offset of `indices` into `memref` (by its static
/// strides: row-major for the identity layout), as an expression such as
/// "i0 * 6 + v2", or std::nullopt for a dynamic layout. Each variable term
/// of a local or private array is written as `smallCast(term)` (their
/// offsets fit 32 bits) when `smallCast` is not empty.
std::optional<std::string> linearIndex(SourceEmitter &emitter,
                                       mlir::MemRefType memref,
                                       mlir::ValueRange indices,
                                       llvm::StringRef smallCast = "");

} // namespace tilec::source

#endif // TILEC_TARGET_GPU_SOURCEEMITTER_H
