//===- CPUCompile.h - The loop level as CPU code ----------------*- C++ -*-===//
//
// The llvm-x86 backend's code generation after the schedules are on the
// loop level, each step a stage of --time-passes (StageTiming.h): the
// loops-to-LLVM pipeline, translation to LLVM IR, LLVM's optimisation and
// the machine code, all for the one CPU a Pipelines/CPUCodeGen names.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_LLVM_CPUCOMPILE_H
#define TILEC_TARGET_LLVM_CPUCOMPILE_H

#include "tilec/Pipelines/CPUCodeGen.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Error.h"

#include <string>

namespace tilec {

/// What a CPU compile produces: `--emit=llvm`, `--emit=asm`, or an object.
enum class CPUOutput { LLVMIR, Assembly, Object };

/// Lowers the loop-level `module` (in place) to `output` for the CPU of
/// `codegen`. A pipeline failure is an input error (its diagnostics already
/// shown); an LLVM failure a runtime error.
llvm::Expected<std::string> generateCPUCode(mlir::MLIRContext &context,
                                            mlir::ModuleOp module,
                                            const CPUCodeGen &codegen,
                                            CPUOutput output);

} // namespace tilec

#endif // TILEC_TARGET_LLVM_CPUCOMPILE_H
