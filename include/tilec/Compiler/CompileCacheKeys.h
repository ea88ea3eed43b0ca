//===- CompileCacheKeys.h - What each compile depends on --------*- C++ -*-===//
//
// Part of lib/Compiler: the key material of the compile cache for each
// target. The program enters as its loop-level module printed after the
// schedules were applied, with its source locations: that covers every
// kernel's fingerprint and schedule, the -D bindings, the entry, and the
// "file:line" of each statement that manifests record. What the module does
// not say (the machine or device the code is specialised for, -O, the
// output kind, the manifest's fields) is added field by field.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_COMPILECACHEKEYS_H
#define TILEC_COMPILER_COMPILECACHEKEYS_H

#include "tilec/Compiler/CompileCache.h"

#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Target/GPU/ManifestBuilder.h"
#include "tilec/Target/SPIRV/SPIRVTarget.h"

#include "mlir/IR/BuiltinOps.h"

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace tilec::compiler {

/// A compile for the CPU `target` ("llvm-x86") of the loop-level `module`
/// (its entry already renamed to the output's symbol) to `outputKind`
/// ("object", "llvm", "asm") for `machine` (CPU name and features) at
/// `optLevel`.
CacheKey cpuCacheKey(llvm::StringRef target, mlir::ModuleOp module,
                     const llvm::TargetMachine &machine, unsigned optLevel,
                     llvm::StringRef outputKind);

/// A compile for the GPU `target` ("opencl", "spirv") of the scheduled
/// loop-level `module` (whose #tilec.gpu_target names every device fact
/// the mapping and the back end use) and the manifest's fields.
CacheKey gpuCacheKey(llvm::StringRef target, mlir::ModuleOp module,
                     const ManifestContext &manifest);

} // namespace tilec::compiler

#endif // TILEC_COMPILER_COMPILECACHEKEYS_H
