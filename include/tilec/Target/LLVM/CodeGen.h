//===- CodeGen.h - LLVM dialect to optimised machine code -------*- C++ -*-===//
//
// The second half of the CPU back end: translating an LLVM-dialect module to
// LLVM IR, optimising it with LLVM's new pass manager at -O0..-O3 (the loop
// and SLP vectorisers run at -O2 and -O3) and emitting assembly or an object
// file for the host CPU or a named one.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_LLVM_CODEGEN_H
#define TILEC_TARGET_LLVM_CODEGEN_H

#include "tilec/Schedule/CPUDefaultSchedule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
class raw_pwrite_stream;
} // namespace llvm

namespace mlir {
class Operation;
} // namespace mlir

namespace tilec {

/// What kind of machine code to write.
enum class MachineCodeKind { Assembly, Object };

/// Initialises the native target (idempotent; call before any other function
/// of this header).
void initializeNativeTarget();

/// The CPU name `cpu` stands for: the host's for "native" or "".
std::string resolveCPUName(llvm::StringRef cpu);

/// A TargetMachine for the host triple and CPU `cpu` ("native" or "" means
/// the host CPU with its detected features) at -O`optLevel` (0..3). Fails
/// for a CPU name the x86 back end does not know.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef cpu, unsigned optLevel);

/// What the CPU default schedule should assume about `machine`'s CPU: its
/// SIMD width and register count (from the machine's features, so --cpu
/// counts) and the host's caches.
schedule::CPUFacts targetCPUFacts(const llvm::TargetMachine &machine);

/// Translates an LLVM-dialect module (a builtin module, or a gpu.module
/// for the PTX back end) to LLVM IR in `context`, with the data layout and
/// triple of `machine`.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(mlir::Operation *module, llvm::LLVMContext &context,
                  llvm::TargetMachine &machine);

/// Runs LLVM's default -O`optLevel` pipeline on `module` (vectorisers on at
/// -O2 and above). -O0 only runs the always-inliner.
llvm::Error optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                           unsigned optLevel);

/// Writes `module` as assembly or an ELF object for `machine` to `os`.
llvm::Error emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                            MachineCodeKind kind, llvm::raw_pwrite_stream &os);

} // namespace tilec

#endif // TILEC_TARGET_LLVM_CODEGEN_H
