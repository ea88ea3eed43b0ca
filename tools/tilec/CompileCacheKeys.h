//===- CompileCacheKeys.h - What each compile depends on --------*- C++ -*-===//
//
// Part of the tilec driver: the key material of the compile cache for each
// target. The program enters as its loop-level module printed after the
// schedules were applied, with its source locations: that covers every
// kernel's fingerprint and schedule, the -D bindings, the entry, and the
// "file:line" of each statement that manifests record. What the module does
// not say (the machine or device the code is specialised for, -O, the
// output kind, the manifest's fields) is added field by field.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_COMPILECACHEKEYS_H
#define TILEC_TOOLS_TILEC_COMPILECACHEKEYS_H

#include "CompileCache.h"
#include "Options.h"
#include "Targets.h"

#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Target/GPU/ManifestBuilder.h"
#include "tilec/Target/SPIRV/SPIRVTarget.h"

#include "mlir/IR/BuiltinOps.h"

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace tilec::driver {

/// The cache settings of a plain compile's flags.
CacheSettings cacheSettingsOf(const CompileOptions &options);

/// An llvm-x86 compile of the loop-level `module` (its entry already
/// renamed to the output's symbol) to `outputKind` ("object", "llvm",
/// "asm") for `machine` (CPU name and features) at `optLevel`.
CacheKey cpuCacheKey(mlir::ModuleOp module, const llvm::TargetMachine &machine,
                     unsigned optLevel, llvm::StringRef outputKind);

/// An opencl or spirv compile of the scheduled loop-level `module` with the
/// device limits it is mapped for, the SPIR-V capabilities it may use and
/// the manifest's fields.
CacheKey gpuCacheKey(Target target, mlir::ModuleOp module,
                     const GPUTargetOptions &limits,
                     const SPIRVTargetOptions &spirv,
                     const ManifestContext &manifest);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_COMPILECACHEKEYS_H
