//===- JIT.h - Run loop-level MLIR on the host through ORC ------*- C++ -*-===//
//
// `tilec run --target=llvm-x86` compiles the loop level to native code in
// memory (MLIR's ExecutionEngine, i.e. LLVM ORC) and calls the entry function
// on the program's tensors. This library is the only runtime that links LLVM;
// the device runtimes stay LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_JIT_H
#define TILEC_RUNTIME_JIT_H

#include "tilec/Support/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
class ModuleOp;
} // namespace mlir

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace tilec {

/// How to compile for the JIT (always for the host CPU).
struct JITOptions {
  unsigned optLevel = 2; ///< 0..3, as -O
  bool parallel = true;  ///< outer parallel loops on OpenMP threads
  /// Time each kernel nest (a top-level loop with `tilec.kernel`) with the
  /// host's steady clock, for run()'s `kernelSeconds`.
  bool timeKernels = false;
};

/// A loop-level program compiled to native code, ready to run many times.
class JITProgram {
public:
  /// Lowers `module` (in place) to the LLVM dialect and compiles function
  /// `entry` (empty: the function findEntryFunction picks). Lowering
  /// diagnostics are returned in the error, not printed.
  static llvm::Expected<std::unique_ptr<JITProgram>>
  compile(mlir::ModuleOp module, llvm::StringRef entry,
          const JITOptions &options);
  ~JITProgram();

  /// Runs the entry on `inputs` and returns fresh outputs of `outputTypes`.
  /// The tensors must match the entry's memref arguments (inputs then
  /// outputs) in count, shape and element size; a mismatch is an error.
  /// With `kernelSeconds` (compiled with `timeKernels`), fills the seconds of
  /// each kernel nest in program order.
  llvm::Expected<std::vector<Tensor>>
  run(llvm::ArrayRef<Tensor> inputs, llvm::ArrayRef<TensorType> outputTypes,
      std::vector<double> *kernelSeconds = nullptr) const;
  /// The same on inputs held elsewhere (the JIT runtime's named tensors),
  /// so that no input is copied.
  llvm::Expected<std::vector<Tensor>>
  runOn(llvm::ArrayRef<const Tensor *> inputs,
        llvm::ArrayRef<TensorType> outputTypes,
        std::vector<double> *kernelSeconds = nullptr) const;
  /// The same into `outputs`, tensors of the entry's output types already
  /// allocated (a caller that runs many times reuses their memory). Where
  /// `unchanged[i]` holds, input i is the tensor of the previous run, at
  /// the same address and unchanged, and the kernels reuse the panels they
  /// packed from it (tilec-cpu-keep-packed-inputs); every other input is
  /// packed again.
  llvm::Error runInto(llvm::ArrayRef<const Tensor *> inputs,
                      llvm::MutableArrayRef<Tensor> outputs,
                      std::vector<double> *kernelSeconds = nullptr,
                      llvm::ArrayRef<bool> unchanged = {}) const;

  /// How many kernels are timed (0 unless compiled with `timeKernels`).
  unsigned timedKernelCount() const { return timedKernels; }

private:
  /// Shape and storage bits of one memref argument of the entry.
  struct ArgumentType {
    std::vector<int64_t> shape;
    unsigned bits;
  };
  JITProgram() = default;
  llvm::Error checkArgument(unsigned index, const TensorType &type) const;

  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<mlir::ExecutionEngine> engine;
  std::string entry;
  std::vector<ArgumentType> arguments;
  unsigned timedKernels = 0;
  /// The program's `<entry>_changed_inputs`, one byte (KeptPanelsByte) per
  /// input the entry names, and their count; null when it names none.
  uint8_t *changedInputs = nullptr;
  size_t changedInputCount = 0;
};

} // namespace tilec

#endif // TILEC_RUNTIME_JIT_H
