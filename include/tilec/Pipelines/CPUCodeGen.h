//===- CPUCodeGen.h - Compiling the loop level for one CPU ------*- C++ -*-===//
//
// The CPU back end's compile sequence, written once for every tool (`tilec`
// for llvm-x86, the host JIT, tilec-translate): the CPU is named once, and
// both the default schedules (their SIMD width and register count) and the
// code LLVM generates come from the one TargetMachine made for it. A tool that
// schedules for one CPU and generates code for another gets slow or wrong
// code (the deleted tilec-cpu tool did so with --cpu=X).
//
// The stages, in order: buildPipeline (loop level -> LLVM dialect, run by
// the caller, who may time its passes), translate, optimize, emit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PIPELINES_CPUCODEGEN_H
#define TILEC_PIPELINES_CPUCODEGEN_H

#include "tilec/Target/LLVM/CodeGen.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

// CodeGen.h declares the LLVM classes the stages take.
namespace mlir {
class ModuleOp;
class OpPassManager;
} // namespace mlir

namespace tilec {

/// What to compile for and how.
struct CPUCodeGenOptions {
  /// An x86 CPU name LLVM knows ("skylake-avx512", "x86-64-v3"), or
  /// "native" / "" for the host with the features it reports.
  std::string cpu = "native";
  /// LLVM's optimisation level, 0..3.
  unsigned optLevel = 3;
  /// Run outermost parallel loops on OpenMP threads.
  bool parallel = true;
  /// Give kernels default schedules and apply them (tile, vectorise).
  bool schedule = true;
};

/// One CPU's compiler: its TargetMachine, and the stages that use it.
class CPUCodeGen {
public:
  /// Makes the TargetMachine for `options.cpu` (initialising LLVM's native
  /// target first); fails for a CPU name the x86 back end does not know.
  static llvm::Expected<CPUCodeGen> create(const CPUCodeGenOptions &options);

  /// Appends the passes that lower a loop-level module to the LLVM dialect,
  /// with default schedules made for this CPU; all but those of
  /// buildKernelFormation when `kernelsFormed`.
  void buildPipeline(mlir::OpPassManager &pm, bool kernelsFormed = false) const;

  /// The pipeline's first passes, which change which kernels there are
  /// (buildCPUKernelFormation, Pipelines.h).
  void buildKernelFormation(mlir::OpPassManager &pm) const;

  /// Translates the LLVM-dialect `module` to LLVM IR for this CPU.
  llvm::Expected<std::unique_ptr<llvm::Module>>
  translate(mlir::ModuleOp module, llvm::LLVMContext &context) const;

  /// Runs LLVM's optimisation pipeline at the level asked for.
  llvm::Error optimize(llvm::Module &module) const;

  /// Writes `module` as assembly or an ELF object for this CPU to `os`.
  llvm::Error emit(llvm::Module &module, MachineCodeKind kind,
                   llvm::raw_pwrite_stream &os) const;

  llvm::TargetMachine &getMachine() const { return *machine; }
  unsigned getOptLevel() const { return options.optLevel; }

  /// Hands the TargetMachine to a caller that must keep it alive with the
  /// code (the JIT); this object cannot be used afterwards.
  std::unique_ptr<llvm::TargetMachine> takeMachine() {
    return std::move(machine);
  }

  CPUCodeGen(CPUCodeGen &&) noexcept;
  CPUCodeGen &operator=(CPUCodeGen &&) noexcept;
  ~CPUCodeGen();

private:
  CPUCodeGen(const CPUCodeGenOptions &options,
             std::unique_ptr<llvm::TargetMachine> machine);
  /// The pipeline's options for this CPU.
  LoopsToLLVMOptions loweringOptions() const;

  CPUCodeGenOptions options;
  std::unique_ptr<llvm::TargetMachine> machine;
};

} // namespace tilec

#endif // TILEC_PIPELINES_CPUCODEGEN_H
