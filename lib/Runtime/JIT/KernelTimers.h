//===- KernelTimers.h - Host-clock times of each kernel nest ----*- C++ -*-===//
//
// The CPU has no profiling counters per kernel as OpenCL and Vulkan do, so
// the JIT brackets every kernel nest (a top-level loop with `tilec.kernel`)
// of the entry function with calls to two functions of this library that
// read a steady clock. `tilec bench` and `tilec autotune` then see one time
// per kernel on llvm-x86 as they do on a GPU. Private to lib/Runtime/JIT.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_JIT_KERNELTIMERS_H
#define TILEC_LIB_RUNTIME_JIT_KERNELTIMERS_H

#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/CoreContainers.h"

#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace tilec::jit {

/// Inserts the timer calls around each kernel nest of `entry`, numbered in
/// program order (the launch order), and declares the two functions in
/// its module. Returns how many kernels are timed.
unsigned insertKernelTimers(mlir::func::FuncOp entry);

/// The addresses of the timer functions, for ExecutionEngine::registerSymbols.
llvm::orc::SymbolMap kernelTimerSymbols(llvm::orc::MangleAndInterner interner);

/// While alive, the timer calls of the current thread add each kernel's
/// seconds to `seconds` (indexed by kernel; sized by the caller). The entry
/// function runs its kernel nests on the calling thread (OpenMP teams only
/// start inside a nest), so a thread-local table is enough and lets several
/// programs run on different threads at once.
class KernelTimerScope {
public:
  explicit KernelTimerScope(std::vector<double> &seconds);
  ~KernelTimerScope();
  KernelTimerScope(const KernelTimerScope &) = delete;
  KernelTimerScope &operator=(const KernelTimerScope &) = delete;

private:
  std::vector<double> *previous;
};

} // namespace tilec::jit

#endif // TILEC_LIB_RUNTIME_JIT_KERNELTIMERS_H
